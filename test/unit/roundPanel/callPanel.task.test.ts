/**
 * A task's inputs in the round panel: the panel's view carries the task (id, status, message) so its
 * header says it is a task and its status; an ordinary call's view carries none. Also a 2025-era
 * task's pushed request: its round names the task the call runs as.
 */
import assert from 'node:assert/strict';
import { CallPanel } from '../../../src/vscode/roundPanel/callPanel';
import { LegacyPushes } from '../../../src/core/connection/legacyPush';
import { ctx, F1, FakeHost, form, round } from '../../support/panels';
import type { RoundInfo } from '../../../src/core/inputs/inputProvider';

describe('round panel: a task asks', () => {
  it("the view of a task's round names the task and its status; a plain call's does not", () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const r = { ...round([['q1', 'elicitation/create']]), task: { id: 't1', status: 'input_required', statusMessage: 'need a hint' } };
    void flow.elicit(form(F1), ctx(r, 'q1'));
    assert.deepEqual(host.last.task, { id: 't1', status: 'input_required', statusMessage: 'need a hint' });
    const plain = new FakeHost();
    void new CallPanel(8, plain).elicit(form(F1), ctx(round([['a', 'elicitation/create']], 1, 8), 'a'));
    assert.equal(plain.last.task, undefined);
  });

  it("a 2025-era task's pushed request is a round that names the task", async () => {
    const seen: RoundInfo[] = [];
    const pushes = new LegacyPushes({
      server: 'fx',
      provider: {
        elicit: async (_p: unknown, c: { round: RoundInfo }) => {
          seen.push(c.round);
          return { action: 'decline' };
        },
      } as never,
      emit: () => {},
      warn: () => {},
    });
    const end = pushes.beginFlow({
      flowId: 3,
      method: 'tools/call',
      target: 'research',
      task: () => ({ id: 'task-9', status: 'input_required' }),
    });
    const answer = (pushes as unknown as { answer: (m: string, id: number, p: unknown, s: AbortSignal) => Promise<unknown> }).answer.bind(
      pushes,
    );
    await answer(
      'elicitation/create',
      1,
      { mode: 'form', message: 'Which?', requestedSchema: { type: 'object', properties: {} } },
      new AbortController().signal,
    ).catch(() => {});
    end();
    assert.deepEqual(seen[0]?.task, { id: 'task-9', status: 'input_required' });
  });
});
