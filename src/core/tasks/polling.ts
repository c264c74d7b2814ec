/**
 * When to read a task's status next: the server's `pollIntervalMs` as last read (it may change), kept
 * within bounds (a poll interval of 0 would spin, one of days would outlive any call); without one, a
 * pause that grows from {@link BACKOFF_START_MS} to {@link BACKOFF_MAX_MS}. The call's time limit and its
 * cancellation bound every wait (`taskCall.ts`).
 *
 * Spec: MCP 2025-11-25 "Tasks" (`pollInterval`) and the 2026-07-28 tasks extension (`pollIntervalMs`:
 * a client SHOULD honour it; it may change between reads).
 */

/** The shortest pause between two reads of a task, ms, whatever the server says (0 would spin). */
export const MIN_POLL_MS = 50;
/** The longest pause between two reads of a task, ms, whatever the server says. */
export const MAX_POLL_MS = 60_000;
/** The first pause when the server gives no poll interval, ms. */
export const BACKOFF_START_MS = 500;
/** The longest pause when the server gives no poll interval, ms. */
export const BACKOFF_MAX_MS = 5_000;

/**
 * The pause before the next read of a task, ms.
 * @param pollIntervalMs the server's poll interval as last read (`undefined` when it gave none)
 * @param reads how many reads without a poll interval came before this one (0 for the first)
 */
export function nextPollMs(pollIntervalMs: number | undefined, reads: number): number {
  if (pollIntervalMs !== undefined) return Math.min(Math.max(pollIntervalMs, MIN_POLL_MS), MAX_POLL_MS);
  return Math.min(BACKOFF_START_MS * 1.5 ** reads, BACKOFF_MAX_MS);
}
