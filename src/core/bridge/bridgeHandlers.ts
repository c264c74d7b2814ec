/**
 * The official SDK's request handler of each bridged server (`createMcpHandler`, the 2025 era through
 * its stateless fallback: a fresh server instance per request), made on first use and made again
 * when the server behind a path changes.
 *
 * Spec: MCP 2025-11-25 "Transports" (Streamable HTTP).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { bridgeServerFactory, type BridgeTarget } from './bridgeServer';

/** One bridged server's handler. */
export interface BridgeHandler {
  readonly target: BridgeTarget;
  /** Serve one request; `body` is the JSON already read and parsed (POST). */
  handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void>;
  close(): Promise<void>;
}

/** What the handlers are made with. */
export interface BridgeHandlerOptions {
  /** The bridge's version (serverInfo). */
  version: string;
  /** Largest request body, bytes. */
  maxBodyBytes: number;
  /** The signal of the call with JSON-RPC id `id` on route `route`, while it is in flight. */
  signalOf: (route: string, id: unknown) => AbortSignal | undefined;
  /** Errors of the SDK outside any answer. */
  onWarning?: (message: string) => void;
}

/** The handlers by route (a bridged server's path id). */
export class BridgeHandlers {
  private readonly handlers = new Map<string, BridgeHandler>();

  constructor(private readonly options: BridgeHandlerOptions) {}

  /** The handler of route `id`, serving `target` (a new one when the route's target changed; the old one is closed). */
  for(id: string, target: BridgeTarget): BridgeHandler {
    const known = this.handlers.get(id);
    if (known?.target === target) return known;
    void known?.close();
    const { version, maxBodyBytes, signalOf, onWarning } = this.options;
    const onerror = (e: Error) => onWarning?.(`bridge ${id}: ${e.message}`);
    const mcp = createMcpHandler(
      bridgeServerFactory(target, (rid) => signalOf(id, rid), version),
      { legacy: 'stateless', onerror, maxRequestBodySize: maxBodyBytes },
    );
    const entry = { target, handle: toNodeHandler(mcp, { onerror, maxRequestBodySize: maxBodyBytes }), close: mcp.close };
    this.handlers.set(id, entry);
    return entry;
  }

  /** Close every handler (failures ignored: the endpoint is going away). */
  async close(): Promise<void> {
    await Promise.all([...this.handlers.values()].map((h) => h.close().catch(() => {})));
  }
}
