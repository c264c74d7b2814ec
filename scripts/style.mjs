// The style suite of `npm test`: the type check, ESLint and Prettier, each counted as one test, so a
// type error, a lint error or an unformatted file fails the run (esbuild strips types: the build alone
// lets a type error through). Each check's own output streams through; the suite ends with the line
//   style: N passed, N failed
// Usage: node scripts/style.mjs   (or `node scripts/test.mjs style`, `npm run test:style`)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The package.json scripts run, in order (cheapest feedback first). */
const CHECKS = ['typecheck', 'lint', 'format:check'];

const failed = [];
for (const check of CHECKS) {
  console.log(`\n--- style: npm run ${check}`);
  const started = Date.now();
  const code = await new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', check], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    child.on('error', (e) => (console.error(`could not run npm: ${e.message}`), resolve(1)));
    child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (code === 0) console.log(`  ✓ ${check} (${secs} s)`);
  else {
    console.log(`  ✗ ${check} failed (exit ${code}, ${secs} s)`);
    failed.push(check);
  }
}
if (failed.length) console.log(`\nstyle checks that failed: ${failed.join(', ')}`);
console.log(`\nstyle: ${CHECKS.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
