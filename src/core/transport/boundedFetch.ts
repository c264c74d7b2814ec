/**
 * The HTTP side of "every input from a server is bounded before it is buffered": a `fetch` wrapper
 * for the SDK's Streamable HTTP transport, which reads whole response bodies itself. Composed with
 * the other `fetch` wrappers of the transport in `transports.ts`, and independent of them.
 *
 * - a JSON body is read up to {@link MAX_MESSAGE_BYTES} and checked (`incoming.ts`); a longer or
 *   unreadable one becomes an unreadable answer to the request it answers, which fails at once;
 * - an SSE body goes through `sseGuard.ts` (each event bounded and checked, a stream that ends
 *   without its answer fails the request);
 * - any other body (an error page, a redirect) is read up to {@link MAX_HTTP_ERROR_BODY_BYTES}, to
 *   explain the error, and the rest is not read.
 *
 * Spec: MCP 2026-07-28 "Transports", Streamable HTTP (a POSTed request is answered by a JSON body or
 * an SSE stream).
 */
import { MAX_HTTP_ERROR_BODY_BYTES, MAX_MESSAGE_BYTES, MAX_SSE_RESUMPTIONS } from '../limits';
import { checkIncoming, parseIncoming, unreadableAnswer, type MessageId } from './incoming';
import { sseGuard } from './sseGuard';

/** The `fetch` the SDK's HTTP transport takes. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

const MIB = 1024 * 1024;
/** Decodes whole bodies (not streams), so one serves every call. */
const UTF8 = new TextDecoder();

/** Statuses whose response may not have a body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** What a POSTed body (JSON text, as the SDK sends it) holds: the ids of its requests, and whether they are 2026-07-28 ones. */
function sentRequests(body: unknown): { ids: MessageId[]; modern: boolean } {
  if (typeof body !== 'string') return { ids: [], modern: false };
  try {
    const sent: unknown = JSON.parse(body);
    const requests = (Array.isArray(sent) ? sent : [sent]).filter(
      (m): m is { id: MessageId; params?: { _meta?: Record<string, unknown> } } =>
        typeof m === 'object' &&
        m !== null &&
        'method' in m &&
        (typeof (m as { id?: unknown }).id === 'string' || typeof (m as { id?: unknown }).id === 'number'),
    );
    // The 2026-07-28 envelope names its revision in every request's _meta.
    const version = requests[0]?.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
    return { ids: requests.map((m) => m.id), modern: typeof version === 'string' && version >= '2026-07-28' };
  } catch {
    return { ids: [], modern: false };
  }
}

/**
 * Read a body up to `max` bytes.
 * @returns the bytes, and whether there was more (then the rest was not read)
 */
async function readUpTo(
  body: ReadableStream<Uint8Array>,
  max: number,
  onBytes?: (count: number) => void,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    onBytes?.(value.byteLength);
    if (size + value.byteLength > max) {
      parts.push(value.subarray(0, max - size));
      size = max;
      await reader.cancel().catch(() => {});
      return { bytes: join(parts, size), over: true };
    }
    parts.push(value);
    size += value.byteLength;
  }
  return { bytes: join(parts, size), over: false };
}

function join(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return all;
}

