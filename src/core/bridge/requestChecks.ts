/**
 * What a request to the bridge's loopback endpoint must pass before anything serves it: the caller
 * (`Host` is the listener itself, a present `Origin` is its own, the window's bearer token compared in
 * constant time), then a body bounded in size and in nesting.
 *
 * Spec: MCP 2025-11-25 "Transports" (Streamable HTTP, security warning: validate Origin, bind to
 * localhost, authenticate).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Why a request is refused: the HTTP status and the message of its JSON-RPC error. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * Host, Origin and token, checked before the path is even looked at.
 * @param port the listener's port (`127.0.0.1:<port>` and `localhost:<port>` are its own)
 * @param token the window's token, `undefined` before one was minted (everything is refused then)
 * @returns the refusal (403 for Host or Origin, 401 for the token), or `undefined` when the caller may go on
 */
export function callerRefusal(req: IncomingMessage, port: number, token: Buffer | undefined): Refusal | undefined {
  const own = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!own.includes((req.headers.host ?? '').toLowerCase()))
    return { status: 403, message: `Host ${JSON.stringify(req.headers.host ?? '')?.slice(0, 80)} is not this endpoint` };
  const origin = req.headers.origin;
  if (origin !== undefined && !own.some((h) => origin.toLowerCase() === `http://${h}`))
    return { status: 403, message: `Origin ${JSON.stringify(origin).slice(0, 80)} may not call this endpoint` };
  if (!token) return { status: 401, message: 'no token has been issued yet' };
  const auth = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!auth) return { status: 401, message: 'missing bearer token' };
  if (!sameSecret(Buffer.from(auth[1]), token)) return { status: 401, message: 'wrong bearer token' };
  return undefined;
}

/**
 * The body, at most `maxBytes` (a larger declared `Content-Length` is refused before anything is read).
 * @param refuse answers the request (413) the moment it is known to be too large
 * @returns the body; `undefined` when it was too large (already answered) or the request broke
 */
export function readBoundedBody(req: IncomingMessage, maxBytes: number, refuse: (r: Refusal) => undefined): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > maxBytes)
    return Promise.resolve(refuse({ status: 413, message: `the body (${declared} bytes) is over the limit of ${maxBytes} bytes` }));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        resolve(refuse({ status: 413, message: `the body is over the limit of ${maxBytes} bytes` }));
      } else chunks.push(chunk);
    });
    req.on('end', () => size <= maxBytes && resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(undefined));
  });
}

/** The deepest nesting of `[` and `{` in JSON text (outside strings), read in one pass without recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** Constant-time comparison of two secrets of any length (their digests are compared). */
function sameSecret(a: Buffer, b: Buffer): boolean {
  const digest = (x: Buffer) => createHash('sha256').update(x).digest();
  return timingSafeEqual(digest(a), digest(b));
}
