/**
 * The limits of one call as the settings give them (`mcpRoundtrip.maxRounds`,
 * `mcpRoundtrip.callTimeoutSeconds`, `mcpRoundtrip.legIdleSeconds`), bounded. VS Code does not enforce a setting's schema on the value
 * an extension reads: a string, a negative number or 1e12 arrive as written, and would make every call
 * fail at once ("time limit of NaN ms") or run without any limit the host can keep.
 */
import { shownText } from '../util/shownText';
import { MAX_TIMER_MS } from './callClock';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_LEG_IDLE_MS, DEFAULT_MAX_ROUNDS } from './driver';

/** Most retries one call may be allowed (the setting's schema maximum). */
export const MAX_ROUNDS_SETTING = 100;

/** Longest call time limit, s: the whole seconds within {@link MAX_TIMER_MS}. */
export const MAX_CALL_TIMEOUT_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** A call's limits: retries allowed, active time in ms, and how long a leg may go without an answer or progress in ms. */
export interface CallLimits {
  maxRounds: number;
  timeoutMs: number;
  legIdleMs: number;
}

/**
 * The call limits of two setting values, as read (any type).
 * @param maxRounds a whole number 1…{@link MAX_ROUNDS_SETTING}, else {@link DEFAULT_MAX_ROUNDS}
 *   (a fraction is rounded down, a number past the bounds clamped to them)
 * @param callTimeoutSeconds seconds, 1…{@link MAX_CALL_TIMEOUT_SECONDS} the same way, else the default
 *   ({@link DEFAULT_CALL_TIMEOUT_MS})
 * @param legIdleSeconds seconds a leg may go without an answer or progress, bounded the same way, else
 *   the default ({@link DEFAULT_LEG_IDLE_MS}); absent in older callers
 * @returns the limits, and one `problem` sentence per value that was not a number or was changed (for the log)
 */
export function callLimitsFrom(
  maxRounds: unknown,
  callTimeoutSeconds: unknown,
  legIdleSeconds?: unknown,
): CallLimits & { problems: string[] } {
  const problems: string[] = [];
  const bounded = (name: string, v: unknown, max: number, dflt: number): number => {
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      problems.push(
        `the setting mcpRoundtrip.${name} is ${shownText(typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v)), 80)}, not a number; using ${dflt}`,
      );
      return dflt;
    }
    const kept = Math.min(max, Math.max(1, Math.floor(v)));
    if (kept !== v) problems.push(`the setting mcpRoundtrip.${name} is ${v}; using ${kept} (a whole number from 1 to ${max})`);
    return kept;
  };
  return {
    maxRounds: bounded('maxRounds', maxRounds, MAX_ROUNDS_SETTING, DEFAULT_MAX_ROUNDS),
    timeoutMs: bounded('callTimeoutSeconds', callTimeoutSeconds, MAX_CALL_TIMEOUT_SECONDS, DEFAULT_CALL_TIMEOUT_MS / 1000) * 1000,
    legIdleMs: bounded('legIdleSeconds', legIdleSeconds, MAX_CALL_TIMEOUT_SECONDS, DEFAULT_LEG_IDLE_MS / 1000) * 1000,
    problems,
  };
}
