/**
 * What a server says outside its answers, kept to explain failures: the last lines it wrote on
 * stderr, and the last message the host could not read (a line that is not JSON-RPC, an answer
 * over a limit) or the SDK reported outside any request. Both become host events (the round-trip
 * log), rate-limited (`log/lineThrottle.ts`), and parts of error messages.
 */
import { STDERR_TAIL_LINES } from '../limits';
import type { ChangedList, HostEvent } from '../log/events';
import { LineThrottle } from '../log/lineThrottle';
import { oneLine } from '../util/shownText';
import { errorMessage, type HostError } from '../util/errors';
import type { MrtrMethod } from '../inputs/inputProvider';
import { mapSdkError, type FailureContext } from './sdkErrors';
import type { LegOptions } from './session';
import type { LegRecord } from '../transport/legResult';

/** How much of a report is kept and shown, in characters. */
const REPORT_CHARS = 300;
/** How much of each stderr line an error message quotes, in characters. */
const QUOTED_LINE_CHARS = 160;

/** A stderr line that reads as the cause of a failure (a crash's message comes before its stack). */
const ERROR_LINE = /\b(error|exception|fatal|panic|traceback|cannot|denied|not found|enoent|eacces)\b/i;

/**
 * The stderr lines an error message quotes: the first line of the tail that reads as an error with the
 * last line after it (a Node crash ends with its stack, a blank line and its version), else the last
 * three; blank lines and stack frames (`    at …`) left out.
 */
export function quotedStderr(tail: readonly string[]): string[] {
  const lines = tail.filter((l) => /\S/.test(l) && !/^\s+at /.test(l));
  const cause = lines.findIndex((l) => ERROR_LINE.test(l));
  if (cause < 0) return lines.slice(-3);
  return cause === lines.length - 1 ? [lines[cause]] : [lines[cause], lines[lines.length - 1]];
}

/** One server's stderr tail and last unreadable message, and the messages made from them. */
export class ServerDiagnostics {
  /** The last lines the server wrote on stderr (newest last, at most {@link STDERR_TAIL_LINES}). */
  readonly stderrTail: string[] = [];
  /** The last error reported outside any request, with its time (ms since the epoch). */
  lastUnreadable?: { at: number; message: string };
  /** Bytes the server sent so far, on every connection (bounds a listing's pages together). */
  bytesReceived = 0;
  private readonly stderrLog: LineThrottle;
  private readonly warningLog: LineThrottle;
  private readonly serverLogs: LineThrottle;

  constructor(
    private readonly server: string,
    private readonly emit: (e: HostEvent) => void,
  ) {
    this.stderrLog = new LineThrottle((count) => emit({ kind: 'linesDropped', server, source: 'stderr', count }));
    this.warningLog = new LineThrottle((count) => emit({ kind: 'linesDropped', server, source: 'warnings', count }));
    this.serverLogs = new LineThrottle((count) => emit({ kind: 'linesDropped', server, source: 'log', count }));
  }

  /**
   * A `notifications/message` of the server (MCP "Logging"), to the round-trip log (rate-limited like
   * stderr): its data as one line, a string as sent and anything else as JSON, cut to {@link REPORT_CHARS} × 4.
   */
  serverLog(params: { level?: unknown; logger?: unknown; data?: unknown }): void {
    if (!this.serverLogs.admit()) return;
    const data = typeof params.data === 'string' ? params.data : (JSON.stringify(params.data) ?? String(params.data));
    this.emit({
      kind: 'serverLog',
      server: this.server,
      level: typeof params.level === 'string' ? params.level : 'info',
      ...(typeof params.logger === 'string' ? { logger: params.logger } : {}),
      text: oneLine(data, REPORT_CHARS * 4),
    });
  }

  /**
   * The server says its `list` changed (MCP "Tools"/"Prompts"/"Resources", list changed
   * notifications): one event, rate-limited with the warnings (a flood neither fills the log nor
   * keeps the views listing again).
   */
  listChanged(list: ChangedList): void {
    if (this.warningLog.admit()) this.emit({ kind: 'listChanged', server: this.server, list });
  }

