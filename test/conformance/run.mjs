#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against our host as a client:
// every client scenario its requirement sets name, each at its revision's wire (2026-07-28 stateless,
// 2025-11-25 with the initialize handshake), the auth/* scenarios included, with dist/conformance-client.js (built
// from src/cli/conformanceClient.ts) as the client under test.
//
//   node test/conformance/run.mjs [--verbose] [scenario... | prefix*]
//
// The scenarios are those the suite's `list --client` prints for the revisions we speak and the extension
// scenarios of the extensions we speak (run without --spec-version, as the suite expects), so a new scenario is
// never missed; another extension's scenario runs when named in full. A name ending
// in `*` selects every scenario it starts (`auth/*`, 'sep-2640*').
// The scenarios in PINNED run at the one revision it gives (the auth extensions with --force).
//
// Prints a table scenario → checks passed / failed / skipped, the failed checks with the suite's reasons, and
// ends with the plain line `N passed, N failed, N skipped`, counted per check (a WARNING counts as failed, as the
// suite itself fails a run on warnings; a scenario whose client or runner failed with no failing check adds one
// failure). Exit 1 when anything failed.
//
// The suite needs Node >= 22: it runs on Node 24 (scripts/host/node24.mjs). Our client runs on the Node running
// this script (the host's own runtime). The suite is used from node_modules when a matching version is installed
// there, else installed once into <cache>/conformance-<version>.
// Environment: MCP_ROUNDTRIP_CONFORMANCE_VERSION (default below), MCP_ROUNDTRIP_CONFORMANCE_JOBS (default 2),
// MCP_ROUNDTRIP_CACHE (cache folder). Results (checks.json, client stdout/stderr): test-results/conformance/.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, withLock, writeMarker } from '../../scripts/host/cache.mjs';
import { ensureNode24 } from '../../scripts/host/node24.mjs';
import { npmInstall } from '../../scripts/host/run.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The newest suite release with requirements/2026-07-28.yaml. */
const SUITE_VERSION = process.env.MCP_ROUNDTRIP_CONFORMANCE_VERSION || '0.2.0-alpha.12';
const SUITE_PKG = '@modelcontextprotocol/conformance';
/** Revisions whose requirement sets we run, oldest first. */
const REVISIONS = ['2025-11-25', '2026-07-28'];
/**
 * Scenarios run at one revision of our choosing, which the host passes and keeps passing: the auth extensions
 * (listed as `extension`, not on the spec timeline: the suite runs them at a revision only with --force) and the
 * 2025-03-26 ones (no protected resource metadata; the adapter speaks the legacy era at that revision).
 */
const PINNED = new Map([
  ['auth/client-credentials-basic', { revision: '2026-07-28', force: true }],
  ['auth/client-credentials-jwt', { revision: '2026-07-28', force: true }],
  ['auth/wif-jwt-bearer', { revision: '2026-07-28', force: true }],
  ['auth/enterprise-managed-authorization', { revision: '2026-07-28', force: true }],
  ['auth/dpop', { revision: '2026-07-28', force: true }],
  ['auth/dpop-nonce', { revision: '2026-07-28', force: true }],
  ['auth/2025-03-26-oauth-endpoint-fallback', { revision: '2025-03-26', force: false }],
  ['auth/2025-03-26-oauth-metadata-backcompat', { revision: '2025-03-26', force: false }],
]);
const CLIENT = path.join(ROOT, 'dist', 'conformance-client.js');
const OUT = path.join(ROOT, 'test-results', 'conformance');
const JOBS = Math.max(1, Number(process.env.MCP_ROUNDTRIP_CONFORMANCE_JOBS) || 2);
const TIMEOUT_MS = 30_000;

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const only = args.filter((a) => !a.startsWith('--'));
const t0 = Date.now();
const say = (line) => process.stdout.write(`${line}\n`);

