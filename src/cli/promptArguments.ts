/**
 * A prompt's arguments asked at the terminal (`prompt <name>` on a terminal, for the arguments not
 * given in `--args`), Tab completing each through the server's `completion/complete`.
 *
 * Spec: MCP 2026-07-28 "Prompts" (`arguments`: name, description, required) and "Completion"
 * (`ref/prompt`, `context.arguments`: the arguments given so far).
 */
import type { ServerConnection } from '../core/connection/serverConnection';
import { HostError } from '../core/util/errors';
import { isPlainObject } from '../core/util/json';
import { complete } from '../core/connection/completion';
import type { Ask, Completer } from './terminalPrompt';
import { label, promptText } from './terminalText';

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
  io: { ask: Ask; out: NodeJS.WritableStream; signal: AbortSignal; timeoutMs?: number },
): Promise<Record<string, string>> {
  const args = argumentsOf(await conn.list('prompts', { signal: io.signal, timeoutMs: io.timeoutMs }), name);
  const missing = (args ?? []).filter((a) => !Object.prototype.hasOwnProperty.call(given, a.name));
  if (!missing.length) return given;
  const values = { ...given };
  const completes = !!conn.serverCapabilities?.completions;
  io.out.write(
    `\n${label(conn.name)} prompt ${label(name)} takes ${missing.length === 1 ? 'an argument' : 'arguments'}` +
      ` (${completes ? 'Tab suggests; ' : ''}Enter leaves an optional one out; :cancel cancels):\n`,
  );
  for (const a of missing) {
    if (a.description) io.out.write(`  ${label(a.name)}: ${promptText(a.description, '    ')}\n`);
    const suggest: Completer | undefined = completes
      ? (line, signal) =>
          complete(conn, { ref: { type: 'ref/prompt', name }, argument: { name: a.name, value: line }, context: { ...values } }, { signal })
      : undefined;
    for (;;) {
      const answer = await io.ask(`  ${label(a.name)}${a.required ? ' (required)' : ''}: `, io.signal, false, suggest);
      if (answer === ':cancel') throw new HostError('cancelled', 'cancelled at the terminal');
      if (answer) values[a.name] = answer;
      else if (a.required) {
        io.out.write(`    Required: type a value${completes ? ' (Tab suggests)' : ''}\n`);
        continue;
      }
      break;
    }
  }
  return values;
}
