/** What a {@link ServerConnection} is given besides its server spec. */
import type { Implementation, JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/client';
import type { ChangedList, HostEventListener } from '../log/events';
import type { FormContentCheck } from '../inputs/answers';
import type { InputProvider } from '../inputs/inputProvider';
import type { OAuthHost } from '../oauth/serverOAuth';

/** Options for a server connection. */
export interface ConnectionOptions {
  /** Who answers the server's input requests; its capabilities are the ones declared to the server. */
  provider: InputProvider;
  /** The client's name and version sent to the server (default `mcp-roundtrip` 0.1.0). */
  clientInfo?: Implementation;
  /** Host events: connecting, connected, disconnected, stderr lines, pushed requests, warnings. */
  onEvent?: HostEventListener;
  /** Every JSON-RPC message in both directions (debug tracing). */
  onWire?: (server: string, direction: 'out' | 'in', message: JSONRPCMessage) => void;
  /** Deep check of accepted form content (wired to ajv by the host). */
  checkFormContent?: FormContentCheck;
  /** Time limit of the whole handshake (probe and 2025 fallback together), ms. Default `CONNECT_TIMEOUT_MS` (30000). */
  connectTimeoutMs?: number;
  /**
   * The level of the server's log messages to ask for: with each leg's
   * `_meta["io.modelcontextprotocol/logLevel"]` on a 2026-07-28 connection (MCP 2026-07-28 "Logging"),
   * with `logging/setLevel` once connected to a 2025-era server that declares the `logging` capability
   * (MCP 2025-11-25 "Logging"); none asked when absent. The messages a server sends go to the
   * round-trip log either way.
   */
  logLevel?: LoggingLevel;
  /** Sign-ins for HTTP servers that ask for one (OAuth); without it a 401 ends the request. */
  oauth?: OAuthHost;
}

/**
 * `options` with `onChange` called, after its own listener, for each `listChanged` event (the server
 * said its tools, prompts or resources changed), e.g. so that a view lists them again.
 */
export function withListChanges(options: ConnectionOptions, onChange: (server: string, list: ChangedList) => void): ConnectionOptions {
  const inner = options.onEvent;
  return {
    ...options,
    onEvent: (e) => {
      inner?.(e);
      if (e.kind === 'listChanged') onChange(e.server, e.list);
    },
  };
}