/** The suite's folder: node_modules when it holds SUITE_VERSION, else a cached install (done once). */
async function ensureSuite() {
  const local = path.join(ROOT, 'node_modules', SUITE_PKG);
  const versionAt = (dir) => {
    try {
      return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  if (versionAt(local) === SUITE_VERSION) return { dir: local, source: 'node_modules' };
  const prefix = path.join(cacheDir(), `conformance-${SUITE_VERSION}`);
  const dir = path.join(prefix, 'node_modules', SUITE_PKG);
  const marker = path.join(prefix, '.complete.json');
  if (existsSync(marker) && versionAt(dir) === SUITE_VERSION) return { dir, source: 'cache' };
  return withLock(path.join(cacheDir(), `conformance-${SUITE_VERSION}.lock`), async () => {
    if (existsSync(marker) && versionAt(dir) === SUITE_VERSION) return { dir, source: 'cache' };
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    writeFileSync(path.join(prefix, 'package.json'), JSON.stringify({ name: 'mcp-roundtrip-conformance-suite', private: true }, null, 2));
    process.stderr.write(`[conformance] installing ${SUITE_PKG}@${SUITE_VERSION} into ${prefix}\n`);
    await npmInstall('conformance-suite', prefix, `${SUITE_PKG}@${SUITE_VERSION}`, {
      logFile: path.join(cacheDir(), 'logs', 'conformance-install.log'),
    });
    if (versionAt(dir) !== SUITE_VERSION) throw new Error(`${dir} does not hold ${SUITE_PKG}@${SUITE_VERSION} after the install`);
    writeMarker(prefix, { version: SUITE_VERSION });
    return { dir, source: 'installed' };
  });
}

/** Revision of the extension scenarios: they run without --spec-version. */
const EXTENSION = 'extension';
/**
 * The extension scenarios of the extensions the host speaks (Skills, SEP-2640), run with the rest; others
 * (the auth extensions: grants the host lacks) only when named on the command line.
 */
const SPOKEN_EXTENSIONS = [/^sep-2640-/];

/**
 * The client scenarios the suite lists (`list --client`: lines `  - name [rev,rev]`), each with the
 * revisions it applies to.
 */
function clientScenarios(nodeBin, suiteDir) {
  const r = spawnSync(nodeBin, [path.join(suiteDir, 'dist', 'index.js'), 'list', '--client'], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.status !== 0) throw new Error(`the suite's list --client failed: ${r.stderr || r.stdout}`);
  const out = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s+-\s+(\S+)\s+\[([^\]]*)\]\s*$/.exec(line);
    if (m) out.push({ scenario: m[1], revisions: m[2].split(',').map((v) => v.trim()) });
  }
  if (!out.length) throw new Error(`the suite's list --client printed no scenario:\n${r.stdout}`);
  return out;
}

/** Whether the command line selects `scenario` (no names: every one). */
function selected(scenario) {
  return !only.length || only.some((o) => (o.endsWith('*') ? scenario.startsWith(o.slice(0, -1)) : o === scenario));
}

