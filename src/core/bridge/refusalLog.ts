/**
 * The log of the loopback endpoint's refusals, bounded: a local process hammering the port must not
 * flood the round-trip log. At most a given number of lines a minute; the rest are counted, and the
 * count is logged in one line when the next minute starts.
 */

/** Refusals, logged at most `maxPerMinute` a minute. */
export class RefusalLog {
  /** Refusals in the current minute, and when it started (ms since the epoch). */
  private minute = { since: 0, count: 0 };

  /**
   * @param maxPerMinute lines logged one by one per minute at most
   * @param warn where the lines go (none when `undefined`)
   */
  constructor(
    private readonly maxPerMinute: number,
    private readonly warn: ((message: string) => void) | undefined,
  ) {}

  /** Log `line` (it must hold no token and no body), unless this minute's lines are spent. */
  log(line: string): void {
    const now = Date.now();
    if (now - this.minute.since >= 60_000) {
      const dropped = this.minute.count - this.maxPerMinute;
      if (dropped > 0) this.warn?.(`${dropped} more request(s) refused in the minute before (not logged one by one)`);
      this.minute = { since: now, count: 0 };
    }
    if (++this.minute.count <= this.maxPerMinute) this.warn?.(line);
  }
}
