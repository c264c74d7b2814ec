/**
 * Newline-delimited text read from a stream with a bound on each line, before it is buffered: at
 * most `maxBytes` of a line are ever held. A line that reaches the bound is handed on at once, cut,
 * and the rest of it, up to the next newline, is dropped unread. Used for a stdio server's stdout
 * (one JSON-RPC message per line) and stderr (its log lines).
 */

/**
 * Receives each line without its newline (a trailing `\r` included, if any).
 * @param line the line's bytes, at most `maxBytes`
 * @param cut true when the line was longer: `line` is its first `maxBytes` bytes, the rest is dropped
 */
export type LineListener = (line: Buffer, cut: boolean) => void;

/** Splits chunks into lines, holding at most `maxBytes` of the current line. */
export class BoundedLines {
  private parts: Buffer[] = [];
  private held = 0;
  /** True while the rest of a cut line is being dropped. */
  private dropping = false;

  /**
   * @param maxBytes the most bytes of one line held (and handed on)
   * @param onLine receives each line, or the cut start of a longer one
   */
  constructor(
    private readonly maxBytes: number,
    private readonly onLine: LineListener,
  ) {}

  /** Read one chunk. Lines wholly inside it are handed on without a copy. */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline < 0 ? chunk.length : newline;
      if (this.dropping) {
        // The rest of a cut line: dropped unread, up to its newline.
        if (newline >= 0) this.dropping = false;
      } else if (newline >= 0 && this.held === 0 && end - start <= this.maxBytes) {
        this.onLine(chunk.subarray(start, end), false);
      } else {
        const room = this.maxBytes - this.held;
        // Copied: a kept slice would pin the whole chunk it came from.
        const kept = Buffer.from(chunk.subarray(start, start + Math.min(room, end - start)));
        if (kept.length) this.parts.push(kept);
        this.held += kept.length;
        if (end - start > room) {
          this.emit(true);
          this.dropping = newline < 0;
        } else if (newline >= 0) {
          this.emit(false);
        }
      }
      if (newline < 0) return;
      start = newline + 1;
    }
  }

  /** The stream ended: a last line without a newline is handed on. */
  end(): void {
    if (this.held > 0) this.emit(false);
    this.dropping = false;
  }

  private emit(cut: boolean): void {
    const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.held);
    this.parts = [];
    this.held = 0;
    this.onLine(line, cut);
  }
}
