/**
 * The loopback server that gives each MCP App document its own URL and its own CSP. An app cannot be
 * written into our webview (`srcdoc`, `blob:`): such a child inherits the webview's nonce-only CSP and
 * the app's inline scripts never run; and the app must never share a document with our nonce or
 * `acquireVsCodeApi`. So the webview frames `http://127.0.0.1:<port>/app/<token>`, served with the
 * CSP built from what the app declared (`appCsp.ts`), in a sandbox without `allow-same-origin`.
 *
 * One server (so one origin) per MCP server, started on first use; it binds to 127.0.0.1 only, answers
 * only `GET` of a registered token (unguessable, 128 bits), and nothing else.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

/** A document being served: its URL, until `dispose()`. */
export interface ServedApp {
  /** `http://127.0.0.1:<port>/app/<token>`. */
  url: string;
  /** The origin of {@link url} (`http://127.0.0.1:<port>`), for the webview's `frame-src`. */
  origin: string;
  /** Stop serving the document (its URL answers 404 from then on). */
  dispose(): void;
}

/**
 * A document being served: its HTML, its CSP, and its HTML gzipped (started when it is registered).
 * Gzipped because a browser host reaches the loopback server through the host's proxy (code-server's
 * `/proxy/<port>/`), which carries an app of hundreds of KB slowly; an app's HTML shrinks to about a quarter.
 */
interface ServedDocument {
  html: string;
  csp: string;
  gzipped: Promise<Buffer>;
}

/** The documents of one origin and their CSP. */
class OriginServer {
  private constructor(
    readonly server: Server,
    readonly origin: string,
    readonly docs: Map<string, ServedDocument>,
  ) {}

  static async start(): Promise<OriginServer> {
    const docs = new Map<string, ServedDocument>();
    const server = createServer((req, res) => {
      const token = /^\/app\/([0-9a-f]{32})$/.exec(req.url ?? '')?.[1];
      const doc = token !== undefined && req.method === 'GET' ? docs.get(token) : undefined;
      if (!doc) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
        return void res.end('not found');
      }
      const headers = {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': doc.csp,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        Vary: 'Accept-Encoding',
      };
      if (!/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        res.writeHead(200, headers);
        return void res.end(doc.html);
      }
      void doc.gzipped.then(
        (body) => (res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip' }), res.end(body)),
        () => (res.writeHead(200, headers), res.end(doc.html)),
      );
    });
    // Keep-alive sockets of a closed view must not hold the extension host open.
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    return new OriginServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, docs);
  }
}

/** The app servers of the host: one loopback origin per MCP server name. */
export class AppServers {
  private readonly origins = new Map<string, Promise<OriginServer>>();

  /**
   * Serve `html` under `csp` on the origin of `server` (started on first use).
   * @throws Error when the loopback server cannot listen
   */
  async serve(server: string, html: string, csp: string): Promise<ServedApp> {
    let o = this.origins.get(server);
    if (!o) {
      o = OriginServer.start();
      this.origins.set(server, o);
      o.catch(() => this.origins.delete(server));
    }
    const origin = await o;
    const token = randomBytes(16).toString('hex');
    const gzipped = gzipAsync(html);
    // Never an unhandled rejection: a request that finds it failed sends the HTML as it is.
    gzipped.catch(() => undefined);
    origin.docs.set(token, { html, csp, gzipped });
    return { url: `${origin.origin}/app/${token}`, origin: origin.origin, dispose: () => void origin.docs.delete(token) };
  }

  /** How many documents are being served, all origins together (for tests and the log). */
  async served(): Promise<number> {
    let n = 0;
    for (const o of this.origins.values()) n += (await o.catch(() => undefined))?.docs.size ?? 0;
    return n;
  }

  /** Close every origin server (their documents are gone). */
  async close(): Promise<void> {
    const all = [...this.origins.values()];
    this.origins.clear();
    await Promise.all(
      all.map(async (o) => {
        const s = await o.catch(() => undefined);
        if (!s) return;
        s.docs.clear();
        s.server.closeAllConnections();
        await new Promise<void>((resolve) => s.server.close(() => resolve()));
      }),
    );
  }
}
