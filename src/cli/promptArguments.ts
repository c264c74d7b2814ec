/**
 * A prompt's arguments (`prompt <name>`) and a resource template's variables (`read <uriTemplate>`)
 * asked at the terminal, those not given in `--args`, Tab completing each through the server's
 * `completion/complete`.
 *
 * Spec: MCP 2026-07-28 "Prompts" (`arguments`: name, description, required) , "Resources"
 * (resource templates) and "Completion" (`ref/prompt`, `ref/resource`, `context.arguments`: the
 * arguments given so far).
 */
import type { ServerConnection } from '../core/connection/serverConnection';
import { HostError } from '../core/util/errors';
import { isPlainObject } from '../core/util/json';
import { complete } from '../core/connection/completion';
import { variablesOf } from '../core/arguments/uriTemplate';
import type { Ask, Completer } from './terminalPrompt';
import { label, promptText } from './terminalText';
import { cliList, cliText } from './messages';

/** One argument of a listed prompt. */
interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** The arguments of the prompt `name` as listed, or `undefined` when the server does not list it. */
function argumentsOf(prompts: unknown[], name: string): PromptArgument[] | undefined {
  const prompt = prompts.find((p) => isPlainObject(p) && p.name === name) as { arguments?: unknown } | undefined;
  if (!prompt) return undefined;
  return (Array.isArray(prompt.arguments) ? prompt.arguments : []).filter(
    (a): a is PromptArgument => isPlainObject(a) && typeof a.name === 'string',
  );
}

/**
 * Ask the arguments of prompt `name` that `given` lacks, one by one; a required one until it has a
 * value, an optional one left out on Enter. Tab offers the server's completions (when it has the
 * `completions` capability), within `COMPLETION_WAIT_MS`.
 * @returns `given` with the answers added (unchanged when the server does not list the prompt)
 * @throws HostError `cancelled` on `:cancel`, Ctrl+C or Ctrl+D; what listing the prompts throws
 */
export async function askPromptArguments(
  conn: ServerConnection,
  name: string,
  given: Record<string, string>,
  io: AskIo,
): Promise<Record<string, string>> {
  const args = argumentsOf(await conn.list('prompts', { signal: io.signal, timeoutMs: io.timeoutMs }), name);
  return askEach(conn, { type: 'ref/prompt', name }, args ?? [], given, io);
}

/**
 * Ask the variables of the resource template `uriTemplate` that `given` lacks, one by one, each until
 * it has a value (a template is expanded with all of them), Tab offering the server's completions
 * (`ref/resource`) as for a prompt's arguments.
 * @returns `given` with the answers added
 * @throws HostError `cancelled` on `:cancel`, Ctrl+C or Ctrl+D
 */
export async function askTemplateVariables(
  conn: ServerConnection,
  uriTemplate: string,
  given: Record<string, unknown>,
  io: AskIo,
): Promise<Record<string, unknown>> {
  // The connection is needed for its capabilities (whether Tab can suggest) before the first question.
  await conn.ensureConnected(io.signal);
  const variables = variablesOf(uriTemplate).map((n) => ({ name: n, required: true }));
  return askEach(conn, { type: 'ref/resource', uri: uriTemplate }, variables, given, io);
}

/** What asking at the terminal needs: the reader, where questions go, the call's signal and limit. */
interface AskIo {
  ask: Ask;
  out: NodeJS.WritableStream;
  signal: AbortSignal;
  timeoutMs?: number;
}

/** Ask each of `args` that `given` lacks, Tab completing it through `completion/complete` for `ref`. */
async function askEach<T>(
  conn: ServerConnection,
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
  args: PromptArgument[],
  given: Record<string, T | string>,
  io: AskIo,
): Promise<Record<string, T | string>> {
  const missing = args.filter((a) => !Object.prototype.hasOwnProperty.call(given, a.name));
  if (!missing.length) return given;
  const values = { ...given };
  const completes = !!conn.serverCapabilities?.completions;
  const server = label(conn.name);
  const one = missing.length === 1;
  const heading =
    ref.type === 'ref/prompt'
      ? one
        ? cliText('{0} prompt {1} takes an argument', server, label(ref.name))
        : cliText('{0} prompt {1} takes arguments', server, label(ref.name))
      : one
        ? cliText('{0} template {1} has a variable', server, label(ref.uri))
        : cliText('{0} template {1} has variables', server, label(ref.uri));
  const hints = [
    completes ? cliText('Tab suggests') : undefined,
    ref.type === 'ref/prompt' ? cliText('Enter leaves an optional one out') : undefined,
    cliText(':cancel cancels'),
  ];
  io.out.write(
    `\n${heading} (${cliList(
      hints.filter((h): h is string => h !== undefined),
      'parts',
    )}):\n`,
  );
  for (const a of missing) {
    if (a.description) io.out.write(`  ${label(a.name)}: ${promptText(a.description, '    ')}\n`);
    // The other arguments given so far, as strings, narrow the server's suggestions (`context.arguments`).
    const context = () => Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const suggest: Completer | undefined = completes
      ? (line, signal) => complete(conn, { ref, argument: { name: a.name, value: line }, context: context() }, { signal })
      : undefined;
    for (;;) {
      const answer = await io.ask(`  ${label(a.name)}${a.required ? ` (${cliText('required')})` : ''}: `, io.signal, false, suggest);
      if (answer === ':cancel') throw new HostError('cancelled', 'cancelled at the terminal');
      if (answer) values[a.name] = answer;
      else if (a.required) {
        io.out.write(`    ${cliText('Required: type a value')}${completes ? ` (${cliText('Tab suggests')})` : ''}\n`);
        continue;
      }
      break;
    }
  }
  return values;
}
