/**
 * The MCP server the bridge shows VS Code's own MCP client for one of the host's servers (one SDK
 * `Server` per HTTP request, served statelessly by `loopbackEndpoint.ts`). VS Code speaks 2025-11-25
 * and knows nothing of MRTR: `tools/list` mirrors the real server's tools, and `tools/call` runs the
 * host's MRTR driver against the real server (rounds answered in the round panel), streams one
 * `notifications/progress` per round on the call's `progressToken`, and returns the real result
 * unchanged.
 *
 * Spec: MCP 2025-11-25 "Tools" and "Progress" (towards VS Code); MCP 2026-07-28 "Multi Round-Trip
 * Requests" (towards the real server, in the driver).
 */
import { ProtocolError, ProtocolErrorCode, Server, type McpServerFactory } from '@modelcontextprotocol/server';
import { HostError, errorMessage } from '../util/errors';
import { isPlainObject } from '../util/json';

/** What the bridge needs of the host for one server. */
export interface BridgeTarget {
  /** The host's name of the server. */
  name: string;
  /** The real server's tools (all pages), as it listed them. @throws HostError when it cannot be reached */
  listTools(): Promise<unknown[]>;
  /** The real server's instructions, when it is connected and gave some. */
  instructions?(): string | undefined;
  /**
   * Run `tools/call` against the real server with round trips.
   * @param params `{name, arguments}`, plus the caller's `_meta` without VS Code's own keys
   * @param signal aborted when VS Code cancels the call (or its HTTP request goes away)
   * @param progress shows a line in the chat's running tool call
   * @returns the complete result as the real server sent it
   * @throws HostError (any kind)
   */
  callTool(params: Record<string, unknown>, signal: AbortSignal, progress: (message: string) => void): Promise<Record<string, unknown>>;
  /**
   * Read a `ui://` resource (an MCP App's document) from the real server, so VS Code's own chat can
   * render the app a bridged tool names in `_meta.ui.resourceUri`. Absent: the bridge offers no
   * resources (MCP Apps off).
   * @returns the `resources/read` result as the real server sent it (its `_meta.ui` unchanged)
   * @throws HostError (any kind)
   */
  readAppResource?(uri: string, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** Finds the cancellation signal of the call VS Code sent with JSON-RPC id `id` (set by the endpoint). */
export type CallSignal = (id: string | number) => AbortSignal | undefined;

/** `_meta` keys VS Code adds for itself (`vscode.conversationId`, `vscode.requestId`): not forwarded. */
const VSCODE_META = /^vscode\./;

/**
 * The caller's `_meta` for the real server: without the progress token (the driver makes its own)
 * and without VS Code's own keys.
 */
export function forwardedMeta(meta: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(meta)) return undefined;
  const kept = Object.entries(meta).filter(([k]) => k !== 'progressToken' && !VSCODE_META.test(k));
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * A failed call as VS Code should see it: the real server's JSON-RPC error as that same error; the
 * host's own reasons (declined, limits, a broken server) as a tool result with `isError`, so the
 * chat's model reads why and can tell the person.
 */
export function bridgeFailure(target: string, e: unknown): Record<string, unknown> {
  if (e instanceof HostError && e.kind === 'server' && e.code !== undefined) throw new ProtocolError(e.code, e.message, e.data);
  if (e instanceof HostError && e.kind === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InternalError, e.message);
  const why = e instanceof HostError ? `${e.kind}: ${e.message}` : errorMessage(e);
  return { content: [{ type: 'text', text: `MCP Roundtrip could not complete ${target}: ${why}` }], isError: true };
}

/**
 * The factory of the bridge's SDK server for `target`: one instance per HTTP request.
 * @param signalOf the endpoint's cancellation of a call by JSON-RPC id
 * @param version the bridge's version (serverInfo)
 */
export function bridgeServerFactory(target: BridgeTarget, signalOf: CallSignal, version: string): McpServerFactory {
  return () => {
    const server = new Server(
      { name: `mcp-roundtrip-bridge/${target.name}`, title: `${target.name} (via MCP Roundtrip)`, version },
      { capabilities: { tools: {}, ...(target.readAppResource ? { resources: {} } : {}) }, instructions: target.instructions?.() },
    );
    const readApp = target.readAppResource?.bind(target);
    if (readApp)
      server.setRequestHandler('resources/read', async (request, ctx) => {
        const uri = String(request.params.uri);
        // Only app documents: the bridge is for the server's tools, not a door to all its resources.
        if (!uri.startsWith('ui://'))
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, `only ui:// resources are offered (asked: ${uri.slice(0, 200)})`);
        try {
          return (await readApp(uri, ctx.mcpReq.signal)) as never;
        } catch (e) {
          throw new ProtocolError(
            ProtocolErrorCode.InternalError,
            `MCP Roundtrip could not read ${uri.slice(0, 200)} on ${target.name}: ${errorMessage(e)}`,
          );
        }
      });
    server.setRequestHandler('tools/list', async () => {
      try {
        return { tools: (await target.listTools()) as never };
      } catch (e) {
        throw new ProtocolError(
          ProtocolErrorCode.InternalError,
          `MCP Roundtrip could not list the tools of ${target.name}: ${errorMessage(e)}`,
        );
      }
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args, _meta } = request.params as Record<string, unknown>;
      const meta = forwardedMeta(_meta);
      const params = { name, arguments: args ?? {}, ...(meta ? { _meta: meta } : {}) };
      const token = isPlainObject(_meta) ? _meta.progressToken : undefined;
      let step = 0;
      const progress = (message: string) => {
        if (typeof token !== 'string' && typeof token !== 'number') return;
        void ctx.mcpReq
          .notify({ method: 'notifications/progress', params: { progressToken: token, progress: ++step, message } })
          .catch(() => {});
      };
      // Both signals live only as long as this HTTP request, so AbortSignal.any holds nothing for long.
      const cancel = signalOf(ctx.mcpReq.id);
      const signal = cancel ? AbortSignal.any([ctx.mcpReq.signal, cancel]) : ctx.mcpReq.signal;
      try {
        return (await target.callTool(params, signal, progress)) as never;
      } catch (e) {
        return bridgeFailure(`tools/call ${String(name)} on ${target.name}`, e) as never;
      }
    });
    return server;
  };
}
