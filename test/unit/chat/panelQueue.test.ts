/**
 * Calls from chat take turns in the round panel: a call's inputs wait until every call that asked
 * before it has ended; waiting is said once; a call cancelled while it waits leaves the queue, and a
 * call cancelled while it holds the panel lets the next one in.
 */
import assert from 'node:assert/strict';
import { PanelQueue } from '../../../src/core/chat/panelQueue';
import type { InputContext, InputProvider, RoundInfo } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';

function round(flowId: number, n = 1): RoundInfo {
  return {
    flowId,
    server: 'demo',
    method: 'tools/call',
    target: 'plan_trip',
    round: n,
    inputs: [{ key: 'trip', method: 'elicitation/create', params: {} }],
    era: 'modern',
  };
}
const ctx = (flowId: number, signal = new AbortController().signal, n = 1): InputContext => ({
  round: round(flowId, n),
  key: 'trip',
  signal,
});

/** A host provider that records which flow asked, in order. */
function host(): InputProvider & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    capabilities: { elicitation: { form: {} }, roots: {} },
    elicit: async (_p, c) => (asked.push(c.round.flowId), { action: 'accept', content: {} }),
    sample: async () => Promise.reject(new Error('no sampling')),
    listRoots: async (c) => (asked.push(c.round.flowId), { roots: [] }),
  };
}
const turn = () => new Promise((r) => setImmediate(r));

describe('chat panel queue', () => {
  it('answers a second call only once the first one ended, and says once that it waits', async () => {
    const queue = new PanelQueue();
    const h = host();
    const waited: number[] = [];
    const p = queue.provider(h, (r) => waited.push(r.flowId));
    assert.deepEqual(p.capabilities, h.capabilities);
    await p.elicit({ message: 'a', requestedSchema: { type: 'object', properties: {} } }, ctx(1));
    const second = p.listRoots(ctx(2));
    const third = p.listRoots(ctx(3));
    await turn();
    assert.deepEqual(h.asked, [1], 'flows 2 and 3 wait');
    assert.deepEqual(waited, [2, 3]);
    // Flow 1's later rounds go straight through: it holds the panel.
    await p.listRoots(ctx(1, undefined, 2));
    assert.deepEqual(h.asked, [1, 1]);
    queue.end(1);
    await second;
    await turn();
    assert.deepEqual(h.asked, [1, 1, 2], 'flow 3 still waits for flow 2');
    queue.end(2);
    await third;
    assert.deepEqual(h.asked, [1, 1, 2, 3]);
    queue.end(3);
    await turn();
    assert.equal(queue.size, 0);
  });

  it('a call cancelled while it waits leaves the queue (HostError cancelled); one cancelled while it holds the panel lets the next in', async () => {
    const queue = new PanelQueue();
    const h = host();
    const p = queue.provider(h);
    const first = new AbortController();
    await p.listRoots(ctx(1, first.signal));
    const waiting = new AbortController();
    const second = Promise.resolve(p.listRoots(ctx(2, waiting.signal))).catch((e: unknown) => e);
    const third = p.listRoots(ctx(3));
    waiting.abort(new HostError('cancelled', 'stopped in chat'));
    const e = await second;
    assert.ok(e instanceof HostError && e.kind === 'cancelled', String(e));
    first.abort();
    await third;
    assert.deepEqual(h.asked, [1, 3]);
    queue.end(1);
    queue.end(2);
    queue.end(3);
    await turn();
    assert.equal(queue.size, 0);
  });

  it('ending a flow that never asked changes nothing', async () => {
    const queue = new PanelQueue();
    const h = host();
    const p = queue.provider(h);
    await p.listRoots(ctx(1));
    queue.end(9);
    const second = p.listRoots(ctx(2));
    await turn();
    assert.deepEqual(h.asked, [1]);
    queue.end(1);
    await second;
    assert.deepEqual(h.asked, [1, 2]);
  });
});
