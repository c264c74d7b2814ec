/**
 * The `complete` command's checks of what it completes: a template's variable before the server is
 * asked (the template says its variables), and after an answer without suggestions, whether the
 * prompt and its argument exist (a name typed wrong is a usage error, exit 2, naming the right ones).
 *
 * Spec: MCP 2026-07-28 "Completion", "Prompts" (`prompts/list`, `arguments`), "Resources" (templates, RFC 6570).
 */
import { variablesOf } from '../core/arguments/uriTemplate';
import type { CompletionQuery } from '../core/connection/completion';
import type { ServerConnection } from '../core/connection/serverConnection';
import { HostError } from '../core/util/errors';
import { oneLine } from '../core/util/shownText';
import { cliList, cliText } from './messages';

/** Names as a list for a message, each on one line and cut, the list cut past 20. */
function named(names: string[]): string {
  const shown = names.slice(0, 20).map((n) => oneLine(n, 80));
  if (names.length > 20) shown.push(cliText('… and {0} more', names.length - 20));
  return shown.length ? cliList(shown) : cliText('none');
}

/**
 * Check a template variable before the server is asked.
 * @throws HostError `usage` when `c` completes a variable the template does not have, naming its variables
 */
export function checkTemplateVariable(c: CompletionQuery): void {
  if (c.ref.type !== 'ref/resource') return;
  const names = variablesOf(c.ref.uri);
  if (!names.includes(c.argument.name))
    throw new HostError(
      'usage',
      `complete template ${c.ref.uri}: the template has no variable "${c.argument.name}" (its variables: ${named(names)})`,
    );
}

/**
 * What to say when the server suggests nothing: for a prompt, its argument is checked against the
 * server's listing first.
 * @returns the stderr line, e.g. `server-everything suggests nothing for department of prompt completable-prompt`
 * @throws HostError `usage` when the prompt is not listed, or has no such argument (naming the prompts or its
 *   arguments); what listing throws
 */
export async function noSuggestion(
  conn: ServerConnection,
  c: CompletionQuery,
  opts: { signal?: AbortSignal; timeoutMs?: number },
): Promise<string> {
  const what = c.ref.type === 'ref/prompt' ? `prompt ${c.ref.name}` : `template ${c.ref.uri}`;
  if (c.ref.type === 'ref/prompt') {
    const name = c.ref.name;
    const prompts = (await conn.list('prompts', opts)) as Record<string, unknown>[];
    const prompt = prompts.find((p) => p.name === name);
    if (!prompt)
      throw new HostError(
        'usage',
        `complete prompt ${name}: ${conn.name} lists no such prompt (its prompts: ${named(prompts.map((p) => String(p.name)))})`,
      );
    const args = (Array.isArray(prompt.arguments) ? (prompt.arguments as Record<string, unknown>[]) : []).map((a) => String(a.name));
    if (!args.includes(c.argument.name))
      throw new HostError(
        'usage',
        `complete prompt ${name}: the prompt has no argument "${c.argument.name}" (its arguments: ${named(args)})`,
      );
  }
  return c.argument.value
    ? cliText('{0} suggests nothing for {1} of {2} starting "{3}"', conn.name, c.argument.name, what, c.argument.value)
    : cliText('{0} suggests nothing for {1} of {2}', conn.name, c.argument.name, what);
}
