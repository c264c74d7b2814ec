/**
 * Errors the host raises for a call. Each carries a stable `kind` so adapters (CLI exit codes,
 * VS Code messages) can branch without parsing messages.
 */

/** What went wrong, coarse-grained; maps 1:1 to CLI exit codes (see `src/cli/exitCodes.ts`). */
export type HostErrorKind =
  | 'server' // the server answered with a JSON-RPC error (see `code`)
  | 'protocol' // the server broke a rule of the protocol (malformed or unexpected result)
  | 'connection' // could not connect, or the server went away
  | 'missingAnswer' // no answer available for an input request (non-interactive)
  | 'declined' // the person declined a request that has no decline answer (sampling, roots)
  | 'roundLimit' // the server kept asking past the round limit
  | 'timeLimit' // the call exceeded its time limit (time a person spends answering not counted)
  | 'cancelled' // the call was cancelled by the user / an AbortSignal
  | 'auth' // signing in to the server failed (refused, mismatched, timed out, bad metadata)
  | 'authRequired' // the server needs a sign-in and this host cannot ask for one (no terminal, no usable token)
  | 'usage'; // the caller asked for something invalid (bad arguments, unknown method)

/** Marks a HostError whatever bundle made it (the registry symbol is the same in every bundle). */
const HOST_ERROR = Symbol.for('mcp-roundtrip.HostError');

/**
 * Base class of every error the core raises on purpose. `instanceof HostError` holds across the
 * extension's bundles too: a lazily loaded bundle (the chat bridge) carries its own copy of this class,
 * and the errors it is handed come from the main bundle's.
 */
export class HostError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check; only the base class is recognised by its mark.
    if (this !== HostError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && (value as { [HOST_ERROR]?: unknown })[HOST_ERROR] === true;
  }

  /**
   * @param kind coarse category, see {@link HostErrorKind}
   * @param message human-readable, names what was wrong
   * @param code JSON-RPC error code when the server sent one
   * @param data JSON-RPC error data when the server sent some
   */
  constructor(
    readonly kind: HostErrorKind,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'HostError';
  }
}
// The mark `instanceof HostError` reads, on the prototype so that every subclass instance has it.
Object.defineProperty(HostError.prototype, HOST_ERROR, { value: true });

/** True when `e` is a {@link HostError} of the given kind (any kind when omitted). */
export function isHostError(e: unknown, kind?: HostErrorKind): e is HostError {
  return e instanceof HostError && (kind === undefined || e.kind === kind);
}

/** Best-effort text of any thrown value, for messages and logs. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/**
 * The error for work ended by `signal`: its reason when that is a {@link HostError} (a time limit, a
 * lost connection), else HostError `cancelled` with `message`.
 */
export function cancellation(signal: AbortSignal, message: string): HostError {
  return signal.reason instanceof HostError ? signal.reason : new HostError('cancelled', message);
}
