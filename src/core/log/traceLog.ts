/**
 * Turns host events into the round-trip log's lines: one line per leg (→ request, ← input_required,
 * ↳ each answer, → retry, ← complete / error). The same formatter feeds the VS Code output channel
 * and the CLI's stderr. Never prints form values or `requestState`: only field names, lengths and
 * fingerprints (docs/field-cases.md, F9).
 */
import { oneLine } from '../util/shownText';
import { MAX_STDERR_LINE_BYTES, STDERR_LOG_LINES_PER_WINDOW, STDERR_LOG_WINDOW_MS } from '../limits';
import type { HostEvent, StateDigest } from './events';

/** Severity of a log line (maps to LogOutputChannel methods). */
export type LogLevel = 'info' | 'warn' | 'error' | 'debug';

/** One formatted line. */
export interface LogLine {
  level: LogLevel;
  text: string;
}

/** Milliseconds as `850 ms` or `4.2 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function state(d: StateDigest): string {
  return d.present ? `requestState ${d.length} chars #${d.fingerprint}` : 'no requestState';
}

/** ` (history <id>)` for the last line of a call the host keeps in its history, else nothing. */
function historyOf(e: { historyId?: string }): string {
  return e.historyId ? ` (history ${oneLine(e.historyId, 40)})` : '';
}

/** How much of a server's log message (`notifications/message`) one line shows, in characters. */
export const SERVER_LOG_CHARS = 1000;

/** The log line's severity of each MCP logging level (RFC 5424 levels; MCP "Logging"). */
const SERVER_LOG_LEVELS: Record<string, LogLevel> = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

/** At most this many input keys are named in one log line; the rest are counted. */
export const MAX_KEYS_IN_LINE = 20;

/** `keys` as one bounded list: the first {@link MAX_KEYS_IN_LINE}, then "… and N more". */
function keyList(keys: readonly string[], describe: (key: string, i: number) => string): string {
  const shown = keys.slice(0, MAX_KEYS_IN_LINE).map(describe).join(', ');
  return keys.length > MAX_KEYS_IN_LINE ? `${shown}, … and ${keys.length - MAX_KEYS_IN_LINE} more` : shown;
}

/**
 * Format one event.
 * @returns the line, or `undefined` for events that have no line
 */
