/**
 * The one-shot loopback listener the browser comes back to after a sign-in: `http://127.0.0.1:<port>/callback`.
 * It takes the first request to the callback path whose `state` is the one of the authorization URL
 * it sent the browser to ({@link CallbackListener.startAt}) and whose `Host` is this listener (or the
 * redirect URI's, when a remote window forwards the port); any
 * other callback is answered 400 and ignored (a local process or a web page guessing cannot end the
 * sign-in in progress), other paths 404. It answers the browser with a short page once the sign-in has
 * finished (or after a few seconds), and closes.
 *
 * Spec: RFC 8252 §7.3 (loopback redirect for native apps); MCP 2026-07-28 "Authorization" (redirect
 * URIs on localhost or https).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostError } from '../util/errors';
import { CALLBACK_PATH } from './oauthSettings';

/** The path that redirects the browser to the authorization URL ({@link CallbackListener.startAt}). */
export const START_PATH = '/start';

/** How long the browser's request is held for the sign-in's outcome before a neutral page is sent (ms). */
const REPLY_WAIT_MS = 15_000;

/** A bound listener. */
export interface CallbackListener {
  /** `http://127.0.0.1:<port>/callback`. */
  readonly url: URL;
  /** The query of the first callback request. */
  readonly callback: Promise<URLSearchParams>;
  /**
   * Serve `GET /start` as a redirect to `target` (the authorization URL): a browser opened on the
   * short start URL arrives at the exact bytes of `target`, whatever the opener does to query strings.
   */
  startAt(target: URL): void;
  /** Tell the waiting browser how the sign-in ended (the page it shows). */
  reply(ok: boolean, text: string): void;
  close(): Promise<void>;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) return;
  const body = `<!doctype html><meta charset="utf-8"><title>MCP Roundtrip</title><body style="font-family:sans-serif;margin:3em"><h1>MCP Roundtrip</h1><p>${escapeHtml(text)}</p></body>`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(body);
}

/**
 * The `Host` values a callback may carry: this listener's own, and the host of the redirect URI the
 * authorization URL `start` names (a remote window's forwarded port, e.g. code-server's proxy).
 */
function hostsServed(start: URL | undefined, port: number): string[] {
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  const redirect = start?.searchParams.get('redirect_uri');
  if (!redirect) return own;
  try {
    return [...own, new URL(redirect).host];
  } catch {
    return own;
  }
}

/**
 * Bind the listener on 127.0.0.1 (`port` 0: any free port).
 * @throws HostError `auth` when the port cannot be bound (its `code` says `EADDRINUSE` when it is taken)
 */
export async function listenForCallback(port: number): Promise<CallbackListener> {
  let resolveCallback!: (p: URLSearchParams) => void;
  const callback = new Promise<URLSearchParams>((resolve) => (resolveCallback = resolve));
  let waiting: ServerResponse | undefined;
  let replyTimer: NodeJS.Timeout | undefined;
  let done = false;
  let start: URL | undefined;
  /** The port bound (known once listening; `port` may be 0). */
  let bound = 0;
  const reply = (ok: boolean, text: string) => {
    if (replyTimer) clearTimeout(replyTimer);
    if (waiting) page(waiting, ok ? 200 : 400, text);
    waiting = undefined;
  };
  // Loaded here, not with the module: node:http is a few ms of every CLI start, and only a sign-in
  // listens. `require`, not `import()`: the CLI's bundle runs in a vm.Script on Node < 22.1
  // (compileCache.ts), where a dynamic import throws.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createServer } = require('node:http') as typeof import('node:http');
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const params = url.searchParams;
    if (req.method === 'GET' && url.pathname === START_PATH && start) {
      res.writeHead(302, { Location: start.href, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
      return res.end();
    }
    const isCallback =
      req.method === 'GET' && url.pathname === CALLBACK_PATH && (params.has('code') || params.has('error') || params.has('state'));
    if (!isCallback) return page(res, 404, 'This is not a sign-in callback.');
    if (!hostsServed(start, bound).includes(req.headers.host ?? ''))
      return page(res, 400, 'This request was not addressed to this sign-in listener.');
    const expected = start?.searchParams.get('state');
    if (!expected || params.get('state') !== expected)
      return page(res, 400, 'This response does not belong to the sign-in in progress; it was ignored.');
    if (done) return page(res, 409, 'This sign-in has already been answered. You can close this tab.');
    done = true;
    waiting = res;
    replyTimer = setTimeout(() => reply(true, 'The sign-in response was received. You can close this tab.'), REPLY_WAIT_MS);
    resolveCallback(new URLSearchParams(params));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      const taken = e.code === 'EADDRINUSE';
      reject(
        Object.assign(
          new HostError(
            'auth',
            taken
              ? `the sign-in callback port ${port} on 127.0.0.1 is in use by another program`
              : `could not listen for the sign-in callback on 127.0.0.1:${port}: ${e.message}`,
          ),
          { errno: e.code },
        ),
      );
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: new URL(`http://127.0.0.1:${bound}${CALLBACK_PATH}`),
    callback,
    reply,
    startAt: (target) => (start = target),
    close: async () => {
      reply(true, 'The sign-in has ended. You can close this tab.');
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
