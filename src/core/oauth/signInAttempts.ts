/**
 * The sign-ins each operation has started, counted in a window: past {@link MAX_SIGN_INS_PER_OPERATION}
 * the host stops asking (a server that refuses whatever it is given never loops the person through
 * the browser). A request of the operation that goes through starts its count over.
 *
 * Spec: MCP 2026-07-28 "Authorization" (step-up: a client should bound its retries).
 */

/** Sign-ins one operation may start before the host stops asking (window: {@link SIGN_IN_WINDOW_MS}). */
export const MAX_SIGN_INS_PER_OPERATION = 2;
/** The window in which sign-ins of one operation are counted (ms). */
export const SIGN_IN_WINDOW_MS = 10 * 60_000;

/** Sign-ins by operation (`tools/call write_file`, ...). */
export class SignInAttempts {
  private readonly byOperation = new Map<string, { count: number; since: number }>();

  /** Sign-ins `operation` started in the current window (0 once the window is over). */
  recent(operation: string): number {
    const seen = this.byOperation.get(operation);
    return seen && Date.now() - seen.since < SIGN_IN_WINDOW_MS ? seen.count : 0;
  }

  /** Count a sign-in of `operation` (a new window starts when the last one is over). */
  count(operation: string): void {
    const seen = this.byOperation.get(operation);
    const fresh = !seen || Date.now() - seen.since >= SIGN_IN_WINDOW_MS;
    this.byOperation.set(operation, { count: fresh ? 1 : seen.count + 1, since: fresh ? Date.now() : seen.since });
  }

  /**
   * A request of `operation` went through: its count starts over. The name is asked for only when
   * some operation is counted (naming one reads the request's body, on every request).
   */
  succeeded(operation: () => string): void {
    if (this.byOperation.size) this.byOperation.delete(operation());
  }

  /** Forget every count (signed out). */
  clear(): void {
    this.byOperation.clear();
  }
}
