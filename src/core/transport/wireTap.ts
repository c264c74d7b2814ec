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
 * Its parts: the recording of a leg's result and its stand-in (`legResult.ts`), and the admission
 * of the server's own requests, refused past a bound (`requestAdmission.ts`).
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { ForwardingTransport, type MessageExtra } from './forwardingTransport';
import { HAND_ON, recordResult, type LegRecord } from './legResult';
import { RequestAdmission } from './requestAdmission';

/** Direction-tagged message observer for debug logging. */
export type WireObserver = (direction: 'out' | 'in', message: JSONRPCMessage) => void;

/**
 * Wraps `inner` ({@link ForwardingTransport}: the SDK still sees a stdio transport as stdio and an
 * HTTP one as HTTP, and probes in place, so a stdio server is spawned once).
 */
export class WireTap extends ForwardingTransport {
  private armed?: LegRecord;
  private readonly legs = new Map<string | number, LegRecord>();
  /** The requests the server sent, admitted up to a bound (`requestAdmission.ts`). */
  private readonly admission: RequestAdmission;
  /** Messages the SDK is still to see, in order (the input_required results handed on first, see {@link receive}). */
  private readonly deferred: (() => void)[] = [];
  /** True from a notification handed to the SDK until the microtasks queued with it have run. */
  private notificationQueued = false;

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
    this.admission = new RequestAdmission((message) => super.send(message), options.onRefused);
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

  /** Forget a leg (its response arrived, or it was abandoned). */
  release(leg: LegRecord): void {
    if (leg.id !== undefined && this.legs.get(leg.id) === leg) this.legs.delete(leg.id);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answered = this.admission.answered(message);
    if (answered !== undefined) {
      // A request of the server counts until its answer is written (a server that reads slowly keeps it counted).
      this.options.observe?.('out', message);
      return super.send(message, options).finally(() => this.admission.written(answered));
    }
    const armed = this.armed;
    if (armed && 'method' in message && 'id' in message && message.method === armed.method) {
      armed.id = message.id;
      armed.sentParams = message.params;
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
    if ('method' in message && 'id' in message && message.id !== undefined && !this.admission.admit(message.id, message.method)) return;
    let inputRequired: LegRecord | undefined;
    if (!('method' in message) && 'id' in message && message.id !== undefined && message.id !== null) {
      // The SDK matches a response to its request by Number(id) ("0" answers request 0): so does the tap,
      // or the two would disagree on which leg an answer belongs to.
      const leg = this.legs.get(typeof message.id === 'number' ? message.id : Number(message.id));
      if (leg) {
        this.legs.delete(leg.id!);
        if ('result' in message) {
          // The raw result is what the host uses; the SDK sees a stand-in of a complete one (`legResult.ts`).
          const seen = recordResult(leg, message.result, this.options.fillResultType);
          if (seen === HAND_ON) inputRequired = leg;
          else if (seen) message = { ...message, result: seen };
        } else if ('error' in message) {
          leg.rawError = message.error;
        }
      }
    }
    const handOn = inputRequired?.onInputRequired;
    if (handOn) {
      // The leg goes on at once with the raw result; the SDK settles its own request (decode,
      // clean-up) on the next turn of the event loop, after the retry is written: its work is not
      // on the hot path (docs/architecture.md).
      handOn();
      // One turn of the event loop hands on everything held back since the last one.
      if (this.deferred.push(() => super.receive(message, extra)) === 1) setImmediate(() => this.flushDeferred());
      return;
    }
    if (this.notificationQueued && !('method' in message)) {
      // The SDK runs a notification's handler a microtask later but settles a response at once, dropping
      // its request's progress handler: a response read in the same turn as a notification waits for it.
      if (this.deferred.push(() => super.receive(message, extra)) === 1) queueMicrotask(() => this.flushDeferred());
      return;
    }
    super.receive(message, extra);
    if ('method' in message && !('id' in message) && !this.notificationQueued) {
      this.notificationQueued = true;
      queueMicrotask(() => (this.notificationQueued = false));
    }
  }
}
