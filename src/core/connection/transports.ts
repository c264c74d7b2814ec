/**
 * The SDK transport for a server spec: a child process over stdio (`stdioTransport.ts`: every line
 * bounded, stderr read as bounded lines), Streamable HTTP (its bodies bounded by `boundedFetch.ts`),
 * or a transport the caller builds (tests, in-process servers).
 *
 * Spec: MCP 2026-07-28 "Transports" (stdio, Streamable HTTP).
 */
import { StreamableHTTPClientTransport, type FetchLike, type Transport } from '@modelcontextprotocol/client';
import { boundedFetch } from '../transport/boundedFetch';
import type { ServerSpec } from './serverSpec';
import { StdioTransport } from '../transport/stdioTransport';

/** True when the SDK must treat the server as a stdio one (a probe that times out means a 2025-era server). */
export function isStdio(spec: ServerSpec): boolean {
  return spec.transport === 'stdio' || (spec.transport === 'custom' && spec.kind === 'stdio');
}

/** What a transport reports besides messages. */
export interface TransportHooks {
  /** Each line a stdio server writes on stderr; `cut` when it was longer than the host keeps. */
  onStderr: (line: string, cut: boolean) => void;
  /** A message from the server that could not be read, as a sentence fragment. */
  onUnreadable: (reason: string) => void;
  /** Bytes read from the server (stdout, response bodies). */
  onBytes: (count: number) => void;
  /** Wraps an HTTP server's (bounded) fetch, e.g. with the server's OAuth. */
  wrapFetch?: (inner: FetchLike) => FetchLike;
}

/**
 * The `fetch` of an HTTP server's transport: every `fetch` wrapper the host puts around it is
 * composed here, the body bound innermost (it reads what the network gives), the server's OAuth
 * (the token on every request, a refusal turned into a sign-in) around it.
 */
function httpFetch(hooks: TransportHooks): FetchLike {
  const bounded = boundedFetch((url, init) => fetch(url, init), hooks);
  return hooks.wrapFetch ? hooks.wrapFetch(bounded) : bounded;
}

/** A new transport for `spec`. */
export function createTransport(spec: ServerSpec, hooks: TransportHooks): Transport {
  switch (spec.transport) {
    case 'stdio':
      return new StdioTransport({
        server: spec.name,
        command: spec.command,
        args: spec.args ?? [],
        // Like VS Code: the server gets the host's environment plus its own settings.
        env: { ...(process.env as Record<string, string>), ...(spec.env ?? {}) },
        cwd: spec.cwd,
        onStderr: hooks.onStderr,
        onUnreadable: hooks.onUnreadable,
        onBytes: hooks.onBytes,
        prestarted: spec.prestarted?.(),
      });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: spec.headers ?? {} },
        fetch: httpFetch(hooks),
      });
    case 'custom': {
      const t = spec.create();
      // The SDK treats a transport with stderr+pid as stdio (probe timeout = legacy server).
      if (spec.kind === 'stdio' && !('pid' in t)) Object.assign(t, { stderr: null, pid: null });
      return t;
    }
  }
}
