/**
 * Is the server there and answering? A 2025-era server is sent `ping` (MCP 2025-11-25 "Ping") and its
 * round-trip time measured; 2026-07-28 removed `ping`, and a server of that era has answered
 * `server/discover` to be connected at all, which is said instead of sending a request the server does
 * not know. The CLI's `ping` and VS Code's Ping Server both say {@link pingLine}.
 */
import { performance } from 'node:perf_hooks';
import type { ServerConnection } from './serverConnection';

/** What a ping found: the round-trip time of a 2025-era server's `ping`, or a 2026-07-28 server's discover. */
export type PingAnswer = { era: 'legacy'; ms: number } | { era: 'modern' };

/**
 * Connect to `conn` and, on a 2025-era server, send `ping`.
 * @param limits.timeoutMs the ping's time limit in ms
 * @returns the round-trip time in whole ms (2025 era), or that the server answered `server/discover`
 * @throws HostError naming the server: connecting failed, the ping failed or outlived its time limit,
 *   or `signal` aborted
 */
export async function pingServer(conn: ServerConnection, limits: { signal?: AbortSignal; timeoutMs: number }): Promise<PingAnswer> {
  await conn.ensureConnected(limits.signal);
  if (conn.era !== 'legacy') return { era: 'modern' };
  const started = performance.now();
  await conn.request('ping', {}, { signal: limits.signal, timeoutMs: limits.timeoutMs });
  return { era: 'legacy', ms: Math.round(performance.now() - started) };
}

/** The line that says a ping's answer: `pong from <server> in <ms> ms`, or what a 2026-07-28 server answered. */
export function pingLine(server: string, answer: PingAnswer): string {
  return answer.era === 'legacy'
    ? `pong from ${server} in ${answer.ms} ms`
    : `${server} speaks 2026-07-28, which has no ping: it answered server/discover when connecting`;
}
