/**
 * One line reader on the terminal, shared by everything the CLI asks (form fields, URL consent, a
 * pasted sign-in URL): a second reader on the same stdin would echo twice and lose buffered lines.
 * Questions go to stderr so stdout stays the result.
 */
import type { Interface } from 'node:readline/promises';
import { HostError } from '../core/util/errors';

/** Ask one question; resolves to the line, trimmed unless `keepSpaces` (a line of a written reply). */
export type Ask = (question: string, signal: AbortSignal, keepSpaces?: boolean) => Promise<string>;

/**
 * A prompter over `input` (created on the first question).
 * @throws (from `ask`) HostError `cancelled` on Ctrl+C / Ctrl+D at the prompt; the signal's reason when it aborts
 */
export function createPrompter(out: NodeJS.WritableStream, input: NodeJS.ReadableStream = process.stdin): Ask {
  let reader: Promise<Interface> | undefined;
  return async (question, signal, keepSpaces = false) => {
    // Loaded on the first question, not with the CLI (most calls ask nothing at the terminal); one
    // reader however many questions come at once. `require`, not `import()`: the CLI's bundle runs in a
    // vm.Script on Node < 22.1 (compileCache.ts), where a dynamic import throws.
    reader ??= Promise.resolve().then(() => (require('node:readline/promises') as typeof import('node:readline/promises')).createInterface({ input, output: out, terminal: (input as { isTTY?: boolean }).isTTY === true }));
    const rl = await reader;
    try {
      const answer = await rl.question(question, { signal });
      return keepSpaces ? answer : answer.trim();
    } catch (e) {
      // Ctrl+C / Ctrl+D at a prompt (readline's own AbortError, the terminal being in raw mode) cancels the call.
      if (!signal.aborted && (e as { code?: string }).code === 'ABORT_ERR') throw new HostError('cancelled', `cancelled at the terminal (${(e as Error).message.replace(/^Aborted with /, '')})`);
      throw e;
    }
  };
}

/**
 * Ask until the answer is one of `choices` (case-insensitive): a typo is never taken for one of them
 * (say, "yes please" for "no"). The choices are named again after an answer that is none of them.
 * @param choices the answers accepted, each with what it stands for (e.g. `{ y: 'accept', yes: 'accept', n: 'decline' }`)
 * @throws what `ask` throws (cancelled)
 */
export async function askChoice<T>(ask: Ask, out: NodeJS.WritableStream, question: string, choices: Record<string, T>, signal: AbortSignal): Promise<T> {
  for (;;) {
    const answer = (await ask(question, signal)).toLowerCase();
    if (Object.prototype.hasOwnProperty.call(choices, answer)) return choices[answer];
    out.write(`  Type one of: ${Object.keys(choices).join(', ')}.\n`);
  }
}
