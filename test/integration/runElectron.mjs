#!/usr/bin/env node
// The integration suite in a desktop VS Code started by @vscode/test-electron (the usual way on a
// developer's machine with internet; VS Code is downloaded once into .vscode-test/). The suite bundle's
// `run()` is the extension tests entry; the extension under test is this repository (built first).
// test-electron always passes --disable-workspace-trust, so this is the trusted pass only; the
// untrusted pass runs on code-server (run.mjs). Add Server… is skipped here (no one answers its inputs).
//
//   node test/integration/runElectron.mjs [--code <VS Code executable>] [--version <x.y.z|stable|insiders>]
//   env: VSCODE_EXECUTABLE_PATH (same as --code: no download), VSCODE_TEST_VERSION
//
// Without a VS Code executable, a cached download or a reachable update server, it stops at once and
// says so (these machines reach nothing but the npm registry: use run.mjs there).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSuite } from './build.mjs';
import { makeIntegrationWorkspace } from './workspace.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const UPDATE_SERVER = 'https://update.code.visualstudio.com/api/releases/stable';

/** Whether `url` answers within `timeoutMs` (any HTTP status counts: the server is reachable). */
function reachable(url, timeoutMs) {
  return new Promise((resolve) => {
    const req = https.get(url, { timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
  });
}

/** A VS Code test-electron downloaded before (`.vscode-test/vscode-*`), if any. */
function cachedDownload() {
  const dir = path.join(root, '.vscode-test');
  return existsSync(dir) && readdirSync(dir).some((n) => n.startsWith('vscode-'));
}

function fail(message) {
  console.error(`integration (test-electron): ${message}`);
  process.exit(1);
}

const argv = process.argv.slice(2);
const arg = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const executable = arg('--code') ?? process.env.VSCODE_EXECUTABLE_PATH;
const version = arg('--version') ?? process.env.VSCODE_TEST_VERSION;

let testElectron;
try {
  testElectron = await import('@vscode/test-electron');
} catch {
  fail('@vscode/test-electron is not installed: npm install --save-dev @vscode/test-electron');
}
if (executable && !existsSync(executable)) fail(`no VS Code executable at ${executable}`);
if (!executable && !cachedDownload() && !(await reachable(UPDATE_SERVER, 5000))) {
  fail(
    `cannot download VS Code: ${new URL(UPDATE_SERVER).host} is not reachable and no copy is cached in .vscode-test/.\n` +
      '  Give one with --code <path> (or VSCODE_EXECUTABLE_PATH), or run the suite on code-server: node test/integration/run.mjs',
  );
}

const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
if (build.status !== 0) fail('node scripts/build.mjs failed');
const suite = await buildSuite();
const ws = makeIntegrationWorkspace({ demoServer: path.join(root, 'dist', 'demo-server.js') });
const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-integration-electron-'));
let code = 1;
try {
  await testElectron.runTests({
    ...(executable ? { vscodeExecutablePath: executable } : {}),
    ...(version ? { version } : {}),
    extensionDevelopmentPath: root,
    extensionTestsPath: suite,
    launchArgs: [ws, '--disable-extensions', `--user-data-dir=${userDataDir}`],
    extensionTestsEnv: {
      MCP_RT_INTEGRATION_TRUST: 'trusted',
      MCP_RT_INTEGRATION_LOGS: path.join(userDataDir, 'logs'),
    },
  });
  code = 0;
} catch (e) {
  console.error(`integration (test-electron): ${e?.message ?? e}`);
} finally {
  rmSync(ws, { recursive: true, force: true });
  if (code === 0) rmSync(userDataDir, { recursive: true, force: true });
  else console.error(`logs kept in ${path.join(userDataDir, 'logs')}`);
}
process.exit(code);
