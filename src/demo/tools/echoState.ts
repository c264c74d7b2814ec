// echo_state: returns the requestState string it received, so a host can check its echo is byte-exact.
import { randomBytes } from 'node:crypto';
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { FormSchema } from '../round';
import { defineTool, textResult } from '../tool';

/** The `inputRequests` key of the trivial question. */
export const CONTINUE_KEY = 'continue';

/** A yes/no question whose answer does not matter. */
export const CONTINUE_FORM: FormSchema = {
  type: 'object',
  properties: { ok: { type: 'boolean', title: 'Continue?', default: true } },
  required: ['ok'],
};

/** A nonce makes every minted state unique, so a stale echo cannot pass for a fresh one. */
interface EchoState {
  nonce: string;
}

const Args = z.object({});

/** `echo_state`: round 1 asks a trivial question with a `requestState`; the retry returns that state verbatim as text. */
export const echoState = defineTool<typeof Args, EchoState>({
  name: 'echo_state',
  title: 'Echo request state',
  description:
    'A diagnostic: asks a trivial question, then returns, as text, the exact requestState string the host sent back, so you can check the host echoes it byte for byte.',
  args: Args,
  needs: { elicitation: { form: {} } },
  async run(_args, round) {
    // Any verified retry answers, whatever the user did with the question: the point is the echo.
    if (round.rawState !== undefined && round.state !== undefined) return textResult(round.rawState);
    return round.ask(
      {
        [CONTINUE_KEY]: inputRequired.elicit({
          message: 'Continue? (Any answer will do: this tool only checks that the state comes back unchanged.)',
          requestedSchema: CONTINUE_FORM,
        }),
      },
      { nonce: randomBytes(8).toString('hex') },
    );
  },
});
