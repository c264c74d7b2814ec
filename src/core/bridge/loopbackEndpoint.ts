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
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { isPlainObject } from '../util/json';
import { bridgeServerFactory, type BridgeTarget } from './bridgeServer';

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
}

/** A JSON-RPC id as a map key (1 and "1" are different ids). */
const idKey = (route: string, id: unknown) => `${route}\u0000${typeof id}:${String(id)}`;

/** The running endpoint: its port, its token, the URL of each bridged server. */
export class LoopbackEndpoint {
  private token?: Buffer;
  /** Refusals in the current minute, and when it started (ms since the epoch). */
  private refusals = { since: 0, count: 0 };
  /** Calls in flight by route and JSON-RPC id (a set: a client may reuse an id; a cancel then aborts all). */
  private readonly inFlight = new Map<string, Set<AbortController>>();
  private readonly handlers = new Map<string, { target: BridgeTarget; handle: ReturnType<typeof toNodeHandler>; close: () => Promise<void> }>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly options: LoopbackOptions,
  ) {}

  /**
   * Listen on `127.0.0.1` (a free port). No request is served until {@link mintToken}.
   * @throws when the port cannot be bound
   */
  static async start(options: LoopbackOptions): Promise<LoopbackEndpoint> {
    let endpoint: LoopbackEndpoint | undefined;
    const server = createServer((req, res) => endpoint?.serve(req, res));
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
    let n = 0;
    for (const set of this.inFlight.values()) n += set.size;
    return n;
  }

  /** Stop listening; running calls are aborted. */
  async close(): Promise<void> {
    for (const set of this.inFlight.values()) for (const c of set) c.abort();
    await Promise.all([...this.handlers.values()].map((h) => h.close().catch(() => {})));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const refused = this.refusal(req);
    if (refused) return this.refuse(req, res, refused.status, refused.message);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const id = path.startsWith(BRIDGE_PATH) ? safeDecode(path.slice(BRIDGE_PATH.length)) : undefined;
    const target = id === undefined ? undefined : this.options.target(id);
    if (id === undefined || !target) return this.refuse(req, res, 404, `no bridged server at ${path.slice(0, 100)}`);
    if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') return this.refuse(req, res, 405, `method ${req.method} not allowed`);
    const handler = this.handlerFor(id, target);
    if (req.method !== 'POST') return void handler.handle(req, res).catch((e) => this.failed(res, e));
    void this.readBody(req, res).then((body) => {
      if (body === undefined) return;
      const text = body.toString('utf8');
      if (jsonDepth(text) > MAX_JSON_DEPTH) return this.refuse(req, res, 400, `the body nests deeper than ${MAX_JSON_DEPTH} levels`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return this.refuse(req, res, 400, 'the body is not JSON', -32700);
      }
      // 2025-11-25 has no JSON-RPC batches: a batch could carry calls nobody can cancel.
      if (Array.isArray(parsed)) return this.refuse(req, res, 400, 'JSON-RPC batches are not supported');
      if (this.cancelled(id, parsed)) return void res.writeHead(202).end();
      const done = this.track(id, parsed, res);
      handler.handle(req, res, parsed).catch((e) => this.failed(res, e)).finally(done);
    });
  }

  /** Host, Origin and token, checked before the path is even looked at. */
  private refusal(req: IncomingMessage): { status: number; message: string } | undefined {
    const own = [`127.0.0.1:${this.port}`, `localhost:${this.port}`];
    if (!own.includes((req.headers.host ?? '').toLowerCase())) return { status: 403, message: `Host ${JSON.stringify(req.headers.host ?? '')?.slice(0, 80)} is not this endpoint` };
    const origin = req.headers.origin;
    if (origin !== undefined && !own.some((h) => origin.toLowerCase() === `http://${h}`)) return { status: 403, message: `Origin ${JSON.stringify(origin).slice(0, 80)} may not call this endpoint` };
    if (!this.token) return { status: 401, message: 'no token has been issued yet' };
    const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!auth) return { status: 401, message: 'missing bearer token' };
    if (!sameSecret(Buffer.from(auth[1]), this.token)) return { status: 401, message: 'wrong bearer token' };
    return undefined;
  }

  /** The body, bounded in size; `undefined` (already answered 413/400) when it is too large or broken. */
  private readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | undefined> {
    const max = this.options.maxBodyBytes ?? MAX_BODY_BYTES;
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > max) return Promise.resolve(this.refuse(req, res, 413, `the body (${declared} bytes) is over the limit of ${max} bytes`));
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > max) {
          req.removeAllListeners('data');
          resolve(this.refuse(req, res, 413, `the body is over the limit of ${max} bytes`));
        } else chunks.push(chunk);
      });
      req.on('end', () => size <= max && resolve(Buffer.concat(chunks)));
      req.on('error', () => resolve(undefined));
    });
  }

  /** A `notifications/cancelled` for a call of this route: abort that call. @returns whether it was one */
  private cancelled(route: string, message: unknown): boolean {
    if (!isPlainObject(message) || message.method !== 'notifications/cancelled' || 'id' in message) return false;
    const params = isPlainObject(message.params) ? message.params : {};
    const reason = new Error(typeof params.reason === 'string' ? params.reason.slice(0, 200) : 'cancelled by the client');
    for (const c of this.inFlight.get(idKey(route, params.requestId)) ?? []) c.abort(reason);
    return true;
  }

  /**
   * Remember a `tools/call` in flight, so a cancellation or the request going away aborts it.
   * @returns what to do once it is answered
   */
  private track(route: string, message: unknown, res: ServerResponse): () => void {
    if (!isPlainObject(message) || message.method !== 'tools/call' || !('id' in message)) return () => {};
    const key = idKey(route, message.id);
    const controller = new AbortController();
    const calls = this.inFlight.get(key) ?? new Set();
    this.inFlight.set(key, calls.add(controller));
    const gone = () => res.writableFinished || controller.abort(new Error('the client closed the request'));
    res.on('close', gone);
    return () => {
      res.off('close', gone);
      calls.delete(controller);
      if (calls.size === 0 && this.inFlight.get(key) === calls) this.inFlight.delete(key);
    };
  }

  private handlerFor(id: string, target: BridgeTarget) {
    const known = this.handlers.get(id);
    if (known?.target === target) return known;
    void known?.close();
    const onerror = (e: Error) => this.options.onWarning?.(`bridge ${id}: ${e.message}`);
    const mcp = createMcpHandler(bridgeServerFactory(target, (rid) => [...(this.inFlight.get(idKey(id, rid)) ?? [])].pop()?.signal, this.options.version), {
      legacy: 'stateless',
      onerror,
      maxRequestBodySize: this.options.maxBodyBytes ?? MAX_BODY_BYTES,
    });
    const entry = { target, handle: toNodeHandler(mcp, { onerror, maxRequestBodySize: this.options.maxBodyBytes ?? MAX_BODY_BYTES }), close: mcp.close };
    this.handlers.set(id, entry);
    return entry;
  }

  /** Answer with `status` and a JSON-RPC error body; the connection closes after it. */
  private refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string, code = -32600): undefined {
    this.logRefusal(`refused ${req.method ?? '?'} ${new URL(req.url ?? '/', 'http://127.0.0.1').pathname.slice(0, 100)} (${status}): ${message}`);
    if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json', Connection: 'close' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), () => req.socket.destroy());
    return undefined;
  }

  /** Log a refusal, at most {@link MAX_REFUSALS_LOGGED} a minute; the rest are counted in one line. */
  private logRefusal(line: string): void {
    const now = Date.now();
    if (now - this.refusals.since >= 60_000) {
      const dropped = this.refusals.count - MAX_REFUSALS_LOGGED;
      if (dropped > 0) this.options.onWarning?.(`${dropped} more request(s) refused in the minute before (not logged one by one)`);
      this.refusals = { since: now, count: 0 };
    }
    if (++this.refusals.count <= MAX_REFUSALS_LOGGED) this.options.onWarning?.(line);
  }

  private failed(res: ServerResponse, e: unknown): void {
    this.options.onWarning?.(`bridge request failed: ${e instanceof Error ? e.message : String(e)}`);
    if (!res.headersSent) res.writeHead(500).end();
  }
}

/** Constant-time comparison of two secrets of any length (their digests are compared). */
function sameSecret(a: Buffer, b: Buffer): boolean {
  const digest = (x: Buffer) => createHash('sha256').update(x).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The deepest nesting of `[` and `{` in JSON text (outside strings), read in one pass without recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
