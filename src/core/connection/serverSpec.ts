/**
 * How to reach one MCP server. Produced by `config/servers.ts` (settings, mcp.json, the built-in demo)
 * or by the CLI's flags; consumed by `serverConnection.ts`.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { PrestartedProcess } from '../transport/stdioTransport';
import type { OAuthSettings } from '../oauth/oauthSettings';

/**
 * Which protocol era to speak. `auto` (default) probes `server/discover` (2026-07-28) and falls
 * back to the 2025 `initialize` handshake; `modern` insists on 2026-07-28; `legacy` speaks only 2025.
 */
export type EraSetting = 'auto' | 'modern' | 'legacy';

/** A server started as a child process speaking newline-delimited JSON-RPC on stdio. */
export interface StdioServerSpec {
  transport: 'stdio';
  name: string;
  command: string;
  args?: string[];
  /** Added to (and overriding) the host's own environment. */
  env?: Record<string, string>;
  cwd?: string;
  era?: EraSetting;
  /**
   * The process of this very command, when it was started before the host loaded (the CLI's
   * executable does that); taken by the first connection, `undefined` afterwards.
   */
  prestarted?: () => PrestartedProcess | undefined;
}

/** A server reached over Streamable HTTP. */
export interface HttpServerSpec {
  transport: 'http';
  name: string;
  url: string;
  /** Extra request headers (e.g. Authorization). Never logged. */
  headers?: Record<string, string>;
  era?: EraSetting;
  /** How it signs in (a pre-registered client), or `false`: never start a sign-in. Default: sign in when asked to. */
  oauth?: OAuthSettings | false;
}

/** A server reached through a transport built by the caller (tests, in-process servers). */
export interface CustomServerSpec {
  transport: 'custom';
  name: string;
  create: () => Transport;
  /** How the SDK should treat probe timeouts: like stdio (legacy) or HTTP (error). Default http. */
  kind?: 'stdio' | 'http';
  era?: EraSetting;
}

/** How to reach one server: a command over stdio, a Streamable HTTP URL, or a caller-built transport. */
export type ServerSpec = StdioServerSpec | HttpServerSpec | CustomServerSpec;

/** A one-line description for logs and pickers, without secrets (no env values, no headers). */
export function describeServer(spec: ServerSpec): string {
  switch (spec.transport) {
    case 'stdio':
      return `stdio: ${[spec.command, ...(spec.args ?? [])].join(' ')}`;
    case 'http':
      return `http: ${spec.url}`;
    case 'custom':
      return 'custom transport';
  }
}

/** Whether an HTTP server may sign in: not disabled, and no static `Authorization` header of its own. */
export function usesOAuth(spec: ServerSpec): spec is HttpServerSpec {
  if (spec.transport !== 'http' || spec.oauth === false) return false;
  return !Object.keys(spec.headers ?? {}).some((k) => k.toLowerCase() === 'authorization');
}
