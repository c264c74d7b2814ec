/**
 * The bridge's `tools/call` requests in flight, by route (the bridged server's path id) and JSON-RPC
 * id, each with the abort controller of its call. The endpoint serves statelessly (a fresh SDK server
 * per request), so a `notifications/cancelled` would reach none of them: it is routed here to the
 * call it names, as is the HTTP request of a running call going away.
 *
 * Spec: MCP 2025-11-25 "Cancellation".
 */
import type { ServerResponse } from 'node:http';
import { isPlainObject } from '../util/json';

/** A JSON-RPC id as a map key (1 and "1" are different ids). */
const idKey = (route: string, id: unknown) => `${route}\u0000${typeof id}:${String(id)}`;

/** The calls in flight (a set per id: a client may reuse an id; a cancel then aborts all). */
export class InFlightCalls {
  private readonly calls = new Map<string, Set<AbortController>>();

  /** Calls in flight (tools/call requests not yet answered). */
  get size(): number {
    let n = 0;
    for (const set of this.calls.values()) n += set.size;
    return n;
  }

  /** The signal of the latest call of `route` with JSON-RPC id `id`, if one is in flight. */
  signalOf(route: string, id: unknown): AbortSignal | undefined {
    return [...(this.calls.get(idKey(route, id)) ?? [])].pop()?.signal;
  }

  /** A `notifications/cancelled` for a call of this route: abort that call. @returns whether it was one */
  cancelled(route: string, message: unknown): boolean {
    if (!isPlainObject(message) || message.method !== 'notifications/cancelled' || 'id' in message) return false;
    const params = isPlainObject(message.params) ? message.params : {};
    const reason = new Error(typeof params.reason === 'string' ? params.reason.slice(0, 200) : 'cancelled by the client');
    for (const c of this.calls.get(idKey(route, params.requestId)) ?? []) c.abort(reason);
    return true;
  }

  /**
   * Remember a `tools/call` in flight, so a cancellation or the request going away (`res` closed
   * before it was answered) aborts it; any other message is not tracked.
   * @returns what to do once it is answered
   */
  track(route: string, message: unknown, res: ServerResponse): () => void {
    if (!isPlainObject(message) || message.method !== 'tools/call' || !('id' in message)) return () => {};
    const key = idKey(route, message.id);
    const controller = new AbortController();
    const calls = this.calls.get(key) ?? new Set();
    this.calls.set(key, calls.add(controller));
    const gone = () => res.writableFinished || controller.abort(new Error('the client closed the request'));
    res.on('close', gone);
    return () => {
      res.off('close', gone);
      calls.delete(controller);
      if (calls.size === 0 && this.calls.get(key) === calls) this.calls.delete(key);
    };
  }

  /** Abort every call in flight (the endpoint closes). */
  abortAll(): void {
    for (const set of this.calls.values()) for (const c of set) c.abort();
  }
}
