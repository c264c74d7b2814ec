// Streamable HTTP on 127.0.0.1, behind localhost Host/Origin validation.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpServerFactory } from '@modelcontextprotocol/server';

/** The MCP endpoint's path. */
export const MCP_PATH = '/mcp';

/** A running HTTP endpoint: its URL (with the real port when 0 was asked for) and a way to stop it. */
export interface HttpEndpoint {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `factory` over Streamable HTTP at `http://127.0.0.1:<port>/mcp` (port 0: any free port).
 *
 * Both eras: 2026-07-28 requests are served per request; 2025 requests by the SDK's stateless
 * fallback (which has no server-to-client channel, so MRTR tools answer -32021 there). Requests
 * whose `Host` is not localhost/127.0.0.1/[::1], or that carry another `Origin`, get 403 (DNS
 * rebinding protection; spec: basic/transports, Streamable HTTP security warning). Other paths
 * get 404. Rejects if the port cannot be bound.
 */
export async function startHttp(factory: McpServerFactory, port: number, onerror: (error: Error) => void): Promise<HttpEndpoint> {
  const mcp = createMcpHandler(factory, { onerror });
  const handle = toNodeHandler(mcp, { onerror });
  const hostOk = localhostHostValidation();
  const originOk = localhostOriginValidation();

  const server: Server = createServer((req, res) => {
    // The guards answer 403 themselves when they return false.
    if (!hostOk(req, res) || !originOk(req, res)) return;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== MCP_PATH) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: `Not found: the MCP endpoint is ${MCP_PATH}` }));
      return;
    }
    handle(req, res).catch((error: unknown) => {
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}${MCP_PATH}`,
    port: actual,
    close: async () => {
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
