// busy_report: load shedding; the first answer is a state-only input_required ("retry later").
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { defineTool, textResult } from '../tool';

/** The ticket handed out on the first round; proves on the retry that the request was queued. */
interface QueuedState {
  ticket: string;
  queuedAt: string;
}

const Args = z.object({
  topic: z.string().min(1).max(80).default('weekly sales').describe('What the report is about (optional).'),
});

/**
 * `busy_report`: round 1 returns only `requestState` (no `inputRequests`: the spec's load-shedding
 * case in basic/patterns/mrtr, which a client may retry at once); the retry completes. Needs nothing.
 */
export const busyReport = defineTool<typeof Args, QueuedState>({
  name: 'busy_report',
  title: 'Busy report',
  description:
    'Builds a small report while pretending to be busy: the first answer only says "try again shortly" (no questions for you), and the automatic retry returns the report.',
  args: Args,
  needs: {},
  async run({ topic }, round) {
    const state = round.state;
    if (state === undefined) {
      return round.later({ ticket: randomBytes(6).toString('hex'), queuedAt: new Date().toISOString() });
    }
    return textResult(
      `Report on ${topic} is ready (ticket ${state.ticket}, queued at ${state.queuedAt}, served after one state-only round).`,
      {
        status: 'ready',
        topic,
        ticket: state.ticket,
        queuedAt: state.queuedAt,
      },
    );
  },
});
