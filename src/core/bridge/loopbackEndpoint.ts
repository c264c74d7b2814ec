/**
 * The bridge's HTTP endpoint: Streamable HTTP MCP served by the extension host itself, on
 * `127.0.0.1` only, one path per bridged server (`/mcp/<id>`), for VS Code's own MCP client.
 *
 * Any local process can reach a loopback port, so every request is checked before anything else,
 * in this order: `Host` must be this listener (`127.0.0.1:<port>` or `localhost:<port>`: DNS
 * rebinding), a present `Origin` must be this listener's own (a web page cannot call us), and
 * `Authorization: Bearer <token>` must carry the window's token (compared in constant time); then the
 * path, the method and the body (at most {@link MAX_BODY_BYTES}, received within
 * {@link BODY_TIMEOUT_MS}). No CORS header is ever sent.
 *
 * Served statelessly with the official SDK (`createMcpHandler`, 2025 era through its stateless
 * fallback): each request gets a fresh server instance, so a `notifications/cancelled` would reach
 * none of them; the endpoint routes it itself to the call it names, as it does when the HTTP
 * request of a running call goes away.
 *
 * Spec: MCP 2025-11-25 "Transports" (Streamable HTTP, security warning: validate Origin, bind to
 * localhost, authenticate) and "Cancellation".
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { BridgeHandlers } from './bridgeHandlers';
import { ConnectionGate } from './connectionGate';
import type { BridgeTarget } from './bridgeServer';
import { InFlightCalls } from './inFlightCalls';
import { RefusalLog } from './refusalLog';
import { callerRefusal, jsonDepth, readBoundedBody, type Refusal } from './requestChecks';

/** Largest request body accepted, in bytes (the SDK's own default bound). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Time a client has to send a request's headers and body, ms (a slow sender cannot hold a socket). */
export const BODY_TIMEOUT_MS = 30_000;
/** Deepest nesting of arrays and objects a body may have (deeper ones overflow validators' stacks). */
export const MAX_JSON_DEPTH = 100;
/** Open connections at most (VS Code holds a few per bridged server). */
export const MAX_CONNECTIONS = 64;
/** Refusals logged per minute at most: a local process hammering the port must not flood the log. */
export const MAX_REFUSALS_LOGGED = 20;
/** The path prefix of the bridged servers. */
export const BRIDGE_PATH = '/mcp/';

/** What the endpoint serves. */
export interface LoopbackOptions {
  /** The bridged server behind path id `id`, or `undefined` (404). Called per request. */
  target(id: string): BridgeTarget | undefined;
  /** The bridge's version (serverInfo). */
  version: string;
  /** Refused requests and errors outside any request (never with the token or a body). */
  onWarning?(message: string): void;
  /** Bounds, for tests. */
  maxBodyBytes?: number;
  bodyTimeoutMs?: number;
  /** How long a connection may go unauthenticated (default: `UNAUTHENTICATED_MS` of `connectionGate.ts`), for tests. */
  unauthenticatedMs?: number;
}

