/**
 * Directories → `roots/list` answers. URIs are built with Node's `pathToFileURL`, which percent-
 * encodes spaces, `#`, `?` and non-ASCII as UTF-8 and keeps a Windows drive colon as `C:` (never
 * `%3A`, the bug of VS Code's `Uri.toString()`); UNC paths put the server in the authority.
 *
 * Spec: MCP 2026-07-28 "Roots": `{roots: [{uri: "file://...", name?}]}`. See docs/field-cases.md, F7.
 */
import { basename as posixBasename, win32 } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ListRootsResult } from '@modelcontextprotocol/client';

/**
 * The root for one absolute directory path.
 * @param path absolute path in the platform's syntax (`C:\temp`, `\\server\share`, `/home/x`)
 * @param windows treat `path` with Windows semantics (default: the running platform's)
 * @param name display name; defaults to the last path segment
 */
export function rootFromPath(path: string, windows = process.platform === 'win32', name?: string): { uri: string; name: string } {
  const uri = pathToFileURL(path, { windows }).href;
  const base = windows ? win32.basename(path) : posixBasename(path);
  return { uri, name: name ?? (base || path) };
}

/**
 * Roots for several directories, in the given order.
 * @param paths absolute directory paths
 */
export function rootsFromPaths(paths: readonly string[], windows?: boolean): ListRootsResult {
  return { roots: paths.map((p) => rootFromPath(p, windows)) };
}
