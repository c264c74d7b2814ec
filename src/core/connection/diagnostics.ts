/**
 * What a server says outside its answers, kept to explain failures: the last lines it wrote on
 * stderr, and the last message the SDK or the transport could not read (a line that is not JSON-RPC,
 * a result that is not an object: the SDK drops it, so the request it answered waits for its time
 * limit). Both become host events (the round-trip log) and parts of error messages.
 */
import type { HostEvent } from '../log/events';
import { errorMessage } from '../util/errors';
import type { FailureContext } from './sdkErrors';
import type { LegRecord } from './wireTap';

/** How many stderr lines of the server are kept. */
export const STDERR_TAIL = 20;

/** One server's stderr tail and last unreadable message, and the messages made from them. */
export class ServerDiagnostics {
  /** The last lines the server wrote on stderr (newest last, at most {@link STDERR_TAIL}). */
  readonly stderrTail: string[] = [];
  /** The last error reported outside any request, with its time (ms since the epoch). */
  lastUnreadable?: { at: number; message: string };

  constructor(
    private readonly server: string,
    private readonly emit: (e: HostEvent) => void,
  ) {}

  /** A line the server wrote on stderr. */
  stderr(line: string): void {
    this.stderrTail.push(line);
    if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
    this.emit({ kind: 'stderr', server: this.server, line });
  }

  /** An error the SDK or the transport reported outside any request. */
  unreadable(e: unknown): void {
    this.lastUnreadable = { at: Date.now(), message: errorMessage(e) };
    this.emit({ kind: 'serverWarning', server: this.server, message: errorMessage(e) });
  }

  /** The last stderr line, if any. */
  get lastStderr(): string | undefined {
    return this.stderrTail.length ? this.stderrTail[this.stderrTail.length - 1] : undefined;
  }

  /** What the SDK error mapping (`sdkErrors.ts`) may say about a failure of `what`. */
  failure(what: string, leg?: LegRecord, signal?: AbortSignal): FailureContext {
    return { server: this.server, what, leg, signal, lastStderr: this.lastStderr, lastUnreadable: this.lastUnreadable };
  }

  /** Why connecting failed, with the last three stderr lines. */
  connectFailed(e: unknown): string {
    const tail = this.stderrTail.length ? ` (server stderr: ${this.stderrTail.slice(-3).join(' | ')})` : '';
    return `could not connect to ${this.server}: ${errorMessage(e)}${tail}`;
  }

  /** Why the connection is gone, when the server closed it, with the last stderr line. */
  closedByServer(): string {
    const last = this.lastStderr;
    return `server ${this.server} closed the connection${last !== undefined ? `; last stderr: ${last}` : ''}`;
  }
}
