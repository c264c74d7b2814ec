// connect_account: URL-mode elicitation; the retry says whether the user went to the sign-in page.
import { randomBytes } from 'node:crypto';
import { inputRequired } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool, textResult } from '../tool';

/** The `inputRequests` key of the URL elicitation. */
export const CONNECT_KEY = 'connect';
/** Placeholder sign-in origin (`.test` is reserved: it never resolves, so nothing real is opened). */
export const CONNECT_ORIGIN = 'https://auth.example.test';

/** The flow id travels in state so the retry is checked against the URL that was actually shown. */
interface ConnectState {
  flow: string;
  url: string;
}

const Args = z.object({
  service: z.string().min(1).max(60).default('Demo Calendar').describe('Name of the account to connect (optional).'),
});

/**
 * `connect_account`: asks the user to open a sign-in URL (spec: client/elicitation, URL mode),
 * completes on the retry: accept -> connected, decline/cancel -> not connected. Needs
 * elicitation.url.
 */
export const connectAccount = defineTool<typeof Args, ConnectState>({
  name: 'connect_account',
  title: 'Connect an account',
  description:
    'Connects a (pretend) account by asking you to open a sign-in page in your browser. The page is on a placeholder domain and does not exist; accepting only tells the server you went there.',
  args: Args,
  needs: { elicitation: { url: {} } },
  async run({ service }, round) {
    const state = round.state;
    const answer = round.answer(CONNECT_KEY);
    if (state !== undefined && answer.kind === 'elicit') {
      switch (answer.action) {
        case 'accept':
          return textResult(`Connected ${service}: sign-in flow ${state.flow} completed.`, {
            status: 'connected',
            service,
            flow: state.flow,
            url: state.url,
          });
        case 'decline':
          return textResult(`Not connected: you declined to open the ${service} sign-in page.`, {
            status: 'declined',
            service,
            flow: state.flow,
          });
        case 'cancel':
          return textResult(`Not connected: the ${service} sign-in prompt was dismissed.`, {
            status: 'cancelled',
            service,
            flow: state.flow,
          });
      }
    }
    // First round, or a retry that carried no answer: show the same flow again if there is one.
    const flow = state?.flow ?? randomBytes(8).toString('hex');
    const url = state?.url ?? `${CONNECT_ORIGIN}/connect?flow=${flow}`;
    return round.ask(
      {
        [CONNECT_KEY]: inputRequired.elicitUrl({
          message: `Sign in to ${service} to let the demo server connect it. Open the page, sign in, then come back.`,
          url,
        }),
      },
      { flow, url },
    );
  },
});
