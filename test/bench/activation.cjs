// Fallback activation timing under plain Node, with a stub `vscode` module (test/bench/vscodeStub.cjs):
// loads the built dist/extension.js in this (fresh) process and calls its `activate()`, once.
// The extension measures itself (src/extension.ts, reportActivation, MCP_ROUNDTRIP_BENCH_FILE); this
// script also times the bundle's `require()` (module evaluation, which activation in a real host is
// preceded by but does not include).
//
//   node test/bench/activation.cjs [dist/extension.js]
//   → {"activationMs": ..., "requireMs": ..., "outerMs": ...} on stdout
//
// Not a VS Code: the stub's APIs return at once, so this is the extension's own work only, without
// the extension host's API calls to the workbench. test/bench/run.mjs prefers the real host.
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const root = path.resolve(__dirname, '..', '..');
const bundle = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'extension.js'));
const stubPath = path.join(__dirname, 'vscodeStub.cjs');

/**
 * Makes `require('vscode')` resolve to the stub for every module of this process.
 * @returns {() => void} undoes it
 */
function installVscodeStub() {
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request === 'vscode' ? stubPath : original.call(this, request, ...rest);
  };
  return () => (Module._resolveFilename = original);
}

/**
 * With MCP_ROUNDTRIP_BENCH_SERVERS set (the stub then configures that many stdio servers), counts the
 * processes started in this process from here on: activation must start none of them.
 * @returns {() => number} the count so far
 */
function countSpawns() {
  const cp = require('node:child_process');
  let spawned = 0;
  for (const name of ['spawn', 'execFile', 'fork']) {
    const f = cp[name];
    cp[name] = function (...args) {
      spawned++;
      return f.apply(this, args);
    };
  }
  return () => spawned;
}

async function main() {
  const spawned = countSpawns();
  installVscodeStub();
  const vscode = require(stubPath);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-activation-')), 'activation.jsonl');
  process.env.MCP_ROUNDTRIP_BENCH_FILE = file;
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const t0 = performance.now();
  const ext = require(bundle);
  const t1 = performance.now();
  const api = ext.activate(vscode.__context(root, pkg));
  const t2 = performance.now();
  if (process.env.MCP_ROUNDTRIP_BENCH_SERVERS) {
    // VS Code reads an MCP server definition provider's definitions as soon as it is registered: so does this.
    for (const provider of vscode.__mcpProviders.values()) void Promise.resolve(provider.provideMcpServerDefinitions()).catch(() => {});
    // What activation set going (reading the server definitions, the views' first fill) has its turns.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const own = JSON.parse(lines[lines.length - 1]);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  process.stdout.write(
    `${JSON.stringify({ activationMs: own.activationMs, requireMs: t1 - t0, outerMs: t2 - t1, api: Object.keys(api ?? {}), processesStarted: spawned() })}\n`,
  );
  // Activation started nothing that must finish (servers start on first use): leave at once.
  process.exit(0);
}

void main();
