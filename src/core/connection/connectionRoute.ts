/**
 * What the parts of a {@link ServerConnection} that send over it (`mirroredLeg.ts`,
 * `signedInList.ts`) reach of it: its session, its diagnostics and its tools' header declarations.
 */
import type { LegRecord } from '../transport/legResult';
import type { ServerDiagnostics } from './diagnostics';
import type { ListKind, ListOptions } from './boundedList';
import type { Session } from './session';
import type { ToolHeaders } from './toolHeaders';
import type { HostError } from '../util/errors';

/** One server's connection as its sending parts see it (built once per connection). */
export interface ConnectionRoute {
  /** The server's name, for messages. */
  readonly server: string;
  readonly diagnostics: ServerDiagnostics;
  /** The `x-mcp-header` declarations of the listed tools. */
  readonly headers: ToolHeaders;
  /** The session, if connected now. */
  current(): Session | undefined;
  /**
   * The session, connecting first when needed; a wait ended by `signal` says it was connecting.
   * @throws HostError as the connection's lifecycle throws it
   */
  connectedFor(signal: AbortSignal | undefined): Promise<Session>;
  /** Whether tool parameters go out as `Mcp-Param-*` headers (a 2026-07-28 HTTP connection). */
  mirrorsHeaders(): boolean;
  /** The connection's own listing (sign-ins included). */
  list(kind: ListKind, opts?: ListOptions): Promise<unknown[]>;
  /** Tell the person something went wrong on the server's side, without failing anything. */
  warn(message: string): void;
}

/** Turns the failure of a leg into the HostError to throw (it may read the leg's raw result). */
export type LegFailure = (e: unknown, leg: LegRecord) => HostError;
