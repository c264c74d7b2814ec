/**
 * Loading the CLI's host bundle (dist/cli-main.js) with V8's code cache, so that a cold call does not
 * compile 700 KB of JavaScript again each time (it halves the load). Node 22.1+ has this built in
 * (`module.enableCompileCache`); on Node 20 the bundle is compiled by `vm.Script` with the cached data
 * kept from the previous run, written again at exit when it was missing or stale (V8 rejects data of
 * another source, V8 version or flags by itself).
 *
 * The cache lives in the user's own cache directory (`$XDG_CACHE_HOME` or `~/.cache`, then
 * `mcp-roundtrip/compile-cache`, created private): code read from a shared temp directory could be
 * planted by another user. Any failure to read or write it only means loading without it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
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
  let source: string;
  let cachePath: string;
  let script: Script;
  let cached: Buffer | undefined;
  try {
    source = readFileSync(file, 'utf8');
    const stat = statSync(file);
    cachePath = join(dir, `${process.version}-${process.arch}-${stat.size}-${Math.round(stat.mtimeMs)}.bin`);
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
    // At exit: the data then also holds the functions this run compiled (the call's own path).
    process.once('exit', () => {
      try {
        writeFileSync(cachePath, script.createCachedData(), { mode: 0o600 });
        // The data of earlier builds is never read again.
        for (const old of readdirSync(dir)) if (old.endsWith('.bin') && join(dir, old) !== cachePath) rmSync(join(dir, old), { force: true });
      } catch {
        /* no cache next time */
      }
    });
  }
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports as T;
}
