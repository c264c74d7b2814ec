// The CLI and the demo server on the Node that code-server runs on (24, from the host install), where
// the bundles load through Node's own compile cache (22.1+) instead of vm.Script: the unit tests run on
// the project's Node 20 and never take that path.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './harness';

/** Runs dist/cli.js under `node`; resolves to its exit code and output. */
function cli(node: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [path.join(repoRoot, 'dist', 'cli.js'), ...args], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('e2e: the CLI on Node 24 (Node’s own compile cache)', function () {
  this.timeout(120_000);
  let node: string;
  let home: string;
  let roots: string;

  before(async () => {
    assert.ok(existsSync(path.join(repoRoot, 'dist', 'cli.js')), 'dist/cli.js is missing: run `npm run build` first');
    // A dynamic import: install.mjs is an ES module with top-level await, which tsx cannot require.
    const { ensureHost } = await import('../../scripts/host/install.mjs');
    node = (await ensureHost({ quiet: true })).nodeBin;
    home = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-node24-cache-'));
    roots = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-node24-root-'));
  });
  after(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(roots, { recursive: true, force: true });
  });

  it('completes a round trip (roots) twice, its bundles cached by Node itself and not by vm.Script', async () => {
    const env = { ...process.env, XDG_CACHE_HOME: home };
    const args = [
      '--stdio',
      `${JSON.stringify(node)} ${JSON.stringify(path.join(repoRoot, 'dist', 'demo-server.js'))}`,
      'call',
      'where_am_i',
      '--roots',
      roots,
      '--json',
    ];
    const cacheDir = path.join(home, 'mcp-roundtrip', 'compile-cache');
    for (const run of ['first', 'second']) {
      const r = await cli(node, args, env);
      assert.equal(r.code, 0, `${run} run exited ${r.code}: ${r.stderr.slice(-800)}`);
      const answer = JSON.parse(r.stdout) as { resultType: string; structuredContent: { roots: { path: string }[] } };
      assert.equal(answer.resultType, 'complete');
      assert.deepEqual(
        answer.structuredContent.roots.map((x) => x.path),
        [roots],
        `${run} run: the server saw other roots`,
      );
      assert.match(r.stderr, /retry 1 of tools\/call where_am_i .* with inputResponses \[roots\]/, `${run} run logged no retry`);
    }
    const entries = readdirSync(cacheDir);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    assert.ok(version.startsWith('v24.'), `the host's Node is ${version}, not 24`);
    // Node's cache is a folder named by its version; vm.Script's data are files named by bundle and version.
    const own = entries.filter((e) => e.startsWith(`${version}-`));
    assert.equal(own.length, 1, `expected one folder of Node ${version}'s own cache, found: ${entries.join(', ')}`);
    assert.ok(readdirSync(path.join(cacheDir, own[0])).length >= 2, "Node's cache holds neither bundle (cli-main, demo-server-main)");
    assert.deepEqual(
      entries.filter((e) => e.endsWith('.bin')),
      [],
      'vm.Script data were written on Node 24',
    );
  });
});
