/** Builds dist/ once per test process (tests of the CLI and the bundles run the real bundles). */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');
export const DIST = join(ROOT, 'dist');
let built = false;

export function ensureBuilt(): void {
  if (built || process.env.MCP_ROUNDTRIP_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  built = true;
}
