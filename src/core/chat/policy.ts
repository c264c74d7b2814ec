/**
 * Whether VS Code's own MCP policy lets the bridge's servers into chat, read from the settings VS
 * Code 1.139 applies to servers an extension provides:
 * - `chat.mcp.access`: `"all"` (default), `"registry"` (only servers from the MCP registry: an
 *   extension's servers are not started) or `"none"` (no MCP server at all; `false` in older builds);
 * - `chat.mcp.allowedServers` / `chat.mcp.deniedServers`: lists of `{serverName}`, `{serverUrl}`
 *   (`*` wildcards) or `{serverCommand}`; a denied match blocks, and a non-null allow-list blocks what
 *   it does not match.
 * `@roundtrip` calls servers itself, so none of these block it.
 */

/** The raw values of VS Code's settings (what `getConfiguration('chat.mcp')` returns). */
export interface ChatMcpSettings {
  access?: unknown;
  allowedServers?: unknown;
  deniedServers?: unknown;
}

/** How VS Code identifies a bridged server for its allow- and deny-lists. */
export interface BridgedIdentity {
  /** The definition's label. */
  name: string;
  /** The definition's URL. */
  url: string;
}

/** Why VS Code will not use a bridged server, or `undefined` when nothing blocks it. */
export function policyBlock(settings: ChatMcpSettings, server: BridgedIdentity): string | undefined {
  if (settings.access === 'none' || settings.access === false)
    return 'VS Code\'s setting chat.mcp.access is "none": no MCP server reaches chat (use @roundtrip instead)';
  if (settings.access === 'registry')
    return 'VS Code\'s setting chat.mcp.access is "registry": only servers from the MCP registry reach chat, not those an extension provides (use @roundtrip instead)';
  const denied = matchers(settings.deniedServers);
  if (denied?.some((m) => matches(m, server))) return `VS Code's setting chat.mcp.deniedServers matches "${server.name}"`;
  const allowed = matchers(settings.allowedServers);
  if (allowed && !allowed.some((m) => matches(m, server)))
    return `VS Code's setting chat.mcp.allowedServers does not list "${server.name}" (add {"serverName": "${server.name}"} or {"serverUrl": "http://127.0.0.1:*/mcp/*"})`;
  return undefined;
}

type Matcher = { serverName?: unknown; serverUrl?: unknown; serverCommand?: unknown };

/** The list's entries, or `undefined` when the setting is not a list (null: no list). */
function matchers(raw: unknown): Matcher[] | undefined {
  return Array.isArray(raw) ? raw.filter((m): m is Matcher => !!m && typeof m === 'object') : undefined;
}

function matches(m: Matcher, server: BridgedIdentity): boolean {
  if (typeof m.serverName === 'string') return m.serverName === server.name;
  if (typeof m.serverUrl === 'string') return urlMatches(m.serverUrl, server.url);
  return false; // serverCommand never matches an HTTP server
}

/** `pattern` against `url`, case-insensitive, `*` matching any run of characters (a port too). */
export function urlMatches(pattern: string, url: string): boolean {
  const re = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${re}$`, 'i').test(url);
}
