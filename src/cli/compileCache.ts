/**
 * Loading a large bundle (the CLI's host, dist/cli-main.js; the demo server, dist/demo-server-main.js)
 * with V8's code cache, so that a cold start does not compile it again each time (it halves the load).
 * Node 22.1+ has this built in (`module.enableCompileCache`); on Node 20 the bundle is compiled by
 * `vm.Script` with the cached data kept from an earlier run, written when it was missing or stale
 * (V8 rejects data of another source, V8 version or flags by itself): once the bundle has run, and
 * again at exit, when the data also holds the functions this run compiled.
 *
 * The cache lives in the user's own cache directory (`$XDG_CACHE_HOME` or `~/.cache`, then
 * `mcp-roundtrip/compile-cache`), used only when it is a directory of this user that no one else may
 * write: cached code is run as it is, so data planted by another user would run as ours. Any failure
 * to read or write it only means loading without it.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * The directory of the compile cache, created (owner only) when missing; `undefined` when it cannot be,
 * or when it is not this user's own private directory (another owner, or writable by others).
 */
function cacheDir(): string | undefined {
  try {
    // A relative XDG_CACHE_HOME is to be ignored (XDG Base Directory specification).
    const base =
      process.env.XDG_CACHE_HOME && isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : join(homedir(), '.cache');
    const dir = join(base, 'mcp-roundtrip', 'compile-cache');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory()) return undefined;
    if (process.platform !== 'win32' && (st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * Writes `script`'s code cache to `cachePath` and removes the data of the same bundle's earlier builds
 * for this Node (named by `file`'s place, and by its place as named before: SHA-256); a failure only
 * means no cache next time.
 */
function writeCachedData(script: Script, dir: string, cachePath: string, file: string): void {
  // Written whole and then renamed: a process starting meanwhile reads the old file or the new one.
  // `wx`: a file already at the temporary name (or a link there) is not written through.
  const partial = `${cachePath}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    renameSync(partial, cachePath);
    // Earlier builds' data is never read again (and names without a bundle's prefix are from before there were two).
    // node:crypto loads only here, when data is written (the first start since a build), not on every start.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createHash } = require('node:crypto') as typeof import('node:crypto');
    const prefixes = [dataPrefix(file, fnv1a32(file)), dataPrefix(file, createHash('sha256').update(file).digest('hex').slice(0, 8))];
    for (const old of readdirSync(dir)) {
      if (old.endsWith('.bin') && (prefixes.some((p) => old.startsWith(p)) || /^v\d/.test(old)) && join(dir, old) !== cachePath)
        rmSync(join(dir, old), { force: true });
    }
  } catch {
    // No cache next time; nothing half-written left behind (a full disk stays no fuller).
    try {
      rmSync(partial, { force: true });
    } catch {
      /* nothing to remove */
    }
  }
}

/** Node's own compile cache (22.1+; `flushCompileCache` 22.10+). */
type BuiltInCache = { enableCompileCache?: (dir?: string) => unknown; flushCompileCache?: () => void };

/**
 * The FNV-1a hash (32 bits) of `text`'s UTF-16 code units, as 8 hex digits: which copy of a bundle
 * (its path) a cache file belongs to. Not node:crypto, which is milliseconds of a CLI start that needs no other hash; the
 * cache file is also named by the bundle's size and mtime, and V8 rejects data made for another
 * source length or other flags.
 */
export function fnv1a32(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** The start of the names of `file`'s data files for this Node: bundle name, its place (8 hex digits), Node version, arch. */
function dataPrefix(file: string, place: string): string {
  return `${basename(file, '.js')}-${place}-${process.version}-${process.arch}-`;
}

/**
 * `require(file)` of a CommonJS bundle through V8's code cache.
 * @param file the bundle's absolute path (a plain CommonJS file, no shebang)
 * @returns its exports
 */
export function loadBundle<T = typeof import('./main')>(file: string): T {
  const dir = cacheDir();
  const builtIn = Module as unknown as BuiltInCache;
  if (!dir || builtIn.enableCompileCache) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (!dir) return require(file) as T;
    builtIn.enableCompileCache!(dir);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exports = require(file) as T;
    // Node writes its cache at exit; a server stopped by a signal never gets there.
    setImmediate(() => builtIn.flushCompileCache?.()).unref();
    return exports;
  }
  // One file per bundle, place and Node version: two copies of a bundle (a checkout, an installed
  // extension) would otherwise keep replacing each other's data.
  const prefix = dataPrefix(file, fnv1a32(file));
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
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file) as T;
  }
  if (!cached || script.cachedDataRejected) {
    const write = () => writeCachedData(script, dir, cachePath, file);
    // Once the bundle has run (a server stopped by a signal never reaches its exit), and again at exit.
    setImmediate(write).unref();
    process.once('exit', write);
  }
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports as T;
}