/** The running endpoint: its port, its token, the URL of each bridged server. */
export class LoopbackEndpoint {
  private token?: Buffer;
  private readonly refusals: RefusalLog;
  private readonly inFlight = new InFlightCalls();
  private readonly handlers: BridgeHandlers;
  private readonly gate: ConnectionGate;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly options: LoopbackOptions,
  ) {
    const onWarning = (m: string) => options.onWarning?.(m);
    this.refusals = new RefusalLog(MAX_REFUSALS_LOGGED, onWarning);
    this.gate = new ConnectionGate((line) => this.refusals.log(line), options.unauthenticatedMs);
    const signalOf = (route: string, id: unknown) => this.inFlight.signalOf(route, id);
    this.handlers = new BridgeHandlers({
      version: options.version,
      maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
      signalOf,
      onWarning,
    });
  }

  /**
   * Listen on `127.0.0.1` (a free port). No request is served until {@link mintToken}.
   * @throws when the port cannot be bound
   */
  static async start(options: LoopbackOptions): Promise<LoopbackEndpoint> {
    let endpoint: LoopbackEndpoint | undefined;
    const server = createServer((req, res) => endpoint?.serve(req, res));
    // Every connection must authenticate soon; none is accepted before the endpoint exists.
    server.on('connection', (socket: Socket) => (endpoint ? endpoint.gate.admit(socket) : socket.destroy()));
    server.headersTimeout = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    server.requestTimeout = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
    server.maxConnections = MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => (server.off('error', reject), resolve()));
    });
    endpoint = new LoopbackEndpoint(server, (server.address() as AddressInfo).port, options);
    return endpoint;
  }

  /** The window's bearer token: minted once (32 random bytes, base64url), the same for every later call. */
  mintToken(): string {
    this.token ??= Buffer.from(randomBytes(32).toString('base64url'));
    return this.token.toString();
  }

  /** The URL of bridged server `id`. */
  url(id: string): string {
    return `http://127.0.0.1:${this.port}${BRIDGE_PATH}${encodeURIComponent(id)}`;
  }

  /** The address the listener is bound to (always `127.0.0.1`). */
  get address(): string {
    return (this.server.address() as AddressInfo).address;
  }

  /** Calls in flight (tools/call requests not yet answered). */
  get callsInFlight(): number {
    return this.inFlight.size;
  }

  /** Stop listening; running calls are aborted. */
  async close(): Promise<void> {
    this.inFlight.abortAll();
    this.gate.close();
    await this.handlers.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const refused = callerRefusal(req, this.port, this.token);
    if (refused) return this.refuse(req, res, refused);
    this.gate.authenticated(req.socket);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const id = path.startsWith(BRIDGE_PATH) ? safeDecode(path.slice(BRIDGE_PATH.length)) : undefined;
    const target = id === undefined ? undefined : this.options.target(id);
    if (id === undefined || !target) return this.refuse(req, res, { status: 404, message: `no bridged server at ${path.slice(0, 100)}` });
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE')
      return this.refuse(req, res, { status: 405, message: `method ${req.method} not allowed` });
    const handler = this.handlers.for(id, target);
    if (req.method !== 'POST') return void handler.handle(req, res).catch((e) => this.failed(res, e));
    void readBoundedBody(req, this.options.maxBodyBytes ?? MAX_BODY_BYTES, (r) => this.refuse(req, res, r)).then((body) => {
      if (body === undefined) return;
      const text = body.toString('utf8');
      if (jsonDepth(text) > MAX_JSON_DEPTH)
        return this.refuse(req, res, { status: 400, message: `the body nests deeper than ${MAX_JSON_DEPTH} levels` });
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return this.refuse(req, res, { status: 400, message: 'the body is not JSON' }, -32700);
      }
      // 2025-11-25 has no JSON-RPC batches: a batch could carry calls nobody can cancel.
      if (Array.isArray(parsed)) return this.refuse(req, res, { status: 400, message: 'JSON-RPC batches are not supported' });
      if (this.inFlight.cancelled(id, parsed)) return void res.writeHead(202).end();
      const done = this.inFlight.track(id, parsed, res);
      handler
        .handle(req, res, parsed)
        .catch((e) => this.failed(res, e))
        .finally(done);
    });
  }

  /** Answer with the refusal's status and a JSON-RPC error body (logged, bounded); the connection closes after it. */
  private refuse(req: IncomingMessage, res: ServerResponse, { status, message }: Refusal, code = -32600): undefined {
    this.refusals.log(
      `refused ${req.method ?? '?'} ${new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(0, 100)} (${status}): ${message}`,
    );
    if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json', Connection: 'close' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), () => req.socket.destroy());
    return undefined;
  }

  private failed(res: ServerResponse, e: unknown): void {
    this.options.onWarning?.(`bridge request failed: ${e instanceof Error ? e.message : String(e)}`);
    if (!res.headersSent) res.writeHead(500).end();
  }
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
