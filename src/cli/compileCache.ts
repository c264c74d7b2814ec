/**
 * Loading a large bundle (the CLI's host, dist/cli-main.js; the demo server, dist/demo-server-main.js)
 * with V8's code cache, so that a cold start does not compile it again each time (it halves the load). Node 22.1+ has this built in
 * (`module.enableCompileCache`); on Node 20 the bundle is compiled by `vm.Script` with the cached data
 * kept from the previous run, written again at exit when it was missing or stale (V8 rejects data of
 * another source, V8 version or flags by itself).
 *
 * The cache lives in the user's own cache directory (`$XDG_CACHE_HOME` or `~/.cache`, then
 * `mcp-roundtrip/compile-cache`, created private): code read from a shared temp directory could be
 * planted by another user. Any failure to read or write it only means loading without it.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The directory of the compile cache, created (owner only) when missing; `undefined` when it cannot be. */
function cacheDir(): string | undefined {
  try {
    const dir = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mcp-roundtrip', 'compile-cache');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  } catch {
    return undefined;
  }
}

/** Writes `script`'s code cache to `cachePath` and removes the data of the same bundle's earlier builds (`prefix`: bundle, Node version); a failure only means no cache next time. */
function writeCachedData(script: Script, dir: string, cachePath: string, prefix: string): void {
  try {
    // Written whole and then renamed: a process starting meanwhile reads the old file or the new one.
    const partial = `${cachePath}.${process.pid}.tmp`;
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, cachePath);
    // Earlier builds' data is never read again (and names without a bundle's prefix are from before there were two).
    for (const old of readdirSync(dir)) {
      if (old.endsWith('.bin') && (old.startsWith(prefix) || /^v\d/.test(old)) && join(dir, old) !== cachePath) rmSync(join(dir, old), { force: true });
    }
  } catch {
    /* no cache next time */
  }
}

/**
 * `require(file)` of a CommonJS bundle through V8's code cache.
 * @param file the bundle's absolute path (a plain CommonJS file, no shebang)
 * @returns its exports
 */
export function loadHost<T = typeof import('./main')>(file: string): T {
  const dir = cacheDir();
  const builtIn = (Module as unknown as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (!dir || builtIn) {
    if (dir) builtIn?.(dir);
    return require(file) as T;
  }
  // One file per bundle and Node version (the CLI's Node and the editor's may run the same demo server).
  const prefix = `${basename(file, '.js')}-${process.version}-${process.arch}-`;
  let source: string;
  let cachePath: string;
  let script: Script;
  let cached: Buffer | undefined;
  try {
    source = readFileSync(file, 'utf8');
    const stat = statSync(file);
    cachePath = join(dir, `${prefix}${stat.size}-${Math.round(stat.mtimeMs)}.bin`);
    try {
      cached = readFileSync(cachePath);
    } catch {
      cached = undefined;
    }
    script = new Script(Module.wrap(source), { filename: file, cachedData: cached });
  } catch {
    return require(file) as T;
  }
  if (!cached || script.cachedDataRejected) {
    const write = () => writeCachedData(script, dir, cachePath, prefix);
    // Once the bundle has run (a server stopped by a signal never reaches its exit), and again at exit:
    // the data then also holds the functions this run compiled (a call's own path).
    setImmediate(write).unref();
    process.once('exit', write);
  }
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports as T;
}
