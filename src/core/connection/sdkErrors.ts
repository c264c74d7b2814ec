/**
 * SDK and transport failures → {@link HostError}s that name the server and what failed. Pure: every
 * fact it needs (the leg's raw result, the server's last stderr line, what the transport reported
 * lately) comes in as data, so the mapping is tested as a table.
 *
 * Spec: MCP 2026-07-28, "Base protocol" (JSON-RPC errors keep their code) and "Multi Round-Trip
 * Requests" (`resultType` is `complete` or `input_required`; a malformed `input_required` is named
 * precisely, see `inputs/inputRequired.ts`).
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { oneLine } from '../util/shownText';
import { parseInputRequired } from '../inputs/inputRequired';
import { HostError, errorMessage } from '../util/errors';
import { isPlainObject } from '../util/json';
import { unreadableReason } from '../transport/incoming';
import type { LegRecord } from '../transport/legResult';

/** What the mapping may say about the failure besides the error itself. */
export interface FailureContext {
  /** The server's display name. */
  server: string;
  /** What was being done, e.g. `tools/call book_table` or `tools/list`. */
  what: string;
  /** The leg, when a leg failed: its raw result tells the real fault of an invalid one. */
  leg?: LegRecord;
  /** The request's signal: once aborted, its reason (or HostError `cancelled`) is the error. */
  signal?: AbortSignal;
  /** The last line the server wrote on stderr, if any. */
  lastStderr?: string;
  /** The last error the transport reported outside any request, with its time (ms since the epoch). */
  lastUnreadable?: { at: number; message: string };
  /** The current time, ms since the epoch (default `Date.now()`). */
  now?: number;
}

/** How recent a transport report must be to be named as the likely cause of a closed connection (ms). */
export const RECENT_UNREADABLE_MS = 5000;

/** What each HTTP status the host may meet means, and what to do about it. */
const HTTP_STATUS: Record<number, string> = {
  400: 'Bad Request: the server refused the request',
  401: 'Unauthorized: the server needs credentials (give an Authorization header: --header, or "headers" in mcp.json)',
  403: 'Forbidden: the credentials given do not allow this',
  404: 'Not Found: there is no MCP endpoint at this URL; check it',
  405: 'Method Not Allowed: this URL does not take MCP requests; check it is the MCP endpoint',
  406: 'Not Acceptable: the server cannot answer in JSON or an event stream',
  408: 'Request Timeout: the server gave up waiting for the request',
  413: 'Content Too Large: the server refused a request this large',
  415: 'Unsupported Media Type: the server does not take JSON requests',
  429: 'Too Many Requests: the server is limiting requests; try again later',
  500: 'Internal Server Error: the server failed',
  502: 'Bad Gateway: a proxy in front of the server could not reach it',
  503: 'Service Unavailable: the server cannot answer now; try again later',
  504: 'Gateway Timeout: a proxy in front of the server got no answer from it',
};

/** How much of the text a server sent with an HTTP error is quoted, in characters. */
const QUOTED_CHARS = 200;

/** Server text quoted in a message: markup and runs of white space removed, control characters replaced, cut. */
export function quotedText(text: string): string {
  const plain = /^\s*</.test(text) ? text.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ') : text;
  return oneLine(
    plain
      .slice(0, QUOTED_CHARS * 20)
      .replace(/\s+/g, ' ')
      .trim(),
    QUOTED_CHARS,
  );
}

/**
 * An HTTP failure the SDK reported (an `SdkHttpError`: status, status text, the body's text), as
 * "HTTP 401 Unauthorized: ...: <the server's text>"; `undefined` for any other error.
 */
export function httpFailure(e: unknown): string | undefined {
  const data = (e as { data?: unknown } | null)?.data;
  if (!(e instanceof SdkError) || !isPlainObject(data) || typeof data.status !== 'number') return undefined;
  const meaning =
    HTTP_STATUS[data.status] ??
    (typeof data.statusText === 'string' && data.statusText
      ? quotedText(data.statusText)
      : data.status >= 500
        ? 'the server failed'
        : 'the server refused the request');
  const text = typeof data.text === 'string' ? quotedText(data.text) : '';
  return `HTTP ${data.status} ${meaning}${text ? `; the server said: ${text}` : ''}`;
}

