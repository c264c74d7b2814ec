/**
 * The progress line of a call from chat: where to answer, and what ends a round nobody answers
 * (Cancel in the panel; the call limit, which pauses while the person answers); roots and busy
 * rounds say what happens without the person.
 */
import assert from 'node:assert/strict';
import { queuedProgressText, roundProgressText } from '../../../src/core/chat/progressText';
import type { HostEvent } from '../../../src/core/log/events';

const flow = { flowId: 1, server: 'demo', method: 'tools/call' as const, target: 'plan_trip' };
const state = { present: false };
const needs = (round: number, methods: ('elicitation/create' | 'sampling/createMessage' | 'roots/list')[]): HostEvent => ({
  ...flow,
  round,
  kind: 'inputRequired',
  inputs: methods.map((method, i) => ({ key: `k${i}`, method })),
  state,
  legMs: 1,
});

describe('chat progress text', () => {
  it('says where to answer and what ends a forgotten round', () => {
    assert.equal(
      roundProgressText(needs(2, ['elicitation/create']), 300),
      'Round 2: answer in the MCP Roundtrip panel (Cancel there ends the call; the 300 s call limit pauses while you answer)',
    );
    assert.match(
      roundProgressText(needs(1, ['sampling/createMessage', 'roots/list']), 60) ?? '',
      /^Round 1: answer in the MCP Roundtrip panel .*60 s call limit/,
    );
  });

  it('roots-only and state-only rounds need nobody; a retry says the answers went', () => {
    assert.equal(roundProgressText(needs(3, ['roots/list']), 300), 'Round 3: sharing your workspace folders (roots) with demo');
    assert.equal(roundProgressText(needs(1, []), 300), 'Round 1: demo is busy, retrying');
    assert.equal(
      roundProgressText({ ...flow, round: 1, kind: 'retry', keys: ['trip'], state, echoExact: true, delayMs: 0 }, 300),
      'Round 1: answers sent, waiting for demo',
    );
    assert.equal(roundProgressText({ ...flow, round: 0, kind: 'request' }, 300), undefined);
    assert.equal(roundProgressText({ kind: 'connected', server: 'demo', era: 'modern', ms: 1 }, 300), undefined);
  });

  it('a queued call says it waits for the panel', () => {
    assert.equal(
      queuedProgressText({ ...flow, round: 1, inputs: [], era: 'modern' }),
      'Round 1: waiting for the MCP Roundtrip panel, where another call from chat is being answered',
    );
  });
});