/** `response` with another body (status and headers kept). */
function withBody(response: Response, body: BodyInit | null): Response {
  return new Response(NULL_BODY.has(response.status) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The JSON body to hand the SDK, parsed: the body's own value when every message in it can be read
 * and one answers the request; otherwise unreadable answers for the requests (`ids()`) in place of
 * what could not be read.
 */
function checkedJson(text: string, ids: () => MessageId[], onUnreadable: (reason: string) => void): { value: unknown; own: boolean } {
  const instead = (answers: MessageId[], reason: string) => ({ value: unreadable(answers, reason, onUnreadable), own: false });
  const parsed = parseIncoming(text);
  if (!parsed.ok)
    return instead(
      parsed.answers !== undefined ? [parsed.answers] : ids(),
      parsed.reason === 'it is not valid JSON' ? 'its body is not valid JSON' : parsed.reason,
    );
  const value = parsed.value;
  const messages = Array.isArray(value) ? value : [value];
  let answered = false;
  for (const m of messages) {
    const check = checkIncoming(m);
    if (!check.ok) return instead(check.answers !== undefined ? [check.answers] : ids(), check.reason);
    if (!('method' in (m as object))) answered = true;
  }
  const asked = answered ? [] : ids();
  return asked.length ? instead(asked, 'its body holds no answer to the request') : { value, own: true };
}

function unreadable(ids: MessageId[], reason: string, onUnreadable: (reason: string) => void): unknown {
  onUnreadable(reason);
  return ids.map((id) => unreadableAnswer(id, reason));
}

/**
 * `response`, its JSON body already read and parsed: `json()` gives `value` (the SDK reads it so)
 * instead of parsing it again, `text()` its text (`text`, when it is the value's).
 */
function withJson(response: Response, value: unknown, text?: string): Response {
  Object.defineProperty(response, 'json', { value: () => Promise.resolve(value) });
  Object.defineProperty(response, 'text', { value: () => Promise.resolve(text ?? JSON.stringify(value)) });
  return response;
}

/** What {@link boundedFetch} reports besides the responses. */
export interface BodyHooks {
  /** What could not be read (for the server's diagnostics), a sentence fragment. */
  onUnreadable: (reason: string) => void;
  /** Bytes read from a body. */
  onBytes?: (count: number) => void;
}

/** Wrap `inner` so that no response body is buffered past its bound (see the module comment). */
export function boundedFetch(inner: FetchLike, hooks: BodyHooks): FetchLike {
  const { onUnreadable, onBytes } = hooks;
  /** Resumed streams in a row that brought no message. */
  let emptyResumptions = 0;
  return async (url, init) => {
    // The SDK hands a Headers object: asked as it is, not copied (a copy per request is measurable).
    const headers = init?.headers;
    const resuming = (headers instanceof Headers ? headers : new Headers(headers)).has('last-event-id');
    // 405 is how a server says it offers no stream to resume: the SDK then stops reconnecting.
    if (resuming && emptyResumptions >= MAX_SSE_RESUMPTIONS) {
      onUnreadable(
        `its event stream was resumed ${MAX_SSE_RESUMPTIONS} times in a row without bringing a message (MAX_SSE_RESUMPTIONS); it is not resumed again`,
      );
      emptyResumptions = 0;
      return new Response(null, { status: 405, statusText: 'Not resumed' });
    }
    const response = await inner(url, init);
    const body = response.body;
    if (!body) return response;
    const type = (response.headers.get('content-type') ?? '').split(';', 1)[0].trim().toLowerCase();
    let sent: ReturnType<typeof sentRequests> | undefined;
    const request = () => (sent ??= sentRequests(init?.body));
    if (response.ok && type === 'text/event-stream') {
      const onEnd = (delivered: boolean) => {
        if (delivered) emptyResumptions = 0;
        else if (resuming) emptyResumptions++;
      };
      return withBody(
        response,
        body.pipeThrough(sseGuard({ answers: () => request().ids, resumable: () => !request().modern, onUnreadable, onBytes, onEnd })),
      );
    }
    if (response.ok && type === 'application/json') {
      const ids = () => request().ids;
      const { bytes, over } = await readUpTo(body, MAX_MESSAGE_BYTES, onBytes);
      if (over)
        return withJson(
          response,
          unreadable(ids(), `its body is longer than ${MAX_MESSAGE_BYTES / MIB} MiB (MAX_MESSAGE_BYTES); it was not read`, onUnreadable),
        );
      const text = UTF8.decode(bytes);
      const checked = checkedJson(text, ids, onUnreadable);
      return withJson(response, checked.value, checked.own ? text : undefined);
    }
    const { bytes, over } = await readUpTo(body, MAX_HTTP_ERROR_BODY_BYTES, onBytes);
    const text = UTF8.decode(bytes);
    return withBody(response, over ? `${text} … (cut at ${MAX_HTTP_ERROR_BODY_BYTES / 1024} KiB, MAX_HTTP_ERROR_BODY_BYTES)` : text);
  };
}
