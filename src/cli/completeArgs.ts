/**
 * The `complete` command's words: `complete prompt <name> <argument> [<prefix>]` and
 * `complete template <uriTemplate> <variable> [<prefix>]`, with `--context` (the other arguments).
 *
 * Spec: MCP 2026-07-28 "Completion" (`completion/complete`: `ref/prompt`, `ref/resource`, `argument`, `context.arguments`).
 */

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
      'complete needs what to complete: complete prompt <name> <argument> [<prefix>] or complete template <uriTemplate> <variable> [<prefix>]',
    );
  const names = what === 'prompt' ? ['a prompt name', 'an argument name'] : ['a URI template', 'a variable name'];
  if (!target) throw new CompleteUsageError(`complete ${what} needs ${names[0]}`);
  if (!argument) throw new CompleteUsageError(`complete ${what} ${target} needs ${names[1]}`);
  if (extra.length) throw new CompleteUsageError(`unexpected argument "${extra[0]}"`);
  const strings: Record<string, string> = {};
  for (const [k, v] of Object.entries(context ?? {})) {
    if (typeof v !== 'string') throw new CompleteUsageError(`--context values are strings; "${k}" is ${typeof v}`);
    strings[k] = v;
  }
  return {
    kind: 'complete',
    ref: what === 'prompt' ? { type: 'ref/prompt', name: target } : { type: 'ref/resource', uri: target },
    argument: { name: argument, value: prefix },
    ...(context ? { context: strings } : {}),
  };
}
