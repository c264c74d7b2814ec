/**
 * The bridge endpoint's TCP connections before they prove who they are: any local process can open
 * them, so a connection without an authenticated request is dropped within a short grace, and the
 * ones still waiting are bounded (the oldest dropped first), so a flood never holds the slots VS Code's
 * own client needs. Without it, 64 idle connections kept VS Code out for 30–45 s, unlogged.
 */
import type { Socket } from 'node:net';

/** How long a new connection may go without an authenticated request, ms. */
export const UNAUTHENTICATED_MS = 2_000;
/** Connections waiting to authenticate at most (past it, the oldest is dropped). */
export const MAX_UNAUTHENTICATED = 32;

/** The connections not yet authenticated, each with the timer that drops it. */
export class ConnectionGate {
  /** In arrival order (a Map keeps insertion order): the first is the oldest. */
  private readonly waiting = new Map<Socket, ReturnType<typeof setTimeout>>();

  /**
   * @param log receives one line per dropped connection (the caller bounds its log)
   * @param graceMs how long a connection may wait ({@link UNAUTHENTICATED_MS})
   * @param maxWaiting connections waiting at most ({@link MAX_UNAUTHENTICATED})
   */
  constructor(
    private readonly log: (line: string) => void,
    private readonly graceMs = UNAUTHENTICATED_MS,
    private readonly maxWaiting = MAX_UNAUTHENTICATED,
  ) {}

  /** A new connection: it must carry an authenticated request within the grace. */
  admit(socket: Socket): void {
    if (this.waiting.size >= this.maxWaiting) {
      const oldest = this.waiting.keys().next().value!;
      this.drop(oldest, `more than ${this.maxWaiting} connections waiting to authenticate`);
    }
    const timer = setTimeout(() => this.drop(socket, `no authenticated request within ${this.graceMs} ms`), this.graceMs);
    timer.unref();
    this.waiting.set(socket, timer);
    socket.once('close', () => this.forget(socket));
  }

  /** A request on `socket` carried the window's token: the connection is kept. */
  authenticated(socket: Socket): void {
    this.forget(socket);
  }

  /** Connections waiting to authenticate now. */
  get size(): number {
    return this.waiting.size;
  }

  /** Drop every waiting connection (the endpoint closes). */
  close(): void {
    for (const socket of [...this.waiting.keys()]) this.forget(socket);
  }

  private forget(socket: Socket): void {
    const timer = this.waiting.get(socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.waiting.delete(socket);
  }

  private drop(socket: Socket, why: string): void {
    this.forget(socket);
    socket.destroy();
    this.log(`dropped a connection: ${why}`);
  }
}
