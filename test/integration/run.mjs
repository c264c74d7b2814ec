#!/usr/bin/env node
// The integration suite on code-server (a real VS Code 1.139 extension host, here without a display or
// internet). Builds the extension and the suite bundle, then runs the suite twice: with the workspace
// trusted, and untrusted (workspace trust on, never granted). For each pass it launches code-server
// with the extension (staged from dist/, or the .vsix with --vsix) and a tiny runner extension
// (runner-extension/ + dist/suite.js) that runs the suite with mocha on startup and writes its result
// to a file; Chromium opens the workbench, which starts the extension host. Ends with mocha-style
// "N passing" / "N failing" / "N pending" lines for scripts/test.mjs; exits 1 when a test failed.
//
//   node test/integration/run.mjs [--pass trusted|untrusted] [--grep <text>] [--vsix [file]] [--keep]
//     --vsix: install the packaged extension (default out/mcp-roundtrip.vsix) instead of the fresh build
//     --keep: keep code-server's user data (logs) even when every test passed
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { require as tsxRequire } from 'tsx/cjs/api';
import { ensureHost } from '../../scripts/host/install.mjs';
import { launchCodeServer } from '../../scripts/host/launch.mjs';
import { stageExtension } from '../../scripts/stage.mjs';
import { buildSuite } from './build.mjs';
import { makeIntegrationWorkspace } from './workspace.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
/** How long one pass may take from the workbench opening to the result file. */
const SUITE_DEADLINE_MS = Number(process.env.MCP_RT_INTEGRATION_TIMEOUT_MS ?? 300_000);

