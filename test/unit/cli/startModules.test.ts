/**
 * What the CLI's bundle loads before it calls anything: not Node's HTTP stack (only a sign-in's
 * callback listener needs it) nor readline (only a question at the terminal). Each is milliseconds of
 * every cold call, spent while the server starts on the other core. Read from the built bundle
 * (dist/cli-main.js, as shipped), in a fresh process.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'cli-main.js');

/** Node's own modules a fresh process has loaded after requiring `file` (names as `process.moduleLoadList` gives them). */
function builtinsLoadedBy(file: string): string[] {
  const script = `const before = new Set(process.moduleLoadList); require(${JSON.stringify(file)}); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13))));`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, `loading ${file} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as string[];
}

describe('the CLI bundle at start', () => {
  before(function () {
    if (!existsSync(BUNDLE)) throw new Error(`${path.relative(ROOT, BUNDLE)} is missing: run npm run build first`);
  });

  it('loads them with require, not import(): dist/cli.js runs the bundle in a vm.Script on Node < 22.1, where import() throws', () => {
    const text = readFileSync(BUNDLE, 'utf8');
    // pkce-challenge's import("node:crypto") is left: it runs only where globalThis.crypto is missing (never on Node 20+).
    assert.deepEqual(
      [...text.matchAll(/\bimport\(\s*["'](node:[^"']+)["']\s*\)/g)].map((m) => m[1]).filter((m) => m !== 'node:crypto'),
      [],
    );
  });

  it('loads neither node:http nor readline until a sign-in or a question needs them', () => {
    const loaded = builtinsLoadedBy(BUNDLE);
    // The list is real: the CLI does load child_process (it spawns stdio servers) at start.
    assert.ok(loaded.includes('child_process'), `expected child_process among ${loaded.join(', ')}`);
    assert.deepEqual(
      loaded.filter((m) => m === 'http' || m === '_http_server' || m === 'https' || m.startsWith('readline')),
      [],
    );
  });
});
