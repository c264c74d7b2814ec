/**
 * The `MCP Roundtrip` output channel (a LogOutputChannel): every MRTR round trip, one line per leg,
 * formatted by the core's `traceLog.ts`; server stderr under the server's name, rate-limited where
 * it is read (`core/log/lineThrottle.ts`: a flood costs at most STDERR_LOG_LINES_PER_WINDOW lines a
 * second, plus one line counting what was dropped); errors with codes.
 * Secret values given in this session (`SecretMask`) are masked in every line.
 */
import * as vscode from 'vscode';
import { SecretMask } from '../../core/history/secrets';
import type { HostEvent } from '../../core/log/events';
import { formatEvent } from '../../core/log/traceLog';
import { oneLine } from '../../core/util/shownText';

/** Longest line a message written with {@link RoundTripLog.info} (warn, error) becomes, in characters. */
export const MAX_LOG_LINE_CHARS = 4000;

/** The host's log. */
export class RoundTripLog implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  /** Secret values given in this session: never written to the log, whatever a server echoes. */
  readonly secrets = new SecretMask();

  constructor() {
    this.channel = vscode.window.createOutputChannel('MCP Roundtrip', { log: true });
  }

  /** Log one host event at its level. */
  event = (e: HostEvent): void => {
    const line = formatEvent(e);
    if (!line) return;
    this.channel[line.level](this.secrets.apply(line.text));
  };

  /** Log a wire message at trace level (only when `mcpRoundtrip.log.wire` is on). */
  wire(server: string, direction: 'out' | 'in', message: unknown): void {
    this.channel.trace(this.secrets.apply(`${direction === 'out' ? '→' : '←'} [${server}] ${oneLine(JSON.stringify(message), 2000)}`));
  }

  // Whatever a message quotes of a server (a key, a hint, an error) stays one line, cut: no line of
  // the log can be forged or flooded through it.
  /** Log `text` (one line, at most {@link MAX_LOG_LINE_CHARS} characters) at info level. */
  info(text: string): void {
    this.channel.info(this.line(text));
  }
  /** Log `text` (one line, cut) at warning level. */
  warn(text: string): void {
    this.channel.warn(this.line(text));
  }
  /** Log `text` (one line, cut) at error level. */
  error(text: string): void {
    this.channel.error(this.line(text));
  }
  /** `text` as a log line: one line, cut at {@link MAX_LOG_LINE_CHARS}, the secrets masked. */
  private line(text: string): string {
    return this.secrets.apply(oneLine(text, MAX_LOG_LINE_CHARS));
  }
  show(): void {
    this.channel.show(true);
  }
  dispose(): void {
    this.channel.dispose();
  }
}
