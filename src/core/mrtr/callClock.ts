/**
 * The time accounting of one MRTR call. The call's time limit counts only active time, never the
 * time a person spends answering; each leg is bounded by the smaller of the leg limit and the active
 * time left; and a time-limit error says which limit it was and what the server sent meanwhile that
 * the host could not read.
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests": the host bounds the loop and says why it stopped.
 */
import { HostError } from '../util/errors';

/** What the clock reads of the connection: the server's name and its last unreadable message. */
export interface ClockConnection {
  readonly name: string;
  readonly lastUnreadable?: { at: number; message: string };
}

/** The clock of one call: started, waiting time, and the current leg's start and limit. All times in ms. */
export class CallClock {
  /** When the call started (ms since the epoch). */
  readonly started = Date.now();
  /** Time spent waiting for the person so far, ms. */
  waitingMs = 0;
  private legStarted = 0;
  /** True when the current leg is bounded by the call's remaining time rather than the leg limit. */
  private legIsCallLimit = false;

  /**
   * @param what the call for messages, e.g. `tools/call book_table`
   * @param timeoutMs the call's limit of active time, ms
   * @param legTimeoutMs the limit of one leg, ms
   */
  constructor(
    private readonly conn: ClockConnection,
    private readonly what: string,
    private readonly timeoutMs: number,
    private readonly legTimeoutMs: number,
  ) {}

  /** Wall time since the call started, ms. */
  get totalMs(): number {
    return Date.now() - this.started;
  }

  /**
   * Start a leg.
   * @returns its limit in ms (the leg limit, or less when the call has less active time left), or
   *   `undefined` when the call has no active time left
   */
  startLeg(): number | undefined {
    const remaining = this.timeoutMs - (Date.now() - this.started - this.waitingMs);
    if (remaining <= 0) return undefined;
    const limit = Math.min(this.legTimeoutMs, remaining);
    this.legIsCallLimit = limit === remaining;
    this.legStarted = Date.now();
    return limit;
  }

  /** Time since the current leg started, ms. */
  get legMs(): number {
    return Date.now() - this.legStarted;
  }

  /** Count the time from `since` (ms since the epoch) to now as waiting for the person. */
  addWaiting(since: number): void {
    this.waitingMs += Date.now() - since;
  }

  /** The error of a leg that reached its limit: the call's time limit, or the leg's own. */
  legTimeoutError(): HostError {
    const cause = this.unreadableSince(this.legStarted);
    if (this.legIsCallLimit) return this.timeLimitError(cause);
    return new HostError('timeLimit', `${this.what}: the server did not answer within ${this.legTimeoutMs} ms${cause}`);
  }

  /** The error of a call over its time limit (`cause` is appended to the message). */
  timeLimitError(cause = ''): HostError {
    return new HostError(
      'timeLimit',
      `${this.what} on ${this.conn.name} exceeded its time limit of ${this.timeoutMs} ms (time spent answering, ${this.waitingMs} ms, not counted)${cause}`,
    );
  }

  /** Why a leg may have had no answer: a message the server sent during it that could not be read. */
  private unreadableSince(legStarted: number): string {
    const u = this.conn.lastUnreadable;
    return u && u.at >= legStarted ? `; meanwhile: ${u.message.replace(/\s+/g, ' ').slice(0, 300)}` : '';
  }
}