  /** A line the server wrote on stderr (already bounded by the transport; `cut` when it was longer). */
  stderr(line: string, cut = false): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL_LINES) this.stderrTail.shift();
    if (this.stderrLog.admit()) this.emit({ kind: 'stderr', server: this.server, line, ...(cut ? { cut } : {}) });
  }

  /**
   * A message the host could not read (`reason`, a sentence fragment from the transport), or an
   * error the SDK reported outside any request.
   */
  unreadable(e: unknown): void {
    const message = typeof e === 'string' ? `${this.server} sent a message the host cannot read: ${e}` : describeReport(e);
    this.lastUnreadable = { at: Date.now(), message };
    this.warning(message);
  }

  /** A warning about what the server does (rate-limited with the others). */
  warning(message: string): void {
    if (this.warningLog.admit()) this.emit({ kind: 'serverWarning', server: this.server, message });
  }

  /** Log now what the rate limit dropped so far (the connection ended). */
  flush(): void {
    this.stderrLog.flush();
    this.warningLog.flush();
    this.serverLogs.flush();
  }

  /** The last stderr line, if any. */
  get lastStderr(): string | undefined {
    return this.stderrTail.length ? this.stderrTail[this.stderrTail.length - 1] : undefined;
  }

  /** What the SDK error mapping (`sdkErrors.ts`) may say about a failure of `what`. */
  failure(what: string, leg?: LegRecord, signal?: AbortSignal): FailureContext {
    return { server: this.server, what, leg, signal, lastStderr: this.lastStderr, lastUnreadable: this.lastUnreadable };
  }

  /**
   * How a failed leg of `method` is reported: the SDK's error mapped (`sdkErrors.ts`) with what the
   * host saw of the leg; the expiry of the leg's time limit told as `opts.limitError` words it.
   */
  legFailure(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): LegFailure {
    return (e, leg) => {
      const mapped = mapSdkError(e, this.failure(`${method} ${String(params.name ?? params.uri ?? '')}`.trim(), leg, opts.signal));
      // The SDK's timer of the request is the leg's limit: its expiry is told as the caller words it.
      return mapped.kind === 'timeLimit' && opts.limitError ? opts.limitError() : mapped;
    };
  }

  /** How a failure of a request outside the MRTR methods (`method`, e.g. `tasks/get`) is told. */
  requestFailure(method: string, signal: AbortSignal | undefined): LegFailure {
    return (e, leg) => mapSdkError(e, this.failure(method, leg, signal));
  }

  /** Why connecting failed (`why`, a sentence), with the stderr lines that tell most ({@link quotedStderr}). */
  connectFailed(why: string): string {
    const quoted = quotedStderr(this.stderrTail);
    const tail = quoted.length ? ` (server stderr: ${quoted.map((l) => oneLine(l, QUOTED_LINE_CHARS)).join(' | ')})` : '';
    return `could not connect to ${this.server}: ${why}${tail}`;
  }

  /** Why the connection is gone, when the server closed it, with the last stderr line. */
  closedByServer(): string {
    const last = this.lastStderr;
    return `server ${this.server} closed the connection${last !== undefined ? `; last stderr: ${oneLine(last, QUOTED_LINE_CHARS)}` : ''}`;
  }
}

/**
 * An error the SDK reported outside a request, as one short line: a schema failure of the SDK's own
 * (a zod issue list) is named, not dumped; a message echoing the server's bytes is cut.
 */
function describeReport(e: unknown): string {
  if (Array.isArray((e as { issues?: unknown } | null)?.issues)) return 'a message from the server is not valid JSON-RPC; it was dropped';
  return oneLine(errorMessage(e), REPORT_CHARS);
}

/** Turns the failure of a leg into the HostError to throw (it may read the leg's raw result). */
export type LegFailure = (e: unknown, leg: LegRecord) => HostError;
