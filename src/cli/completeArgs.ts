/**
 * The `complete` command's words: `complete prompt <name> <argument> [<prefix>]` and
 * `complete template <uriTemplate> <variable> [<prefix>]`, with `--context` (the other arguments).
 *
 * Spec: MCP 2026-07-28 "Completion" (`completion/complete`: `ref/prompt`, `ref/resource`, `argument`, `context.arguments`).
 */
import { cliText } from './messages';

/** A usage error of `complete` (the caller turns it into exit code 2). */
export class CompleteUsageError extends Error {}

/** `completion/complete` for one argument of a prompt or one variable of a resource template. */
export interface CompleteCommand {
  kind: 'complete';
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  /** The argument (or template variable) completed, and what is typed of it so far. */
  argument: { name: string; value: string };
  /** The values of the other arguments (`--context`), as strings. */
  context?: Record<string, string>;
}

/**
 * Parse the words after `complete`.
 * @param context `--context`'s JSON object, when given
 * @throws CompleteUsageError naming what is missing or wrong
 */
export function parseComplete(words: string[], context: Record<string, unknown> | undefined): CompleteCommand {
  const [what, target, argument, prefix = '', ...extra] = words;
  if (what !== 'prompt' && what !== 'template')
    throw new CompleteUsageError(
      cliText(
        'complete needs what to complete: complete prompt <name> <argument> [<prefix>] or complete template <uriTemplate> <variable> [<prefix>]',
      ),
    );
  if (!target)
    throw new CompleteUsageError(
      what === 'prompt' ? cliText('complete prompt needs a prompt name') : cliText('complete template needs a URI template'),
    );
  if (!argument)
    throw new CompleteUsageError(
      what === 'prompt'
        ? cliText('complete prompt {0} needs an argument name', target)
        : cliText('complete template {0} needs a variable name', target),
    );
  if (extra.length) throw new CompleteUsageError(cliText('unexpected argument "{0}"', extra[0]));
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(context ?? {})) {
    if (typeof v !== 'string') throw new CompleteUsageError(cliText('--context values are strings; "{0}" is {1}', k, typeof v));
    strings[k] = v;
  }
  return {
    kind: 'complete',
    ref: what === 'prompt' ? { type: 'ref/prompt', name: target } : { type: 'ref/resource', uri: target },
    argument: { name: argument, value: prefix },
    ...(context ? { context: strings } : {}),
  };
}
