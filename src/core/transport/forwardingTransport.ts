/**
 * A transport that hands everything to an inner one: the base of the transparent wrappers that watch
 * the wire (`WireTap`; the benchmark's timing transport). Subclasses see each message by overriding
 * {@link send} and {@link receive}.
 *
 * It exposes `stderr`/`pid` only when the inner transport has them, as own properties: the SDK tells
 * stdio from HTTP by `'stderr' in transport`, so a stdio transport stays stdio to it (probe timeouts
 * then mean "2025-era server") and an HTTP one stays HTTP (on HTTP it excludes tools with invalid
 * `x-mcp-header` declarations and reads probe timeouts as errors). Not being the SDK's own stdio
 * class, it makes the SDK probe in place: one process per connection, never a probe sibling.
 */
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

/** What a transport hands up with a message (the SDK's `onmessage` second argument). */
export type MessageExtra = Parameters<NonNullable<Transport['onmessage']>>[1];

/** Forwards every call and message between the SDK and `inner`, unchanged. */
export class ForwardingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** True once the inner transport closed without being asked to (the server went away). */
  closedByPeer = false;
  private closing = false;

  /** @param inner the real transport */
  constructor(readonly inner: Transport) {
    inner.onclose = () => {
      if (!this.closing) this.closedByPeer = true;
      this.onclose?.();
    };
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (message, extra) => this.receive(message, extra);
    // Own properties, and only when the inner transport has them: class getters would make `'stderr' in
    // wrapper` true for every transport, and the SDK would treat an HTTP server as a stdio one.
    for (const key of ['stderr', 'pid'] as const) {
      if (key in inner)
        Object.defineProperty(this, key, { get: () => (inner as unknown as Record<string, unknown>)[key], enumerable: true });
    }
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }
  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }
  get setProtocolVersion(): ((version: string) => void) | undefined {
    return this.inner.setProtocolVersion?.bind(this.inner);
  }
  get setSupportedProtocolVersions(): ((versions: string[]) => void) | undefined {
    return this.inner.setSupportedProtocolVersions?.bind(this.inner);
  }

  start(): Promise<void> {
    return this.inner.start();
  }
  close(): Promise<void> {
    this.closing = true;
    return this.inner.close();
  }

  /** A message going out: written by the inner transport. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  /** A message coming in from the inner transport: handed up. */
  protected receive(message: JSONRPCMessage, extra?: MessageExtra): void {
    this.onmessage?.(message, extra);
  }
}
