/**
 * The name of a server given on the command line (`--stdio "node path/to/index.js"`): the package the
 * script belongs to, so the log says `[server-everything]`, not `[index]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { isPlainObject } from '../core/util/json';

/** Commands that run a script file given as their first plain argument. */
const SCRIPT_RUNNERS = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx', 'ts-node', 'python', 'python3', 'py']);

/** How far up from the script a package.json is looked for. */
const MAX_LEVELS = 8;

/**
 * The name of the package a script run by `node` (or another script runner) belongs to: the
 * `name` of the nearest package.json above the script, without its scope
 * (`@modelcontextprotocol/server-everything` → `server-everything`), when that script is the
 * package's own (its `main`, one of its `bin`, or an `index` file); `undefined` otherwise (no such
 * script, no package.json, a script that is not the package's entry: its own name says more).
 * @param cwd the directory the script's relative path starts from
 */
export function packageServerName(command: string, args: readonly string[], cwd: string): string | undefined {
  const runner = basename(command)
    .replace(/\.(exe|cmd|bat)$/i, '')
    .toLowerCase();
  if (!SCRIPT_RUNNERS.has(runner)) return undefined;
  const script = args.find((a) => !a.startsWith('-'));
  if (!script) return undefined;
  const path = isAbsolute(script) ? script : resolve(cwd, script);
  if (!existsSync(path)) return undefined;
  let dir = dirname(path);
  for (let i = 0; i < MAX_LEVELS; i++) {
    const pkg = readPackage(resolve(dir, 'package.json'));
    if (pkg) return isEntry(pkg, dir, path) ? unscoped(pkg.name) : undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

interface PackageJson {
  name: string;
  main?: unknown;
  bin?: unknown;
}

/** The package.json at `file` when it names its package; `undefined` when there is none or it cannot be read. */
function readPackage(file: string): PackageJson | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return typeof parsed?.name === 'string' && parsed.name ? (parsed as unknown as PackageJson) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `script` is the package's entry: its `main`, one of its `bin`, or a file named `index`. */
function isEntry(pkg: PackageJson, dir: string, script: string): boolean {
  if (/^index\.[cm]?[jt]s$|^index\.py$/.test(basename(script))) return true;
  const bins: unknown[] = typeof pkg.bin === 'string' ? [pkg.bin] : isPlainObject(pkg.bin) ? Object.values(pkg.bin) : [];
  const entries = [pkg.main, ...bins];
  return entries.some((e) => typeof e === 'string' && resolve(dir, e) === script);
}

/** `@scope/name` → `name`. */
function unscoped(name: string): string {
  return name.replace(/^@[^/]+\//, '');
}
