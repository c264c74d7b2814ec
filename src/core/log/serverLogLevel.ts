/**
 * The level of a server's log messages the host asks for (`notifications/message`): the CLI's
 * `--log-level` and the `mcpRoundtrip.log.serverLevel` setting.
 *
 * Spec: MCP 2026-07-28 "Logging" (`_meta["io.modelcontextprotocol/logLevel"]` per request) and
 * MCP 2025-11-25 "Logging" (`logging/setLevel`).
 */

/** The MCP logging levels (RFC 5424 severities, lowest first; MCP 2025-11-25 "Logging"). */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** The level asked by default (the CLI's and the setting's default). */
export const DEFAULT_SERVER_LOG_LEVEL: LogLevelName = 'info';

/**
 * The level a setting asks for: one of {@link LOG_LEVELS}; `"off"` asks for none (the server decides
 * whether it sends any); anything else (a hand-edited value) is the default, {@link DEFAULT_SERVER_LOG_LEVEL}.
 */
export function serverLogLevel(setting: unknown): LogLevelName | undefined {
  if (setting === 'off') return undefined;
  return (LOG_LEVELS as readonly unknown[]).includes(setting) ? (setting as LogLevelName) : DEFAULT_SERVER_LOG_LEVEL;
}
