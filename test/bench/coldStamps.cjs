// A --require hook for test/bench/peers.mjs: where a cold CLI call's time goes, stamped in the CLI's
// own process from outside it (no product code): ms since the process's time origin (its start) at
// which the hook ran (Node's own bootstrap done), the server was spawned, the host's bundle was
// loaded, the configuration was read, the first byte was written to the server, the result was
// printed, and the process exited. Written as one JSON line to MCP_ROUNDTRIP_BENCH_STAMPS_FILE at exit.
// Only the process whose script is the CLI records (NODE_OPTIONS reaches the server it spawns too).
'use strict';
const file = process.env.MCP_ROUNDTRIP_BENCH_STAMPS_FILE;
const script = process.argv[1] ?? '';
if (file && /(^|[\\/])cli\.js$/.test(script)) {
  const { performance } = require('node:perf_hooks');
  const fs = require('node:fs');
  const stamps = { hookLoaded: performance.now() };
  const once = (key) => {
    if (stamps[key] === undefined) stamps[key] = performance.now();
  };
  // Server spawned: child_process.spawn returned; its stdin's first write is the first byte.
  const cp = require('node:child_process');
  const spawn = cp.spawn;
  cp.spawn = function (...args) {
    const child = spawn.apply(this, args);
    once('serverSpawned');
    if (child.stdin) {
      const write = child.stdin.write;
      child.stdin.write = function (...w) {
        once('firstByteWritten');
        return write.apply(this, w);
      };
    }
    return child;
  };
  // Bundle loaded: the host's bundle evaluated, by vm.Script (Node 20's code cache) or by require.
  const vm = require('node:vm');
  const run = vm.Script.prototype.runInThisContext;
  vm.Script.prototype.runInThisContext = function (...args) {
    const out = run.apply(this, args);
    if (!/cli-main\.js$/.test(this.__filename ?? '') || typeof out !== 'function') return out;
    // The module's wrapper: loaded once its body has run.
    return function (...w) {
      const r = out.apply(this, w);
      once('bundleLoaded');
      return r;
    };
  };
  const Script = vm.Script;
  vm.Script = class extends Script {
    constructor(code, options) {
      super(code, options);
      this.__filename = typeof options === 'string' ? options : options?.filename;
    }
  };
  const Module = require('node:module');
  const load = Module._load;
  Module._load = function (request, ...rest) {
    const out = load.call(this, request, ...rest);
    if (/cli-main(\.js)?$/.test(request)) once('bundleLoaded');
    return out;
  };
  // Configuration read: the first file the host reads or stats after its bundle (answers, roots,
  // calls file, .env), else the moment it first writes (nothing to read for this call).
  for (const name of ['readFileSync', 'statSync', 'existsSync']) {
    const f = fs[name];
    fs[name] = function (p, ...rest) {
      if (stamps.bundleLoaded !== undefined && !/\.(js|bin)$/.test(String(p))) {
        once('configurationRead');
        (stamps.reads ??= []).push([name, String(p).slice(-60), Math.round(performance.now())]);
      }
      return f.call(this, p, ...rest);
    };
  }
  const out = process.stdout.write;
  process.stdout.write = function (...w) {
    once('resultPrinted');
    return out.apply(this, w);
  };
  process.once('exit', () => {
    stamps.exit = performance.now();
    if (stamps.configurationRead === undefined) stamps.configurationRead = stamps.firstByteWritten;
    for (const k of Object.keys(stamps)) if (typeof stamps[k] === 'number') stamps[k] = Math.round(stamps[k] * 10) / 10;
    fs.appendFileSync(file, `${JSON.stringify(stamps)}\n`);
  });
}
