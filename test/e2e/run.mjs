// The e2e suite: installs (once, cached) the real VS Code it needs (code-server 4.139.1 on Node 24,
// Debian's Chromium), then runs every test/e2e/**/*.e2e.ts (or only the files given: node test/e2e/run.mjs
// test/e2e/templates.e2e.ts) with mocha in a real VS Code.
// Mocha's closing lines are read by scripts/test.mjs.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHost } from '../../scripts/host/install.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
await ensureHost({ quiet: true });
// The extension is tested as users install it: the packaged .vsix (vsce does not create out/).
mkdirSync(path.join(root, 'out'), { recursive: true });
const pkg = spawnSync('npx', ['vsce', 'package', '--no-dependencies', '-o', 'out/mcp-roundtrip.vsix'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (pkg.status !== 0) {
  console.error('packaging the .vsix failed');
  process.exit(1);
}
const r = spawnSync(
  'npx',
  [
    'mocha',
    '--no-config',
    '--require',
    'tsx/cjs',
    '--extension',
    'ts',
    '--timeout',
    '300000',
    '--reporter',
    'spec',
    ...(process.argv.length > 2 ? process.argv.slice(2) : ['test/e2e/**/*.e2e.ts']),
  ],
  { cwd: root, stdio: 'inherit' },
);
process.exit(r.status ?? 1);