/** Runs one scenario through the suite's CLI; resolves to its checks and how the run ended. */
function runScenario(nodeBin, suiteDir, scenario, revision, force = false) {
  const dir = path.join(OUT, revision, scenario.replace(/[^\w.-]+/g, '_'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The suite splits --command on spaces and runs it through a shell: quote each part.
  const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `${q(process.execPath)} ${q(CLIENT)}`;
  const cli = path.join(suiteDir, 'dist', 'index.js');
  const argv = [
    cli,
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    ...(revision === EXTENSION ? [] : ['--spec-version', revision]),
    '--timeout',
    String(TIMEOUT_MS),
    '-o',
    dir,
    ...(force ? ['--force'] : []),
  ];
  return new Promise((resolve) => {
    const child = spawn(nodeBin, argv, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    const keep = (d) => {
      output += d;
      if (verbose) process.stderr.write(d);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code, signal) => {
      writeFileSync(path.join(dir, 'runner.log'), output);
      // The suite writes <dir>/<scenario>-<time>/checks.json; a scenario named auth/x nests one folder deeper.
      const found = findFile(dir, 'checks.json');
      let checks = [];
      try {
        checks = JSON.parse(readFileSync(found ?? path.join(dir, 'checks.json'), 'utf8'));
      } catch {}
      resolve({ scenario, revision, checks, exit: code ?? signal, output, dir: found ? path.dirname(found) : dir });
    });
  });
}

/** The first file named `name` under `dir` (depth-first), or undefined. */
function findFile(dir, name) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isFile() && e.name === name) return p;
    if (e.isDirectory()) {
      const inner = findFile(p, name);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Runs `tasks` (functions returning promises) at most `n` at a time, keeping their order. */
async function pool(tasks, n) {
  const results = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

function tally(r) {
  const by = (s) => r.checks.filter((c) => c.status === s);
  const failedChecks = [...by('FAILURE'), ...by('WARNING')];
  const t = {
    passed: by('SUCCESS').length,
    failed: failedChecks.length,
    skipped: by('SKIPPED').length,
    info: by('INFO').length,
    failedChecks,
    notes: [],
  };
  if (r.exit !== 0) {
    const why =
      /Client timed out[^\n]*/.exec(r.output)?.[0] ?? /Client exited with code \d+/.exec(r.output)?.[0] ?? `runner exited ${r.exit}`;
    t.notes.push(why);
    // A run that failed with no failing check (client crash, timeout, runner error) is one failure.
    if (t.failed === 0) t.failed = 1;
  }
  if (r.checks.length === 0) {
    // A scenario that ran no check (skipped by the suite, or nothing recorded) proves nothing: a failure.
    t.notes.push(/SKIPPED: [^\n]*/.exec(r.output)?.[0] ?? 'no checks recorded');
    if (t.failed === 0) t.failed = 1;
  }
  return t;
}

function pad(s, n) {
  s = String(s);
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

async function main() {
  if (!existsSync(CLIENT)) {
    // Standalone run (npm test builds first): build the bundles once.
    const b = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0 || !existsSync(CLIENT)) throw new Error(`building ${path.relative(ROOT, CLIENT)} failed`);
  }
  const node = await ensureNode24();
  const suite = await ensureSuite();
  say(
    `conformance suite ${SUITE_PKG}@${SUITE_VERSION} (${suite.source}) on Node ${node.version}; client: ${path.relative(ROOT, CLIENT)} on Node ${process.versions.node}`,
  );

  const planned = [];
  for (const { scenario, revisions } of clientScenarios(node.nodeBin, suite.dir)) {
    if (!selected(scenario)) continue;
    const spoken = only.includes(scenario) || SPOKEN_EXTENSIONS.some((re) => re.test(scenario));
    const pinned = PINNED.get(scenario);
    if (pinned) planned.push({ scenario, ...pinned });
    else
      for (const revision of [...REVISIONS, ...(spoken ? [EXTENSION] : [])])
        if (revisions.includes(revision)) planned.push({ scenario, revision });
  }
  if (!planned.length) throw new Error(`no client scenario matches ${only.join(' ')}`);
  mkdirSync(OUT, { recursive: true });
  const results = await pool(
    planned.map(
      ({ scenario, revision, force }) =>
        () =>
          runScenario(node.nodeBin, suite.dir, scenario, revision, force),
    ),
    JOBS,
  );

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const w = Math.max(8, ...results.map((r) => r.scenario.length)) + 2;
  say('');
  say(`${pad('scenario', w)}${pad('revision', 12)}${pad('passed', 8)}${pad('failed', 8)}${pad('skipped', 9)}notes`);
  say('-'.repeat(w + 37 + 20));
  const failures = [];
  for (const r of results) {
    const t = tally(r);
    passed += t.passed;
    failed += t.failed;
    skipped += t.skipped;
    const notes = [...t.notes, t.info ? `${t.info} info` : ''].filter(Boolean).join('; ');
    say(
      `${pad(r.scenario, w)}${pad(r.revision, 12)}${pad(t.passed, 8)}${pad(t.failed, 8)}${pad(t.skipped, 9)}${t.failed ? 'FAIL' : 'ok'}${notes ? ` (${notes})` : ''}`,
    );
    if (t.failed) failures.push({ r, t });
  }
  for (const { r, t } of failures) {
    say(`\nFAILED ${r.scenario} @ ${r.revision} (results: ${path.relative(ROOT, r.dir)})`);
    for (const c of t.failedChecks) say(`  - [${c.status}] ${c.id} ${c.name}: ${c.errorMessage ?? c.description ?? ''}`.slice(0, 2000));
    for (const n of t.notes) say(`  - ${n}`);
  }
  say(`\nconformance took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  say(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`[conformance] ${e?.stack ?? e}\n`);
    say('0 passed, 1 failed');
    process.exit(1);
  },
);
