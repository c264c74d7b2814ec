/**
 * One line reader on the terminal, shared by everything the CLI asks (form fields, URL consent, a
 * pasted sign-in URL): a second reader on the same stdin would echo twice and lose buffered lines.
 * Lines typed ahead or pasted several at once answer the next questions in order.
 * Questions go to stderr so stdout stays the result.
 */
import type { Interface } from 'node:readline/promises';
import { HostError } from '../core/util/errors';
import { oneLine } from '../core/util/shownText';
import { cliList, cliText } from './messages';

/**
 * Ask one question; resolves to the line, trimmed unless `keepSpaces` (a line of a written reply).
 * @param complete what Tab offers for the line typed so far (a terminal only), see {@link Completer}
 */
export type Ask = (question: string, signal: AbortSignal, keepSpaces?: boolean, complete?: Completer) => Promise<string>;

/** The suggestions for the line typed so far (e.g. from the server's `completion/complete`). */
export type Completer = (line: string, signal: AbortSignal) => Promise<readonly string[]>;

/** How long Tab waits for suggestions before it offers none, ms. */
export const COMPLETION_WAIT_MS = 3000;
/** Most suggestions Tab offers. */
export const MAX_COMPLETIONS = 100;

/** Why a question was cancelled, as the run's last line says it (both have zh-cn entries in messages.ts). */
const CANCELLED_BY_CTRL_C = 'cancelled at the terminal (Ctrl+C)';
const CANCELLED_INPUT_ENDED = 'cancelled at the terminal (the input ended)';

/** Lines kept for questions not asked yet; a paste longer than this keeps its first lines. */
export const MAX_TYPED_AHEAD = 1000;

/**
 * A prompter over `input` (its reader created on the first question). A line that comes while no
 * question is open (typed ahead, or the rest of a paste) is kept and answers the next question, which
 * is then written with a line break so the transcript still reads question by question.
 * @param interrupt what Ctrl+C at a question does: at a terminal in raw mode it is a key, not a
 *   signal, so the run's own Ctrl+C (the first cancels the call, the second stops the server) is called
 *   here; without one the question is cancelled
 * @throws (from `ask`) HostError `cancelled` on Ctrl+C (with no `interrupt`) / Ctrl+D at the prompt,
 *   or when the input has ended with no line left for the question; the signal's reason when it aborts
 */
export function createPrompter(out: NodeJS.WritableStream, input: NodeJS.ReadableStream = process.stdin, interrupt?: () => void): Ask {
  let rl: Interface | undefined;
  const typedAhead: string[] = [];
  let closed: Promise<never> | undefined;
  // The open question's completer, if it has one: readline's completer is set once, for the reader.
  let completing: Completer | undefined;
  const completer = async (line: string): Promise<[string[], string]> => {
    const current = completing;
    if (!current) return [[], line];
    const ac = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<readonly string[]>((resolve) => (timer = setTimeout(() => resolve([]), COMPLETION_WAIT_MS)));
    try {
      const found = await Promise.race([current(line, ac.signal).catch(() => [] as readonly string[]), late]);
      // Tab completes the whole line: only suggestions that carry on what is typed, each on one line.
      return [
        found
          .filter((v) => v.startsWith(line))
          .slice(0, MAX_COMPLETIONS)
          .map((v) => oneLine(v, 200)),
        line,
      ];
    } finally {
      clearTimeout(timer);
      ac.abort();
    }
  };
  const reader = (): Interface => {
    if (rl) return rl;
    // Loaded on the first question, not with the CLI (most calls ask nothing at the terminal).
    // `require`, not `import()`: the CLI's bundle runs in a vm.Script on Node < 22.1 (compileCache.ts),
    // where a dynamic import throws.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const readline = require('node:readline/promises') as typeof import('node:readline/promises');
    const created = readline.createInterface({ input, output: out, terminal: (input as { isTTY?: boolean }).isTTY === true, completer });
    // readline hands a line to the open question, and emits 'line' only when none is open: without
    // this listener every line after the first of a paste would be dropped.
    created.on('line', (line: string) => {
      if (typedAhead.length < MAX_TYPED_AHEAD) typedAhead.push(line);
    });
    // readline closes the input for Ctrl+C unless the interface has a listener for it.
    let interrupted = false;
    created.on('SIGINT', () => {
      if (interrupt) return interrupt();
      interrupted = true;
      created.close();
    });
    // An open question is not settled by readline when the input ends: it would wait for ever.
    closed = new Promise<never>((_, reject) =>
      created.once('close', () => reject(new HostError('cancelled', interrupted ? CANCELLED_BY_CTRL_C : CANCELLED_INPUT_ENDED))),
    );
    closed.catch(() => {});
    return (rl = created);
  };
  return async (question, signal, keepSpaces = false, complete) => {
    if (signal.aborted) throw abortedBy(signal);
    const r = reader();
    let answer = typedAhead.shift();
    if (answer !== undefined) out.write(`${question}\n`);
    else {
      completing = complete;
      try {
        answer = await Promise.race([r.question(question, { signal }), closed!]);
      } catch (e) {
        // Ctrl+D at a prompt (readline's own AbortError, the terminal being in raw mode), or a question
        // after the input closed, cancels the call; Ctrl+C is the SIGINT listener's above.
        if (signal.aborted) throw abortedBy(signal);
        if ((e as { code?: string }).code === 'ABORT_ERR')
          throw new HostError('cancelled', `cancelled at the terminal (${(e as Error).message.replace(/^Aborted with /, '')})`);
        if ((e as { code?: string }).code === 'ERR_USE_AFTER_CLOSE') throw new HostError('cancelled', CANCELLED_INPUT_ENDED);
        throw e;
      } finally {
        completing = undefined;
      }
    }
    return keepSpaces ? answer : answer.trim();
  };
}

/**
 * What a question cut by `signal` rejects with: the signal's reason, except a bare abort (the run's
 * Ctrl+C aborts with none, so the reason is the platform's AbortError, "This operation was aborted"),
 * which is HostError `cancelled`: the run then ends as cancelled (exit 130), not as an error.
 */
function abortedBy(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  const bare = reason === undefined || (!(reason instanceof HostError) && (reason as { name?: unknown }).name === 'AbortError');
  return bare ? new HostError('cancelled', CANCELLED_BY_CTRL_C) : reason;
}

/**
 * Ask until the answer is one of `choices` (case-insensitive): a typo is never taken for one of them
 * (say, "yes please" for "no"). The choices are named again after an answer that is none of them.
 * @param choices the answers accepted, each with what it stands for (e.g. `{ y: 'accept', yes: 'accept', n: 'decline' }`)
 * @throws what `ask` throws (cancelled)
 */
export async function askChoice<T>(
  ask: Ask,
  out: NodeJS.WritableStream,
  question: string,
  choices: Record<string, T>,
  signal: AbortSignal,
): Promise<T> {
  for (;;) {
    const answer = (await ask(question, signal)).toLowerCase();
    if (Object.prototype.hasOwnProperty.call(choices, answer)) return choices[answer];
    out.write(`  ${cliText('Type one of: {0}.', cliList(Object.keys(choices)))}\n`);
  }
}
