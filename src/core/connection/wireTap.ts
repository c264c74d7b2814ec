/**
 * A transparent wrapper around an SDK transport that lets the host see its own wire:
 * which JSON-RPC id each MRTR leg got, the raw result the server sent for it, and every message
 * (for the debug log). It changes nothing on the way out; on the way in it only fills an absent
 * `resultType` on a tracked leg (spec: absent means `complete`), and records that it did.
 *
 * Why a wrapper and not SDK internals: the SDK exposes no per-leg hook, and `Protocol.request()`
 * calls `transport.send()` synchronously, so arming a leg just before `request()` ties the leg to
 * its id without races (JS is single-threaded). For a tracked leg's complete result the SDK only
 * sees a minimal stand-in; the raw result recorded here is what the host checks and renders.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { MAX_INPUT_REQUESTS_PER_ROUND } from '../limits';
import { ForwardingTransport, type MessageExtra } from './forwardingTransport';
import { isPlainObject } from '../util/json';

/** What the host learns about one leg from the wire. */
export interface LegRecord {
  /** The method the leg is expected to send. */
  method: string;
  /** The JSON-RPC id the SDK gave the leg, once sent. */
  id?: string | number;
  /** The params exactly as written to the transport (after the SDK added `_meta`). */
  sentParams?: Record<string, unknown>;
  /** The raw `result` member received (before any SDK validation), if any. */
  rawResult?: unknown;
  /** The raw `error` member received, if any. */
  rawError?: { code: number; message: string; data?: unknown };
  /** True when the server omitted `resultType` and the tap filled in `complete`. */
  resultTypeMissing?: boolean;
  /**
   * Called at once when an `input_required` result for the leg arrives on a modern connection; the
   * SDK then sees that result on the next turn of the event loop.
   */
  onInputRequired?: () => void;
}

/**
 * Minimal valid complete results per tracked method (what the SDK sees of a complete result): the
 * MRTR methods, and the lists (the host checks their pages itself, within its bounds).
 */
const STAND_IN: Record<string, Record<string, unknown>> = {
  'tools/call': { content: [] },
  'prompts/get': { messages: [] },
  'resources/read': { contents: [], ttlMs: 0, cacheScope: 'private' },
  'tools/list': { tools: [], ttlMs: 0, cacheScope: 'private' },
  'prompts/list': { prompts: [], ttlMs: 0, cacheScope: 'private' },
  'resources/list': { resources: [], ttlMs: 0, cacheScope: 'private' },
  'resources/templates/list': { resourceTemplates: [], ttlMs: 0, cacheScope: 'private' },
};

/** Direction-tagged message observer for debug logging. */
export type WireObserver = (direction: 'out' | 'in', message: JSONRPCMessage) => void;

/**
 * Wraps `inner` ({@link ForwardingTransport}: the SDK still sees a stdio transport as stdio and an
 * HTTP one as HTTP, and probes in place, so a stdio server is spawned once).
 */
export class WireTap extends ForwardingTransport {
  private armed?: LegRecord;
  private readonly legs = new Map<string | number, LegRecord>();
  /** Ids of the requests the server sent that are not answered yet (2025-era pushes). */
  private readonly asked = new Set<string | number>();
  /** Refusals being written (a server flooding faster than it reads gets no more of them). */
  private refusing = 0;
  /** Messages the SDK is still to see, in order (the input_required results handed on first, see {@link receive}). */
  private readonly deferred: (() => void)[] = [];

  /**
   * @param inner the real transport
   * @param options.fillResultType whether to fill an absent `resultType` on tracked legs
   *   (true on a modern connection, where the SDK would reject it; legacy results have none by design)
   * @param options.observe called for every message in both directions
   * @param options.onRefused a request of the server refused here (too many at once), as a sentence
   */
  constructor(
    inner: Transport,
    private readonly options: { fillResultType: () => boolean; observe?: WireObserver; onRefused?: (what: string) => void },
  ) {
    super(inner);
    // The SDK sees what was held back before it learns that the connection closed.
    const closed = inner.onclose;
    inner.onclose = () => {
      this.flushDeferred();
      closed?.();
    };
  }

  /**
   * Hand the SDK the messages held back (at once, in order): before anything else reaches it, and
   * when the call of a held-back leg is cancelled (the SDK would otherwise cancel a request that
   * already has its answer).
   */
  flushDeferred(): void {
    if (this.deferred.length === 0) return;
    for (const deliver of this.deferred.splice(0)) deliver();
  }

  override close(): Promise<void> {
    this.flushDeferred();
    return super.close();
  }

  /**
   * Tie the next outgoing request with `leg.method` to `leg`. Call immediately before `request()`;
   * call {@link disarm} right after it returns its promise.
   */
  arm(leg: LegRecord): void {
    this.armed = leg;
  }

