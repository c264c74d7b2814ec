/**
 * The time accounting of one MRTR call. The call's time limit counts only active time, never the
 * time a person spends answering (an MRTR round, or a request a 2025-era server pushed during a leg);
 * each leg is bounded by an idle timer: the leg fails once the server has sent nothing that shows it
 * is working (a `notifications/progress`) for the leg idle limit, or once the call's active time is
 * used up, whichever comes first. The timer stops while a person answers a pushed request. A
 * time-limit error says which limit it was, how to raise it, and what the server sent meanwhile that
 * the host could not read.
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests": the host bounds the loop and says why it stopped;
 * "Progress": a receiver MAY reset its timeout on progress notifications.
 */
import { HostError } from '../util/errors';

/** The longest delay a Node timer holds, ms (2^31 − 1): past it the timer fires at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What the clock reads of the connection: the server's name and its last unreadable message. */
export interface ClockConnection {
  readonly name: string;
  readonly lastUnreadable?: { at: number; message: string };
}

/** The clock of one call: started, waiting time, and the current leg's idle timer. All times in ms. */
export class CallClock {
  /** When the call started (ms since the epoch). */
  readonly started = Date.now();
  /** Time spent waiting for the person so far, ms (a pause under way not included). */
  waitingMs = 0;
  /** The error of the current leg's limit once its timer fired (the caller fails the call with it). */
  expired?: HostError;
  private legStarted = 0;
  /** True from the start of a leg until its request is written: connecting is bounded by the call's limit only. */
  private connecting = false;
  /** True when the current leg's timer is bounded by the call's remaining time rather than the idle limit. */
  private legIsCallLimit = false;
  private timer?: ReturnType<typeof setTimeout>;
  /** What to do when the current leg's timer fires; `undefined` between legs. */
  private onExpire?: () => void;
  /** Pushed requests being answered now, and since when the first of them waits (ms since the epoch). */
  private pauses = 0;
  private pausedSince = 0;

  /**
   * @param what the call for messages, e.g. `tools/call book_table`
   * @param timeoutMs the call's limit of active time, ms
   * @param legIdleMs how long a leg may go without an answer or a progress notification, ms
   */
  constructor(
    private readonly conn: ClockConnection,
    private readonly what: string,
    private readonly timeoutMs: number,
    private readonly legIdleMs: number,
  ) {}

  /** Wall time since the call started, ms. */
  get totalMs(): number {
    return Date.now() - this.started;
  }

  /** Active time the call has left, ms (≤ 0: none). */
  get remainingMs(): number {
    const now = Date.now();
    const pausedMs = this.pauses > 0 ? now - this.pausedSince : 0;
    return this.timeoutMs - (now - this.started - this.waitingMs - pausedMs);
  }

  /**
   * Start a leg and its idle timer.
   * @param onExpire called once if the timer fires ({@link expired} is set first); not after {@link endLeg}
   * @param untilSent true when the leg may open a connection first (a spawn on a busy machine is not the
   *   server being idle): until {@link activity} says its request was written, only the call's limit holds
   * @returns false when the call has no active time left (nothing is started)
   */
  startLeg(onExpire: () => void, untilSent = false): boolean {
    if (this.remainingMs <= 0) return false;
    this.legStarted = Date.now();
    this.connecting = untilSent;
    this.expired = undefined;
    this.onExpire = onExpire;
    if (this.pauses === 0) this.arm();
    return true;
  }

  /** The current leg ended (answered, failed or cancelled): its timer stops. */
  endLeg(): void {
    this.onExpire = undefined;
    clearTimeout(this.timer);
  }

  /** The leg's request was written, or the server showed it is working on it (progress): the idle limit starts over. */
  activity(): void {
    this.connecting = false;
    if (this.onExpire && this.pauses === 0) this.arm();
  }

  /**
   * A person starts answering a request the server pushed: the call's time and the leg's timer stop
   * until the function returned is called (pauses may overlap; the time counts once).
   */
  pause(): () => void {
    if (this.pauses++ === 0) {
      this.pausedSince = Date.now();
      clearTimeout(this.timer);
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.pauses > 0) return;
      this.addWaiting(this.pausedSince);
      // The answer is the server's to act on: its leg gets a whole idle limit again.
      if (this.onExpire) this.arm();
    };
  }

  /** Time since the current leg started, ms. */
  get legMs(): number {
    return Date.now() - this.legStarted;
  }

  /** Count the time from `since` (ms since the epoch) to now as waiting for the person. */
  addWaiting(since: number): void {
    this.waitingMs += Date.now() - since;
  }

  /** The error of a leg that reached its limit: the call's time limit, or the leg's idle limit. */
  legTimeoutError(): HostError {
    const cause = this.unreadableSince(this.legStarted);
    if (this.legIsCallLimit) return this.timeLimitError(cause);
    return new HostError(
      'timeLimit',
      `${this.what}: ${this.conn.name} sent neither an answer nor progress for ${this.legIdleMs} ms, the leg idle limit ` +
        `(raise it with --leg-idle-ms or the setting mcpRoundtrip.legIdleSeconds)${cause}`,
    );
  }

  /** The error of a call over its time limit (`cause` is appended to the message). */
  timeLimitError(cause = ''): HostError {
    return new HostError(
      'timeLimit',
      `${this.what} on ${this.conn.name} exceeded its time limit of ${this.timeoutMs} ms (time spent answering, ${this.waitingMs} ms, not counted)${cause}`,
    );
  }

  /** (Re)start the leg's timer: the idle limit, or the call's active time left when that is less. */
  private arm(): void {
    clearTimeout(this.timer);
    const remaining = this.remainingMs;
    const limit = Math.max(0, this.connecting ? remaining : Math.min(this.legIdleMs, remaining));
    this.legIsCallLimit = limit === Math.max(0, remaining);
    this.timer = setTimeout(() => {
      const expire = this.onExpire;
      if (!expire) return;
      this.onExpire = undefined;
      this.expired = this.legTimeoutError();
      expire();
    }, limit);
  }

  /** Why a leg may have had no answer: a message the server sent during it that could not be read. */
  private unreadableSince(legStarted: number): string {
    const u = this.conn.lastUnreadable;
    return u && u.at >= legStarted ? `; meanwhile: ${u.message.replace(/\s+/g, ' ').slice(0, 300)}` : '';
  }
}
