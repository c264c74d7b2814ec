/** Exit codes of the CLI (a contract): see docs/cli.md "Exit codes". */
import type { HostErrorKind } from '../core/util/errors';

/** The CLI's exit codes (docs/cli.md "Exit codes"); one per {@link HostErrorKind} group. */
export const EXIT = { ok: 0, error: 1, usage: 2, missingAnswer: 3, limit: 4, signInNeeded: 5, cancelled: 130 } as const;

/** The exit code for a failed call, by error kind. */
export function exitCodeFor(kind: HostErrorKind): number {
  switch (kind) {
    case 'usage':
      return EXIT.usage;
    case 'missingAnswer':
      return EXIT.missingAnswer;
    case 'roundLimit':
    case 'timeLimit':
      return EXIT.limit;
    case 'cancelled':
      return EXIT.cancelled;
    case 'authRequired':
      return EXIT.signInNeeded;
    default:
      return EXIT.error;
  }
}
