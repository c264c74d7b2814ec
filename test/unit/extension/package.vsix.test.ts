/**
 * Ready to publish (issue 43): `vsce package` writes the .vsix without a warning, and the .vsix is lean
 * (the bundles, webview assets, manifest, translations and the README's companions; no sources,
 * tests, source maps or node_modules). Open VSX (`ovsx publish`) has no offline dry run: it takes the
 * same .vsix and needs the fields checked here (namespace = publisher, name, version, license,
 * repository, engines.vscode).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const VSCE = path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

describe('the .vsix', function () {
  this.timeout(300_000);

  it('is packaged by vsce without a warning, and holds only what the extension runs and shows', () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-rt-vsix-')), 'mcp-roundtrip.vsix');
    const said = execFileSync(process.execPath, [VSCE, 'package', '--no-dependencies', '-o', out], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.doesNotMatch(said, /WARNING|warn/i, said);
    const files = execFileSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('>') && !/^Executing|^\$|build/i.test(l));
    const allowed =
      /^(package\.json|package\.nls(\.[\w-]+)?\.json|README\.md|CHANGELOG\.md|LICENSE|l10n\/bundle\.l10n\.[\w-]+\.json|dist\/[\w-]+\.js|dist\/webview\/\w+\.js|media\/[\w-]+\.(css|svg|png)|media\/walkthrough\/[\w-]+\.svg)$/;
    assert.deepEqual(
      files.filter((f) => !allowed.test(f)),
      [],
      'files in the .vsix that are not part of the extension',
    );
    assert.ok(
      files.includes('dist/extension.js') && files.includes('l10n/bundle.l10n.zh-cn.json') && files.includes('package.nls.zh-cn.json'),
    );
    assert.ok(!files.some((f) => f.endsWith('.map') || f === 'dist/cli.js'), 'no source maps, no CLI in the extension');
    assert.ok(statSync(out).size < 3_000_000, `the .vsix is ${statSync(out).size} bytes`);
  });

  it('has what Open VSX needs: publisher (its namespace), name, version, license file, repository, engine', () => {
    const m = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.match(String(m.publisher), /^[a-z0-9][a-z0-9-]*$/);
    assert.match(String(m.name), /^[a-z0-9][a-z0-9-]*$/);
    assert.match(String(m.version), /^\d+\.\d+\.\d+$/);
    assert.equal(m.license, 'MIT');
    assert.ok(existsSync(path.join(ROOT, 'LICENSE')));
    assert.match((m.repository as { url: string }).url, /^https:\/\/github\.com\/[\w-]+\/[\w-]+$/);
    assert.match((m.engines as { vscode: string }).vscode, /^\^1\.\d+\.0$/);
  });
});