/** Parses the command line (see the header). */
function parseArgs(argv) {
  const o = { passes: ['trusted', 'untrusted'], grep: undefined, vsix: undefined, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--pass') o.passes = [argv[++i]];
    else if (a === '--grep') o.grep = argv[++i];
    else if (a === '--vsix')
      o.vsix = argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : path.join(root, 'out', 'mcp-roundtrip.vsix');
    else if (a === '--keep') o.keep = true;
    else throw new Error(`unknown argument ${a} (usage: run.mjs [--pass trusted|untrusted] [--grep <text>] [--vsix [file]] [--keep])`);
  }
  for (const p of o.passes) if (p !== 'trusted' && p !== 'untrusted') throw new Error(`--pass must be trusted or untrusted, not ${p}`);
  if (o.vsix && !existsSync(o.vsix)) throw new Error(`no .vsix at ${o.vsix} (npm run package)`);
  return o;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The runner extension with the suite bundle inside it (so `require('vscode')` in the suite is the runner's). */
function stageRunner(dest, suiteBundle) {
  cpSync(path.join(here, 'runner-extension'), dest, { recursive: true });
  mkdirSync(path.join(dest, 'dist'), { recursive: true });
  cpSync(suiteBundle, path.join(dest, 'dist', 'suite.js'));
  return dest;
}

/**
 * Answers the quick inputs of `MCP Roundtrip: Add Server…` when the suite opens them (addServer.test.ts):
 * HTTP, the URL, the name. Waits for each step to show; returns when the last input is accepted, or
 * rejects at the deadline (or when the browser closes at the end of the pass).
 */
async function answerAddServer(page, harness, deadline) {
  const left = () => Math.max(1000, deadline - Date.now());
  const widget = '.quick-input-widget';
  const input = page.locator(`${widget} input.input`);
  await page.locator(`${widget} input[placeholder="What kind of MCP server?"]`).waitFor({ state: 'visible', timeout: left() });
  await input.fill('HTTP');
  await page.locator(`${widget} .monaco-list-row:has-text("Connect to a Streamable HTTP endpoint")`).first().waitFor({ timeout: left() });
  await input.press('Enter');
  /**
   * Accepts the typed `value` with Enter until `next` holds. Enter is pressed again only while the box
   * still shows `value` (an input box accepts once its validation of the typed value has run), never
   * into the next step's box.
   */
  const accept = (value, what, next) =>
    harness.waitFor(
      what,
      async () => {
        if (await next().catch(() => false)) return true;
        if ((await input.isVisible()) && (await input.inputValue().catch(() => '')) === value) await input.press('Enter');
        return undefined;
      },
      { timeoutMs: left(), intervalMs: 300 },
    );
  await page.locator(`${widget} input[placeholder="https://example.com/mcp"]`).waitFor({ state: 'visible', timeout: left() });
  const url = 'http://127.0.0.1:9/mcp';
  await input.fill(url);
  await accept(url, 'the name input box', async () => (await input.inputValue()) === '127.0.0.1');
  await input.fill('ui-added');
  await accept('ui-added', 'the quick input to close', async () => !(await input.isVisible()));
}

/** Runs one pass (`trusted` | `untrusted`); returns its parsed result plus timings. */
async function runPass(pass, { extensionDir, vsix, runnerDir, grep, keep, harness }) {
  const t0 = Date.now();
  const scratch = mkdtempSync(path.join(os.tmpdir(), `mcp-rt-integration-${pass}-`));
  const ws = makeIntegrationWorkspace({ demoServer: path.join(root, 'dist', 'demo-server.js') });
  const userDataDir = path.join(scratch, 'user-data');
  const resultFile = path.join(scratch, 'result.json');
  const env = {
    MCP_RT_INTEGRATION_RESULT: resultFile,
    MCP_RT_INTEGRATION_TRUST: pass,
    MCP_RT_INTEGRATION_LOGS: path.join(userDataDir, 'logs'),
    MCP_RT_INTEGRATION_UI: 'playwright',
    ...(grep ? { MCP_RT_INTEGRATION_GREP: grep } : {}),
  };
  let host;
  let wb;
  let result;
  const times = {};
  try {
    host = await launchCodeServer({
      workspace: ws,
      extensionDirs: vsix ? [runnerDir] : [extensionDir, runnerDir],
      vsix,
      trust: pass === 'untrusted',
      userDataDir,
      env,
    });
    times.launch = Date.now() - t0;
    const t1 = Date.now();
    wb = await harness.openWorkbench(host.url, ws);
    times.workbench = Date.now() - t1;
    const t2 = Date.now();
    const deadline = t2 + SUITE_DEADLINE_MS;
    // Runs beside the suite; it ends with an error when the browser closes before the suite asked.
    let driverError;
    if (pass === 'trusted') answerAddServer(wb.page, harness, deadline).catch((e) => (driverError = e));
    try {
      result = await harness.waitFor(
        `the suite's result file ${resultFile}`,
        () => (existsSync(resultFile) ? JSON.parse(readFileSync(resultFile, 'utf8')) : undefined),
        { timeoutMs: SUITE_DEADLINE_MS, intervalMs: 250 },
      );
    } catch (e) {
      result = {
        passes: 0,
        failures: [{ title: `${pass} pass`, message: `${e.message}; extension host console:\n${wb.consoleLines.slice(-30).join('\n')}` }],
        pending: [],
        text: '',
      };
    }
    times.suite = Date.now() - t2;
    if (driverError && result.failures.some((f) => /Add Server/.test(f.title))) {
      result.failures.push({ title: 'Add Server… UI driver (run.mjs)', message: String(driverError.message ?? driverError) });
    }
    if (result.failures.length) await harness.screenshot(wb.page, `integration-${pass}-end`).catch(() => {});
  } catch (e) {
    result = { passes: 0, failures: [{ title: `${pass} pass`, message: String(e?.stack ?? e) }], pending: [], text: '' };
  } finally {
    await wb?.close();
    const failed = !result || result.failures.length > 0;
    await host?.stop({ removeFiles: !failed && !keep });
    if ((failed || keep) && host) console.log(`${pass} pass: code-server logs kept in ${host.logsDir}`);
    rmSync(ws, { recursive: true, force: true });
    if (!(failed || keep)) rmSync(scratch, { recursive: true, force: true });
  }
  times.total = Date.now() - t0;
  return { ...result, times };
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (e) {
  console.error(e.message);
  process.exit(2);
}
const tStart = Date.now();
const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
if (build.status !== 0) {
  console.error('node scripts/build.mjs failed');
  process.exit(1);
}
const suiteBundle = await buildSuite();
await ensureHost({ quiet: true });
const harness = tsxRequire('../e2e/harness.ts', import.meta.url);
const work = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-integration-ext-'));
const extensionDir = options.vsix ? undefined : stageExtension(path.join(work, 'mcp-roundtrip'));
const runnerDir = stageRunner(path.join(work, 'runner'), suiteBundle);
console.log(
  `integration: extension ${options.vsix ? `from ${path.relative(root, options.vsix)}` : 'staged from dist/'}; built in ${seconds(Date.now() - tStart)}`,
);

const totals = { passes: 0, failures: [], pending: 0 };
for (const pass of options.passes) {
  console.log(`\n--- integration, ${pass} workspace (code-server)`);
  const r = await runPass(pass, { extensionDir, vsix: options.vsix, runnerDir, grep: options.grep, keep: options.keep, harness });
  // The pass's own closing lines are replaced by the totals below (scripts/test.mjs reads the last ones).
  const text = (r.text ?? '').replace(/\n\s*\d+ (passing|failing|pending)\b.*$/gm, '');
  console.log(text.trimEnd());
  if (!text.trim()) for (const f of r.failures) console.log(`  ✖ ${f.title}: ${f.message}`); // the suite did not run
  console.log(
    `${pass} pass: ${r.passes} passed, ${r.failures.length} failed, ${r.pending?.length ?? 0} pending (code-server up ${seconds(r.times.launch ?? 0)}, workbench ${seconds(r.times.workbench ?? 0)}, suite ${seconds(r.times.suite ?? 0)}, total ${seconds(r.times.total)})`,
  );
  totals.passes += r.passes;
  totals.pending += r.pending?.length ?? 0;
  totals.failures.push(...r.failures.map((f) => ({ ...f, title: `[${pass}] ${f.title}` })));
}
rmSync(work, { recursive: true, force: true });

console.log('');
console.log(`  ${totals.passes} passing (${seconds(Date.now() - tStart)})`);
if (totals.pending) console.log(`  ${totals.pending} pending`);
if (totals.failures.length) {
  console.log(`  ${totals.failures.length} failing`);
  totals.failures.forEach((f, i) => console.log(`\n  ${i + 1}) ${f.title}:\n     ${f.message.split('\n').join('\n     ')}`));
}
process.exit(totals.failures.length ? 1 : 0);
