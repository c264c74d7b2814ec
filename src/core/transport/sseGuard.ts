/**
 * The host's reading of a server-sent event stream that answers one POSTed request (Streamable
 * HTTP), between the network and the SDK: each event is bounded by {@link MAX_MESSAGE_BYTES} before
 * it is buffered, each message is checked (`incoming.ts`), and a stream that ends without the answer
 * ends the request at once instead of leaving it to wait for its time limit. The SDK then reads a
 * clean stream: the events that passed, as they were sent, and an unreadable answer in place of
 * what could not be read.
 *
 * Spec: MCP 2026-07-28 "Transports", Streamable HTTP (a POST may be answered with an SSE stream
 * carrying notifications, requests, and then the response); the SSE format of the HTML standard.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { MAX_MESSAGE_BYTES } from '../limits';
import { checkIncoming, parseIncoming, unreadableAnswer, type MessageId } from './incoming';

const MIB = 1024 * 1024;

/** What the guard reports besides the stream itself. */
export interface SseGuardOptions {
  /** The ids of the requests the stream answers (`undefined`: a stream that answers none, e.g. a GET). */
  answers?: () => MessageId[];
  /**
   * Whether a stream that ends without the answer may be resumed from its last event id (2025-era
   * requests); a 2026-07-28 one cannot (that revision has no resumption), so its end fails the request.
   */
  resumable?: () => boolean;
  /** The stream ended; `delivered` tells whether it brought any message. */
  onEnd?: (delivered: boolean) => void;
  /** A message that could not be read (for the server's diagnostics), as a sentence fragment. */
  onUnreadable: (reason: string) => void;
  /** Bytes read from the stream. */
  onBytes?: (count: number) => void;
}

/** An SSE event as text the SDK parses. */
function serialize(e: EventSourceMessage): string {
  const head = `${e.event ? `event: ${e.event}\n` : ''}${e.id !== undefined ? `id: ${e.id}\n` : ''}`;
  return `${head}${e.data
    .split('\n')
    .map((l) => `data: ${l}\n`)
    .join('')}\n`;
}

/**
 * A transform from the bytes of a response's SSE body to the bytes the SDK reads.
 *
 * - An event over {@link MAX_MESSAGE_BYTES}: the stream stops there (the rest is not read) and the
 *   requests it answers fail with an unreadable answer naming the limit.
 * - A message event that cannot be read: an unreadable answer for the request it answers, or, when
 *   it answers none, dropped (and reported).
 * - The end of the stream with no answer and nothing to resume from (no event id, or a 2026-07-28
 *   request): an unreadable answer for each request it answers.
 */
export function sseGuard(options: SseGuardOptions): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let out: TransformStreamDefaultController<Uint8Array> | undefined;
  let answered = false;
  let delivered = false;
  let withId = false;
  let sinceEvent = 0;
  let lastReason: string | undefined;
  let overflowed = false;
  const emit = (text: string) => out?.enqueue(encoder.encode(text));
  const failAll = (reason: string) => {
    for (const id of options.answers?.() ?? []) emit(serialize({ data: JSON.stringify(unreadableAnswer(id, reason)) }));
    answered = true;
  };
  const parser = createParser({
    // A backstop in characters; the bound in bytes is counted below.
    maxBufferSize: MAX_MESSAGE_BYTES,
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') overflowed = true;
    },
    onRetry: (ms) => emit(`retry: ${ms}\n\n`),
    onEvent: (e) => {
      sinceEvent = 0;
      if (e.id) withId = true;
      // Other event types, and events without data (a priming event: its id is what a resumed stream starts from).
      if ((e.event && e.event !== 'message') || e.data.trim() === '') return emit(serialize(e));
      const parsed = parseIncoming(e.data);
      const value = parsed.ok ? parsed.value : undefined;
      const check = parsed.ok ? checkIncoming(value) : parsed;
      if (check.ok) {
        delivered = true;
        if (!('method' in (value as object))) answered = true;
        return emit(serialize(e));
      }
      lastReason = check.reason;
      options.onUnreadable(`an event of its stream: ${check.reason}`);
      if ('answers' in check && check.answers !== undefined) {
        answered = true;
        emit(serialize({ id: e.id, data: JSON.stringify(unreadableAnswer(check.answers, check.reason)) }));
      }
    },
  });
  const tooLong = `an event of its stream is longer than ${MAX_MESSAGE_BYTES / MIB} MiB (MAX_MESSAGE_BYTES); the stream was not read further`;
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      out = controller;
      options.onBytes?.(chunk.byteLength);
      sinceEvent += chunk.byteLength;
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (overflowed || sinceEvent > MAX_MESSAGE_BYTES) {
        options.onUnreadable(tooLong);
        failAll(tooLong);
        controller.terminate();
      }
    },
    flush(controller) {
      out = controller;
      options.onEnd?.(delivered);
      if (answered || (withId && (options.resumable?.() ?? true))) return;
      const reason = `the event stream ended without the answer${lastReason ? ` (an event could not be read: ${lastReason})` : ''}`;
      failAll(reason);
    },
  });
}
