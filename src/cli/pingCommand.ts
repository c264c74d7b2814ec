/**
 * `ping`: is the server there and answering? The logic is the core's (`core/connection/ping.ts`),
 * shared with VS Code's Ping Server; the CLI gives it a call's time limit by default.
 */
import type { ServerConnection } from '../core/connection/serverConnection';
import { pingLine, pingServer } from '../core/connection/ping';
import { DEFAULT_CALL_TIMEOUT_MS } from '../core/mrtr/driver';

/**
 * Connect to `conn` and, on a 2025-era server, send `ping`.
 * @returns the line to print: `pong from <server> in <ms> ms`, or what a 2026-07-28 server answered
 * @param limits.timeoutMs the ping's time limit in ms (default: a call's, {@link DEFAULT_CALL_TIMEOUT_MS})
 * @throws HostError naming the server: connecting failed, the ping failed or outlived its time limit
 */
export async function ping(conn: ServerConnection, limits: { signal?: AbortSignal; timeoutMs?: number }): Promise<string> {
  const answer = await pingServer(conn, { signal: limits.signal, timeoutMs: limits.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS });
  return pingLine(conn.name, answer);
}
