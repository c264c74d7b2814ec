/**
 * Where a server connection stands, as one value that carries its own message: the servers view and
 * the pickers show the kind and, when something went wrong, why.
 */

/**
 * - `idle`: not started yet, or closed by the host (a restart, a changed definition);
 * - `connecting`: the handshake (2026-07-28 `server/discover` or 2025 `initialize`) is under way;
 * - `connected`: ready for requests;
 * - `closed`: the server closed the connection (the next call reconnects);
 * - `error`: the last attempt to connect failed (the next call tries again).
 *
 * `message` says what went wrong: why the server closed or could not be reached; while `idle` or
 * `connecting` again, what ended the previous connection, if anything did.
 */
export type ConnectionStatus =
  | { kind: 'idle' | 'connecting'; message?: string }
  | { kind: 'connected'; message?: undefined }
  | { kind: 'closed' | 'error'; message: string };

/** The kind of a {@link ConnectionStatus}. */
export type ConnectionState = ConnectionStatus['kind'];

/** `kind` (idle or connecting again), keeping the message of `previous` when it has one. */
export function keepingMessage(kind: 'idle' | 'connecting', previous: ConnectionStatus): ConnectionStatus {
  return previous.message === undefined ? { kind } : { kind, message: previous.message };
}
