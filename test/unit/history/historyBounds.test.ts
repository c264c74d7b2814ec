/**
 * A hostile server's calls in the history (issue 44): 32 `inputRequests` keys of 300 000 characters,
 * 9 rounds a call, through the real MRTR loop and recorder into the store. Keys are kept as the log
 * shows them, a record is bounded in rounds, inputs and size, and the stored history in size (oldest
 * dropped first).
 */
import assert from 'node:assert/strict';
import { CallRecorder, MAX_KEPT_INPUTS, MAX_KEPT_KEY_CHARS, MAX_KEPT_ROUNDS } from '../../../src/core/history/callRecorder';
import type { CallRecord } from '../../../src/core/history/callRecord';
import { HistoryStore, MAX_HISTORY_CHARS } from '../../../src/core/history/historyStore';
import { answersFromRecord } from '../../../src/core/history/savedCalls';
import type { InputProvider } from '../../../src/core/inputs/inputProvider';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { jsonSize } from '../../../src/core/util/json';
import { scriptedConnection } from '../../support/inMemory';
import { scriptedProvider } from '../../support/providers';
import { done, type Json, type Reply } from '../../support/scripted';

const LONG = 300_000;
const FORM = { type: 'object', properties: { ok: { type: 'boolean' } } };

/** `keys` inputs of LONG-character keys a round, for `rounds` rounds, then a result. */
function hostile(keys: number, rounds: number) {
  return (_msg: Json, n: number): Reply => {
    if (n > rounds) return done('ok');
    const inputRequests: Record<string, unknown> = {};
    for (let k = 0; k < keys; k++)
      inputRequests[`${String(k).padStart(2, '0')}${'k'.repeat(LONG)}`] = {
        method: 'elicitation/create',
        params: { mode: 'form', message: 'ok?', requestedSchema: FORM },
      };
    return { result: { resultType: 'input_required', inputRequests } };
  };
}

async function recordCall(keys: number, rounds: number, maxRounds = 40): Promise<CallRecord> {
  const recorder = new CallRecorder({ id: `h${Math.random()}`, server: 'evil', method: 'tools/call', target: 't', params: { name: 't' } });
  const provider: InputProvider = {
    ...scriptedProvider({}),
    elicit: () => Promise.resolve({ action: 'accept', content: { ok: true } }),
  };
  const { conn } = scriptedConnection(hostile(keys, rounds), { provider });
  const r = await callWithRoundTrips(
    conn,
    'tools/call',
    { name: 't', arguments: {} },
    {
      provider: recorder.provider(provider),
      onEvent: recorder.onEvent,
      maxRounds,
    },
  );
  return recorder.finish(r.result, 'modern');
}

describe('call history bounds (a hostile server)', function () {
  this.timeout(60_000);

  it('keeps each key as the log shows it (cut, marked), so a call of 32 keys × 300 000 characters × 9 rounds stays small', async () => {
    const record = await recordCall(32, 9);
    assert.equal(record.rounds.length, 9);
    for (const round of record.rounds) {
      assert.equal(round.inputs.length, MAX_KEPT_INPUTS);
      assert.equal(round.inputsNotKept, 32 - MAX_KEPT_INPUTS);
      for (const input of round.inputs) {
        assert.ok(input.key.length <= MAX_KEPT_KEY_CHARS + 1, `${input.key.length}`);
        assert.equal(input.keyCut, true);
        assert.equal(input.answer?.action, 'accept');
      }
    }
    assert.ok(jsonSize(record) < 250_000, `${jsonSize(record)} characters`);
    // A cut key is not the server's: Save Call… never writes an answer under it.
    const { answers, unscripted } = answersFromRecord(record);
    assert.deepEqual(answers, {});
    assert.equal(unscripted.length, MAX_KEPT_INPUTS);
  });

  it('counts the rounds past the bound instead of keeping them', async () => {
    const record = await recordCall(1, MAX_KEPT_ROUNDS + 5);
    assert.equal(record.rounds.length, MAX_KEPT_ROUNDS);
    assert.equal(record.roundsNotKept, 5);
  });

  it('bounds the stored history in size, the oldest dropped first', async () => {
    let stored: unknown;
    const store = new HistoryStore({ get: () => stored, set: async (v) => void (stored = v) }, () => 1000);
    const big = (i: number): CallRecord => ({
      id: `h${i}`,
      server: 's',
      method: 'tools/call',
      target: 't',
      startedAt: i,
      totalMs: 1,
      waitingMs: 0,
      status: 'complete',
      rounds: [],
      result: { content: [{ type: 'text', text: 'x'.repeat(200_000) }] },
    });
    const count = Math.ceil(MAX_HISTORY_CHARS / 200_000) + 10;
    for (let i = 0; i < count; i++) await store.add(big(i));
    assert.ok(jsonSize(stored) <= MAX_HISTORY_CHARS + 100, `${jsonSize(stored)}`);
    const ids = store.list().map((r) => r.id);
    assert.equal(ids[0], `h${count - 1}`, 'the newest is kept');
    assert.ok(!ids.includes('h0'), 'the oldest went first');
    // A record stored before the bounds, larger than the whole bound, goes alone when read back.
    const huge = { ...big(count), id: 'huge', result: { content: [{ type: 'text', text: 'y'.repeat(MAX_HISTORY_CHARS) }] } };
    stored = { version: 1, calls: [huge, big(1)] };
    assert.deepEqual(
      new HistoryStore({ get: () => stored, set: async (v) => void (stored = v) }, () => 50).list().map((r) => r.id),
      ['h1'],
    );
  });
});
