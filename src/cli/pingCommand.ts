/**
 * `ping`: is the server there and answering? A 2025-era server is sent `ping` (MCP 2025-11-25
 * "Ping"); 2026-07-28 removed `ping`, and a server of that era has answered `server/discover` to be
 * connected at all, which the line says instead of sending a request the server does not know.
 */
import { performance } from 'node:perf_hooks';
import type { ServerConnection } from '../core/connection/serverConnection';
import { DEFAULT_CALL_TIMEOUT_MS } from '../core/mrtr/driver';

/**
 * Connect to `conn` and, on a 2025-era server, send `ping`.
 * @returns the line to print: `pong from <server> in <ms> ms`, or what a 2026-07-28 server answered
 * @param limits.timeoutMs the ping's time limit in ms (default: a call's, {@link DEFAULT_CALL_TIMEOUT_MS})
 * @throws HostError naming the server: connecting failed, the ping failed or outlived its time limit
 */
export async function ping(conn: ServerConnection, limits: { signal?: AbortSignal; timeoutMs?: number }): Promise<string> {
  await conn.ensureConnected(limits.signal);
  if (conn.era !== 'legacy') return `${conn.name} speaks 2026-07-28, which has no ping: it answered server/discover when connecting`;
  const started = performance.now();
  await conn.request('ping', {}, { signal: limits.signal, timeoutMs: limits.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS });
  return `pong from ${conn.name} in ${Math.round(performance.now() - started)} ms`;
}