export function formatEvent(e: HostEvent): LogLine | undefined {
  // A server's name comes from a file or a package: one line, no control character, like its text.
  const server = oneLine(e.server, 200);
  switch (e.kind) {
    case 'request':
      return {
        level: 'info',
        text: `→ [${server}] ${e.method} ${oneLine(e.target)} id=${e.id} (flow ${e.flowId}${e.historyId ? `, history ${e.historyId}` : ''})`,
      };
    case 'inputRequired': {
      const inputs = e.inputs.length
        ? keyList(
            e.inputs.map((i) => i.key),
            (k, i) => `${oneLine(k, 80)} (${e.inputs[i].method})`,
          )
        : 'no inputs (state only)';
      return {
        level: 'info',
        text: `← [${server}] input_required round ${e.round} for id=${e.id}: ${inputs}; ${state(e.state)} (${formatMs(e.legMs)})`,
      };
    }
    case 'answer':
      return {
        level: 'info',
        text: `  ↳ [${server}] round ${e.round} ${oneLine(e.key, 80)}: ${oneLine(e.summary)} (after ${formatMs(e.waitedMs)})`,
      };
    case 'retry': {
      const keys = e.keys.length ? `inputResponses [${keyList(e.keys, (k) => oneLine(k, 80))}]` : 'no inputResponses';
      const echo = e.state.present
        ? e.echoExact
          ? `requestState echo exact (${e.state.length} chars #${e.state.fingerprint})`
          : `requestState ECHO MISMATCH`
        : 'no requestState (none was sent)';
      const paced = e.delayMs ? `, after a ${formatMs(e.delayMs)} pause` : '';
      return {
        level: e.echoExact ? 'info' : 'error',
        text: `→ [${server}] retry ${e.round} of ${e.method} ${oneLine(e.target)} id=${e.id} (new id, was ${e.previousId}) with ${keys}; ${echo}${paced}`,
      };
    }
    case 'complete':
      return {
        level: e.isError ? 'warn' : 'info',
        text: `← [${server}] complete${e.isError ? ' (tool reported an error)' : ''} id=${e.id} after ${e.round} round(s): total ${formatMs(e.totalMs)}, ${formatMs(e.waitingMs)} waiting for the user${historyOf(e)}`,
      };
    case 'error':
      return {
        level: e.errorKind === 'cancelled' ? 'warn' : 'error',
        text: `✖ [${server}] ${e.method} ${oneLine(e.target)} ${e.errorKind === 'cancelled' ? 'cancelled' : 'failed'} in round ${e.round}${e.code !== undefined ? ` (JSON-RPC ${e.code})` : ''}: ${oneLine(e.message, 1000)}; total ${formatMs(e.totalMs)}, ${formatMs(e.waitingMs)} waiting for the user${historyOf(e)}`,
      };
    case 'warning':
      return { level: 'warn', text: `⚠ [${server}] ${oneLine(e.message, 500)}` };
    case 'taskCreated': {
      const ttl = e.ttlMs === undefined ? 'not said' : e.ttlMs === null ? 'unlimited' : formatMs(e.ttlMs);
      const poll = e.pollIntervalMs === undefined ? 'not said (backing off)' : formatMs(e.pollIntervalMs);
      return {
        level: 'info',
        text: `← [${server}] task ${oneLine(e.taskId, 200)} created for ${e.method} ${oneLine(e.target)} (flow ${e.flowId}): ttl ${ttl}, poll interval ${poll}`,
      };
    }
    case 'taskCancel':
      return {
        level: 'warn',
        text: `→ [${server}] tasks/cancel task ${oneLine(e.taskId, 200)} of ${e.method} ${oneLine(e.target)} (flow ${e.flowId}): ${oneLine(e.reason, 500)}`,
      };
    case 'connecting':
      return { level: 'debug', text: `[${server}] ${e.attempt === 'first' ? 'connecting' : 'reconnecting'}…` };
    case 'connected':
      return {
        level: 'info',
        text: `[${server}] connected: ${e.era === 'modern' ? `${e.protocolVersion} (modern era)` : `${e.protocolVersion ?? '2025'} (legacy era)`}${e.serverName ? `, server ${oneLine(e.serverName, 80)} ${oneLine(e.serverVersion ?? '', 40)}` : ''} in ${formatMs(e.ms)}`,
      };
    case 'disconnected':
      return { level: 'warn', text: `[${server}] disconnected: ${oneLine(e.reason, 500)}` };
    case 'stderr':
      return {
        level: 'info',
        text: `[${server}] stderr: ${oneLine(e.line, MAX_STDERR_LINE_BYTES)}${e.cut ? ` (line cut at ${MAX_STDERR_LINE_BYTES} bytes, MAX_STDERR_LINE_BYTES)` : ''}`,
      };
    case 'linesDropped':
      return {
        level: 'warn',
        text: `[${server}] ${e.count} more ${e.source === 'stderr' ? 'stderr lines' : e.source === 'log' ? 'log messages' : 'warnings'} not logged (more than ${STDERR_LOG_LINES_PER_WINDOW} in ${formatMs(STDERR_LOG_WINDOW_MS)}, STDERR_LOG_LINES_PER_WINDOW)`,
      };
    case 'pushed':
      return {
        level: e.action === 'error' ? 'warn' : 'info',
        text: `← [${server}] ${e.inputMethod} id=${e.id} pushed by a 2025-era server: ${oneLine(e.summary)}`,
      };
    case 'serverWarning':
      return { level: 'warn', text: `⚠ [${server}] ${oneLine(e.message, 500)}` };
    case 'listChanged':
      return { level: 'info', text: `[${server}] its ${e.list} changed (notifications/${e.list}/list_changed); listed again when shown` };
    case 'serverLog':
      return {
        level: SERVER_LOG_LEVELS[e.level] ?? 'info',
        text: `[${server}] log ${oneLine(e.level, 20)}${e.logger ? ` ${oneLine(e.logger, 80)}` : ''}: ${oneLine(e.text, SERVER_LOG_CHARS)}`,
      };
    case 'auth':
      return { level: 'info', text: `[${server}] sign-in: ${oneLine(e.message, 600)}` };
  }
}
