/**
 * A bound on how many lines of one source reach the log: at most {@link STDERR_LOG_LINES_PER_WINDOW}
 * per {@link STDERR_LOG_WINDOW_MS}; past that, lines are counted instead of logged, and one line says
 * how many were dropped when the window ends. A server flooding its stderr (or its stdout with lines
 * that are not JSON-RPC) thus costs the log a bounded number of lines, whatever it writes.
 */
import { STDERR_LOG_LINES_PER_WINDOW, STDERR_LOG_WINDOW_MS } from '../limits';

/** Lets lines through up to the rate, and reports the count of those it dropped. */
export class LineThrottle {
  private windowStart = -Infinity;
  private inWindow = 0;
  private dropped = 0;
  private timer?: ReturnType<typeof setTimeout>;

  /**
   * @param onDropped receives the count of lines dropped in a window, once it ended
   * @param now the clock, ms (tests give their own)
   */
  constructor(
    private readonly onDropped: (count: number) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** @returns true when this line may be logged; false when it was counted as dropped */
  admit(): boolean {
    const t = this.now();
    if (t - this.windowStart >= STDERR_LOG_WINDOW_MS) {
      this.flush();
      this.windowStart = t;
      this.inWindow = 0;
    }
    if (this.inWindow < STDERR_LOG_LINES_PER_WINDOW) {
      this.inWindow++;
      return true;
    }
    this.dropped++;
    // The summary comes when the window ends, also when the source falls silent.
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), Math.max(0, this.windowStart + STDERR_LOG_WINDOW_MS - t));
      this.timer.unref?.();
    }
    return false;
  }

  /** Report the lines dropped so far, if any. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dropped) return;
    const count = this.dropped;
    this.dropped = 0;
    this.onDropped(count);
  }
}