/** An SDK error's message without the issue list of a schema failure it may end with, cut. */
function sdkMessage(e: Error): string {
  return oneLine(e.message.replace(/:?\s*\[\s*\{[\s\S]*$/, ''), 300);
}

/** True for the SDK's own schema failure (a zod error): its issue list is never shown, only named. */
function isSchemaFailure(e: unknown): boolean {
  return Array.isArray((e as { issues?: unknown } | null)?.issues);
}

/** A network error's code and what it means, where the cause chain of `e` has one (`fetch failed` says nothing). */
const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there (connection refused)',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name is not known (DNS)',
  EAI_AGAIN: 'the host name could not be looked up (DNS)',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'the connection timed out',
  CERT_HAS_EXPIRED: "the server's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's TLS certificate is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's TLS certificate cannot be verified",
};

/** What a failed start of a stdio server's command means, by its system error code. */
const SPAWN_CODES: Record<string, string> = {
  ENOENT: 'it was not found (check the command and the PATH)',
  EACCES: 'it is not allowed to run (check that the file is executable)',
  ENOTDIR: 'part of its path is a file, not a folder',
  E2BIG: 'its command line and environment are too long',
};

/** Whether a system error's `syscall` is Node's `spawn` (`spawn` or `spawn <command>`): a command that could not start. */
const isSpawnSyscall = (syscall: unknown): syscall is string => typeof syscall === 'string' && syscall.startsWith('spawn');

/**
 * Why a stdio server's command could not be started (Node's `spawn` error: its `syscall` is
 * `spawn <command>`), as a sentence fragment naming the command; undefined for any other error.
 */
export function spawnFailure(e: unknown): string | undefined {
  const { code, syscall, path } = (e ?? {}) as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof code !== 'string' || !isSpawnSyscall(syscall)) return undefined;
  const command = typeof path === 'string' ? path : syscall.slice('spawn'.length).trim();
  const named = command ? `its command ${oneLine(command, 200)}` : 'its command';
  return `${named} could not be started: ${SPAWN_CODES[code] ?? 'the system refused'} (${code})`;
}

/** The network cause of a failed fetch (walked down `cause`, at most 5 deep), as a sentence fragment. */
export function networkFailure(e: unknown): string | undefined {
  let at: unknown = e;
  for (let depth = 0; depth < 5 && at && typeof at === 'object'; depth++, at = (at as { cause?: unknown }).cause) {
    const { code, address, port, syscall } = at as { code?: unknown; address?: unknown; port?: unknown; syscall?: unknown };
    // A system error (it names its syscall) or a TLS one; the SDK's own codes are not the network's,
    // and a command that could not start is not a network error (spawnFailure).
    if (isSpawnSyscall(syscall)) continue;
    if (typeof code !== 'string' || !(code in NETWORK_CODES || typeof syscall === 'string')) continue;
    const where = typeof address === 'string' ? ` at ${address}${typeof port === 'number' ? `:${port}` : ''}` : '';
    return `${NETWORK_CODES[code] ?? 'a network error'} (${code}${where})`;
  }
  // fetch's own refusal (e.g. a port fetch never connects to): its cause says why.
  const cause = e instanceof Error && e.message === 'fetch failed' ? (e.cause as Error | undefined)?.message : undefined;
  return cause ? `the request could not be made: ${oneLine(cause, 200)}` : undefined;
}

/** Why connecting failed, as one sentence fragment (the caller names the server and adds its stderr). */
export function describeConnectFailure(e: unknown): string {
  if (e instanceof HostError) return e.message;
  const spawned = spawnFailure(e);
  if (spawned) return spawned;
  const network = networkFailure(e);
  if (network) return network;
  const unreadable = unreadableReason(e);
  if (unreadable !== undefined) return `its answer to the handshake cannot be read: ${unreadable}`;
  const http = httpFailure(e);
  if (http) return http;
  if (isSchemaFailure(e)) return 'its answer to the handshake is not valid JSON-RPC';
  return oneLine(errorMessage(e), 500);
}

