// ask_until_valid: re-asks the same question until a rule JSON Schema cannot express holds.
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { FormSchema } from '../round';
import { defineTool, textResult } from '../tool';

/** The `inputRequests` key, the same in every round. */
export const CODE_KEY = 'code';
/** After this many rejected answers the tool stops asking. */
export const MAX_ATTEMPTS = 10;
const MIN_LETTERS = 5;

/** The form: one string. Its schema can bound the length but not say "palindrome". */
export const CODE_FORM: FormSchema = {
  type: 'object',
  properties: {
    code: {
      type: 'string',
      title: 'Palindrome code',
      description: `Reads the same backwards, at least ${MIN_LETTERS} letters or digits (case, spaces and punctuation are ignored), e.g. "level".`,
      minLength: MIN_LETTERS,
      maxLength: 64,
    },
  },
  required: ['code'],
};

/** How many times the code has been asked for so far (the message of each round is rebuilt from the answer). */
interface AttemptState {
  attempt: number;
}

const Args = z.object({});

/** `ask_until_valid`: form elicitation repeated (new round, same key) until the answer is a palindrome. */
export const askUntilValid = defineTool<typeof Args, AttemptState>({
  name: 'ask_until_valid',
  title: 'Ask until valid',
  description: `Asks you for a palindrome code (at least ${MIN_LETTERS} letters or digits) and keeps asking, explaining what was wrong, until the answer reads the same backwards.`,
  args: Args,
  needs: { elicitation: { form: {} } },
  async run(_args, round) {
    const attempt = round.state?.attempt ?? 0; // answers already asked for
    const answer = round.answer(CODE_KEY);
    if (attempt > 0 && answer.kind === 'elicit' && answer.action !== 'accept') {
      const how = answer.action === 'decline' ? 'you declined' : 'the form was closed';
      return textResult(`No code accepted: ${how} on attempt ${attempt}.`, {
        status: answer.action === 'decline' ? 'declined' : 'cancelled',
        attempts: attempt,
      });
    }

    let message = `Enter a code that reads the same forwards and backwards (at least ${MIN_LETTERS} letters or digits; case, spaces and punctuation are ignored).`;
    if (attempt > 0 && answer.kind === 'elicit') {
      const problem = palindromeProblem(answer.content?.code);
      if (problem === undefined) {
        const code = answer.content?.code as string;
        return textResult(`Accepted code "${code}" on attempt ${attempt}.`, { status: 'accepted', code, attempts: attempt });
      }
      if (attempt >= MAX_ATTEMPTS) {
        return textResult(`No code accepted: giving up after ${attempt} attempts (last problem: ${problem}).`, {
          status: 'gave_up',
          attempts: attempt,
        });
      }
      message = `Attempt ${attempt} was not accepted: ${problem}. ${message}`;
    }
    return round.ask({ [CODE_KEY]: inputRequired.elicit({ message, requestedSchema: CODE_FORM }) }, { attempt: attempt + 1 });
  },
});

/** Why `value` is not an acceptable code, or `undefined` when it is. */
export function palindromeProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'no code was given';
  const letters = value.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  if (letters.length < MIN_LETTERS) return `"${value}" has only ${letters.length} letters or digits (need ${MIN_LETTERS})`;
  const reversed = [...letters].reverse().join('');
  if (reversed !== letters) return `"${value}" is not a palindrome (backwards its letters read "${reversed}")`;
  return undefined;
}