  /** Clear an armed leg that was not sent (e.g. `request()` threw synchronously). */
  disarm(leg: LegRecord): void {
    if (this.armed === leg) this.armed = undefined;
  }

  /**
   * Admit a request of the server unless {@link MAX_INPUT_REQUESTS_PER_ROUND} are being answered
   * already: then it is refused here with a JSON-RPC error, before the SDK spends anything on it (a
   * 2025-era server pushing thousands of requests at once cannot make the host hold them all). While
   * as many refusals wait to be written, further ones are dropped unanswered.
   */
  private admit(id: string | number, method: string): boolean {
    if (this.asked.size < MAX_INPUT_REQUESTS_PER_ROUND) {
      this.asked.add(id);
      return true;
    }
    const why = `more than ${MAX_INPUT_REQUESTS_PER_ROUND} requests at once (MAX_INPUT_REQUESTS_PER_ROUND)`;
    this.options.onRefused?.(`sent ${why}: ${method.slice(0, 80)} refused`);
    if (this.refusing < MAX_INPUT_REQUESTS_PER_ROUND) {
      this.refusing++;
      void super
        .send({ jsonrpc: '2.0', id, error: { code: -32603, message: `refused: the host answers at most ${MAX_INPUT_REQUESTS_PER_ROUND} requests of a server at once` } } as JSONRPCMessage)
        .catch(() => {})
        .finally(() => this.refusing--);
    }
    return false;
  }

  /** Forget a leg (its response arrived, or it was abandoned). */
  release(leg: LegRecord): void {
    if (leg.id !== undefined && this.legs.get(leg.id) === leg) this.legs.delete(leg.id);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.asked.size && !('method' in message) && 'id' in message && message.id !== undefined && this.asked.has(message.id)) {
      // A request of the server counts until its answer is written (a server that reads slowly keeps it counted).
      const id = message.id;
      this.options.observe?.('out', message);
      return super.send(message, options).finally(() => this.asked.delete(id));
    }
    const armed = this.armed;
    if (armed && 'method' in message && 'id' in message && message.method === armed.method) {
      armed.id = message.id;
      armed.sentParams = message.params as Record<string, unknown> | undefined;
      this.legs.set(message.id, armed);
      this.armed = undefined;
    }
    this.options.observe?.('out', message);
    return super.send(message, options);
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtra): void {
    this.options.observe?.('in', message);
    // Nothing overtakes a message held back.
    this.flushDeferred();
    if ('method' in message && 'id' in message && message.id !== undefined && !this.admit(message.id, message.method)) return;
    let inputRequired: LegRecord | undefined;
    if (!('method' in message) && 'id' in message && message.id !== undefined && message.id !== null) {
      // The SDK matches a response to its request by Number(id) ("0" answers request 0): so does the tap,
      // or the two would disagree on which leg an answer belongs to.
      const leg = this.legs.get(typeof message.id === 'number' ? message.id : Number(message.id));
      if (leg) {
        this.legs.delete(leg.id!);
        if ('result' in message) {
          leg.rawResult = message.result;
          const r = message.result;
          const isObject = isPlainObject(r);
          const missing = isObject && !('resultType' in r);
          if (missing && this.options.fillResultType()) leg.resultTypeMissing = true;
          if (isObject && r.resultType === 'input_required' && this.options.fillResultType()) inputRequired = leg;
          // A complete result is the host's to check and render (the raw value above is what the
          // host uses). The SDK gets a minimal valid stand-in so that one unknown content block
          // cannot fail the whole call (docs/field-cases.md, F12). input_required and unknown resultTypes
          // pass through untouched: those are the SDK's to decode or refuse.
          if (isObject && (r.resultType === 'complete' || missing)) {
            const withType = r.resultType === 'complete' || leg.resultTypeMissing ? { resultType: 'complete' } : {};
            message = { ...message, result: { ...withType, ...STAND_IN[leg.method] } } as JSONRPCMessage;
          }
        } else if ('error' in message) {
          leg.rawError = message.error as LegRecord['rawError'];
        }
      }
    }
    const handOn = inputRequired?.onInputRequired;
    if (handOn) {
      // The leg goes on at once with the raw result; the SDK settles its own request (decode,
      // clean-up) on the next turn of the event loop, after the retry is written: its work is not
      // on the round's latency (measured against the SDK's own driver, test/bench).
      handOn();
      // One turn of the event loop hands on everything held back since the last one.
      if (this.deferred.push(() => super.receive(message, extra)) === 1) setImmediate(() => this.flushDeferred());
      return;
    }
    super.receive(message, extra);
  }
}
