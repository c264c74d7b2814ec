// Runs every test suite in order and ends with one plain line for the whole run:
//   N passed, N failed   (the skipped ones counted on the line before it)
// Each suite's own output streams through as it runs. A suite that crashes without a count
// counts as one failure. Usage: node scripts/test.mjs [suite...]   (default: all)
// style (scripts/style.mjs: typecheck, lint, format:check) runs first: it needs no build.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const mocha = (spec, extra = []) => ['npx', ['mocha', ...extra, ...(spec ? ['--spec', spec] : [])]];
/** name → [command, args, present?] */
const SUITES = {
  style: { cmd: ['node', ['scripts/style.mjs']], present: () => true },
  unit: { cmd: mocha(), present: () => true },
  // Real servers from npm (devDependencies) through the built CLI.
  compat: { cmd: ['npx', ['mocha', '--config', 'test/compat/.mocharc.json']], present: () => existsSync('test/compat/.mocharc.json') },
  conformance: { cmd: ['node', ['test/conformance/run.mjs']], present: () => existsSync('test/conformance/run.mjs') },
  integration: { cmd: ['node', ['test/integration/run.mjs']], present: () => existsSync('test/integration/run.mjs') },
  e2e: { cmd: ['node', ['test/e2e/run.mjs']], present: () => existsSync('test/e2e/run.mjs') },
};

const wanted = process.argv.slice(2);
const names = wanted.length ? wanted : Object.keys(SUITES);
let passed = 0;
let failed = 0;
let skipped = 0;

for (const name of names) {
  const suite = SUITES[name];
  if (!suite) {
    console.error(`unknown suite "${name}" (known: ${Object.keys(SUITES).join(', ')})`);
    process.exit(2);
  }
  if (!suite.present()) continue;
  const [cmd, args] = suite.cmd;
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const out = await new Promise((resolve) => {
    let text = '';
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    child.stdout.on('data', (d) => ((text += d), process.stdout.write(d)));
    child.stderr.on('data', (d) => ((text += d), process.stderr.write(d)));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), text }));
  });
  // Mocha's closing lines ("N passing", "N failing", "N pending"), or our runners' "N passed, N failed".
  const num = (re) => [...out.text.matchAll(re)].map((m) => Number(m[1])).pop();
  const p = num(/^\s*(\d+) passing/gm) ?? num(/^(?:\w+: )?(\d+) passed, \d+ failed/gm);
  const f = num(/^\s*(\d+) failing/gm) ?? num(/^(?:\w+: )?\d+ passed, (\d+) failed/gm) ?? 0;
  const s = num(/^\s*(\d+) pending/gm) ?? num(/, (\d+) skipped/gm) ?? 0;
  if (p === undefined) {
    console.error(`=== ${name}: no test count found (exit ${out.code}); counted as 1 failure`);
    failed += 1;
    continue;
  }
  passed += p;
  failed += f;
  skipped += s;
  if (out.code !== 0 && f === 0) {
    console.error(`=== ${name}: exited ${out.code} with no failing test; counted as 1 failure`);
    failed += 1;
  }
  console.log(`=== ${name}: ${p} passed, ${f} failed${s ? `, ${s} skipped` : ''}`);
}
// The last line is exactly "N passed, N failed" (what CI reads); skipped tests are counted just before it.
if (skipped) console.log(`\n${skipped} skipped (named in their suites above)`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