/**
 * Map a failure of a request (`client.request`, `client.listTools`, ...) to a {@link HostError}.
 *
 * - a HostError: unchanged; an aborted `signal`: its reason when a HostError, else `cancelled`;
 * - an unreadable answer (`incoming.ts`): `protocol`, saying what was wrong with it;
 * - `ProtocolError` (a JSON-RPC error answer): `server`, with the code and data;
 * - an HTTP failure: `connection`, with the status, its meaning and the server's text, cut;
 * - `SdkError` `REQUEST_TIMEOUT`: `timeLimit`; `CONNECTION_CLOSED` / `NOT_CONNECTED`: `connection`,
 *   naming the last stderr line and a transport report of the last {@link RECENT_UNREADABLE_MS};
 *   `UNSUPPORTED_RESULT_TYPE`: `protocol` naming the `resultType`; `INVALID_RESULT`: the precise fault
 *   of a malformed `input_required`, else `protocol`; any other code: `protocol` with the code;
 * - anything else (a transport error): `connection`.
 */
export function mapSdkError(e: unknown, ctx: FailureContext): HostError {
  if (e instanceof HostError) return e;
  const { server, what, leg, signal } = ctx;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof HostError ? reason : new HostError('cancelled', `${what} on ${server} was cancelled`);
  }
  const unreadable = unreadableReason(e);
  if (unreadable !== undefined)
    return new HostError('protocol', `${server} sent an answer to ${what} that the host cannot read: ${unreadable}`);
  if (e instanceof ProtocolError) {
    return new HostError(
      'server',
      `${server} answered ${what} with error ${e.code}: ${oneLine(e.message, 1000)}`,
      e.code,
      (e as { data?: unknown }).data,
    );
  }
  const http = httpFailure(e);
  if (http) return new HostError('connection', `${what} on ${server} failed: ${http}`);
  if (isSchemaFailure(e)) return new HostError('protocol', `${server} sent an answer to ${what} that is not valid JSON-RPC`);
  if (!(e instanceof SdkError)) return new HostError('connection', `${what} on ${server} failed: ${oneLine(errorMessage(e), 500)}`);
  switch (e.code) {
    case SdkErrorCode.RequestTimeout:
      return new HostError('timeLimit', `${what} on ${server} timed out`);
    case SdkErrorCode.ConnectionClosed:
    case SdkErrorCode.NotConnected: {
      // The host's side may have closed it: e.g. a message over the stdio limit (10 MiB) ends the transport.
      const u = ctx.lastUnreadable;
      const cause =
        u && (ctx.now ?? Date.now()) - u.at < RECENT_UNREADABLE_MS
          ? `; just before, the transport reported: ${u.message.replace(/\s+/g, ' ').slice(0, 300)}`
          : '';
      return new HostError(
        'connection',
        `${server} closed the connection during ${what}${ctx.lastStderr !== undefined ? ` (last stderr: ${ctx.lastStderr})` : ''}${cause}`,
      );
    }
    case SdkErrorCode.UnsupportedResultType: {
      const rt = (leg?.rawResult as { resultType?: unknown } | undefined)?.resultType;
      return new HostError(
        'protocol',
        `${server} answered ${what} with an unknown resultType ${JSON.stringify(rt ?? '?')} (expected "complete" or "input_required")`,
      );
    }
    case SdkErrorCode.InvalidResult: {
      // The SDK reports several distinct faults of input_required with one message: name the real one.
      const raw = leg?.rawResult as { resultType?: unknown } | undefined;
      if (raw?.resultType === 'input_required') {
        try {
          parseInputRequired(raw, what);
        } catch (precise) {
          if (precise instanceof HostError) return precise;
        }
      }
      return new HostError('protocol', `${server} sent an invalid result for ${what}: ${sdkMessage(e)}`);
    }
    default:
      return new HostError('protocol', `${what} on ${server} failed (${e.code}): ${sdkMessage(e)}`);
  }
}

/**
 * Map a failure of a list request (`tools/list`, ...): an `input_required` answer is a protocol
 * error of its own (spec: only `tools/call`, `prompts/get` and `resources/read` may answer it);
 * anything else as {@link mapSdkError}.
 */
export function mapListError(e: unknown, ctx: FailureContext): HostError {
  if (e instanceof SdkError && e.code === SdkErrorCode.UnsupportedResultType && /input_required/.test(e.message)) {
    return new HostError(
      'protocol',
      `${ctx.server} answered ${ctx.what} with input_required, which only tools/call, prompts/get and resources/read may do`,
    );
  }
  return mapSdkError(e, ctx);
}
