/**
 * SDK and transport failures → {@link HostError}s that name the server and what failed. Pure: every
 * fact it needs (the leg's raw result, the server's last stderr line, what the transport reported
 * lately) comes in as data, so the mapping is tested as a table.
 *
 * Spec: MCP 2026-07-28, "Base protocol" (JSON-RPC errors keep their code) and "Multi Round-Trip
 * Requests" (`resultType` is `complete` or `input_required`; a malformed `input_required` is named
 * precisely, see `mrtr/inputRequired.ts`).
 */
import { ProtocolError, SdkError } from '@modelcontextprotocol/client';
import { parseInputRequired } from '../mrtr/inputRequired';
import { HostError, errorMessage } from '../util/errors';
import type { LegRecord } from './wireTap';

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

/**
 * Map a failure of a request (`client.request`, `client.listTools`, ...) to a {@link HostError}.
 *
 * - a HostError: unchanged; an aborted `signal`: its reason when a HostError, else `cancelled`;
 * - `ProtocolError` (a JSON-RPC error answer): `server`, with the code and data;
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
    const reason = signal.reason;
    return reason instanceof HostError ? reason : new HostError('cancelled', `${what} on ${server} was cancelled`);
  }
  if (e instanceof ProtocolError) {
    return new HostError('server', `${server} answered ${what} with error ${e.code}: ${e.message}`, e.code, (e as { data?: unknown }).data);
  }
  if (!(e instanceof SdkError)) return new HostError('connection', `${what} on ${server} failed: ${errorMessage(e)}`);
  switch (e.code) {
    case 'REQUEST_TIMEOUT':
      return new HostError('timeLimit', `${what} on ${server} timed out`);
    case 'CONNECTION_CLOSED':
    case 'NOT_CONNECTED': {
      // The host's side may have closed it: e.g. a message over the stdio limit (10 MiB) ends the transport.
      const u = ctx.lastUnreadable;
      const cause = u && (ctx.now ?? Date.now()) - u.at < RECENT_UNREADABLE_MS ? `; just before, the transport reported: ${u.message.replace(/\s+/g, ' ').slice(0, 300)}` : '';
      return new HostError('connection', `${server} closed the connection during ${what}${ctx.lastStderr !== undefined ? ` (last stderr: ${ctx.lastStderr})` : ''}${cause}`);
    }
    case 'UNSUPPORTED_RESULT_TYPE': {
      const rt = (leg?.rawResult as { resultType?: unknown } | undefined)?.resultType;
      return new HostError('protocol', `${server} answered ${what} with an unknown resultType ${JSON.stringify(rt ?? '?')} (expected "complete" or "input_required")`);
    }
    case 'INVALID_RESULT': {
      // The SDK reports several distinct faults of input_required with one message: name the real one.
      const raw = leg?.rawResult as { resultType?: unknown } | undefined;
      if (raw?.resultType === 'input_required') {
        try {
          parseInputRequired(raw, what);
        } catch (precise) {
          if (precise instanceof HostError) return precise;
        }
      }
      return new HostError('protocol', `${server} sent an invalid result for ${what}: ${e.message}`);
    }
    default:
      return new HostError('protocol', `${what} on ${server} failed (${e.code}): ${e.message}`);
  }
}

/**
 * Map a failure of a list request (`tools/list`, ...): an `input_required` answer is a protocol
 * error of its own (spec: only `tools/call`, `prompts/get` and `resources/read` may answer it);
 * anything else as {@link mapSdkError}.
 */
export function mapListError(e: unknown, ctx: FailureContext): HostError {
  if (e instanceof SdkError && e.code === 'UNSUPPORTED_RESULT_TYPE' && /input_required/.test(e.message)) {
    return new HostError('protocol', `${ctx.server} answered ${ctx.what} with input_required, which only tools/call, prompts/get and resources/read may do`);
  }
  return mapSdkError(e, ctx);
}
