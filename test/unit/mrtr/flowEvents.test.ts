/** The round-trip events of one call (src/core/mrtr/flowEvents.ts): plain events, and the round's last answer held until the call's next event. */
import assert from 'node:assert/strict';
import type { HostEvent } from '../../../src/core/log/events';
import { FlowEvents } from '../../../src/core/mrtr/flowEvents';
import type { InputRequestEntry } from '../../../src/core/inputs/inputProvider';

describe('flow events', () => {
  const flow = { flowId: 3, server: 'demo', method: 'tools/call' as const, target: 'where_am_i' };
  const roots: InputRequestEntry = { key: 'roots', method: 'roots/list', params: {} };
  const form: InputRequestEntry = { key: 'form', method: 'elicitation/create', params: { mode: 'form' } };

  it('every event carries the flow identity as plain fields', () => {
    const got: HostEvent[] = [];
    new FlowEvents({ ...flow, historyId: 'h1' }, (e) => got.push(e)).request(7);
    assert.deepEqual(got, [
      { flowId: 3, server: 'demo', method: 'tools/call', target: 'where_am_i', historyId: 'h1', round: 0, kind: 'request', id: 7 },
    ]);
  });

  it("an answer that is not the round's last is sent at once; the last waits for the call's next event, and keeps its waiting time", () => {
    const got: HostEvent[] = [];
    const events = new FlowEvents(flow, (e) => got.push(e));
    const waitStarted = Date.now() - 1500;
    events.answer(1, form, { action: 'accept', content: { name: 'Ada' } }, waitStarted);
    assert.deepEqual(
      got.map((e) => e.kind),
      ['answer'],
    );
    events.answer(1, roots, { roots: [{ uri: 'file:///w' }] }, waitStarted, true);
    assert.deepEqual(
      got.map((e) => e.kind),
      ['answer'],
      'held',
    );
    events.retry(1, { id: 2, sentParams: {} }, 1, { form: { action: 'accept' }, roots: { roots: [] } }, { has: false }, 0);
    assert.deepEqual(
      got.map((e) => (e.kind === 'answer' ? `answer ${e.key}` : e.kind)),
      ['answer form', 'answer roots', 'retry'],
    );
    const held = got[1] as Extract<HostEvent, { kind: 'answer' }>;
    assert.equal(held.summary, '1 root(s): file:///w');
    assert.ok(held.waitedMs >= 1500 && held.waitedMs < 60_000, String(held.waitedMs));
  });

  it('a held answer is sent before an error too', () => {
    const got: HostEvent[] = [];
    const events = new FlowEvents(flow, (e) => got.push(e));
    events.answer(1, roots, { roots: [] }, Date.now(), true);
    events.error(1, 1, { kind: 'cancelled', message: 'x' }, { totalMs: 1, waitingMs: 0 });
    assert.deepEqual(
      got.map((e) => e.kind),
      ['answer', 'error'],
    );
  });
});
