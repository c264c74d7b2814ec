/**
 * The client rules of MRTR (spec 2026-07-28), asserted on the bytes the host wrote to a scripted
 * server. Field cases F8, F9 and F11 live here too.
 */
import assert from 'node:assert/strict';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import type { RoundTripEvent } from '../../../src/core/log/events';
import { scriptedConnection } from '../../support/inMemory';
import { askName, done, type Json } from '../../support/scripted';
import { scriptedProvider } from '../../support/providers';

const NAME = { action: 'accept', content: { name: 'Ada' } };

describe('MRTR client rules', () => {
  it('retries with a new JSON-RPC id, the original params, the answers under the same keys and the exact state', async () => {
    const s = scriptedConnection((msg, n) => (n === 1 ? askName('who', 'S1') : done()), { provider: scriptedProvider({ who: NAME }) });
    const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 'book', arguments: { date: '2026-12-01', n: 2 } });
    assert.equal(r.rounds, 1);
    const [first, retry] = s.requests('tools/call');
    assert.notEqual(retry.id, first.id);
    assert.equal(retry.params.name, 'book');
    assert.deepEqual(retry.params.arguments, { date: '2026-12-01', n: 2 });
    assert.deepEqual(retry.params.inputResponses, { who: NAME });
    assert.equal(retry.params.requestState, 'S1');
    assert.equal('inputResponses' in first.params, false);
    assert.equal('requestState' in first.params, false);
  });

  it("F8: only the round's own answers, no state key when none was sent, absent inputResponses on a state-only round, nothing in parallel calls", async () => {
    let unrelatedDone!: Promise<unknown>;
    const s = scriptedConnection(
      (msg, n) => {
        if (msg.params.name === 'list_rooms') return done('rooms');
        switch (n) {
          case 1:
            return askName('who', 'S1');
          case 2:
            return {
              result: {
                resultType: 'input_required',
                inputRequests: {
                  room: {
                    method: 'elicitation/create',
                    params: {
                      message: 'Room?',
                      requestedSchema: { type: 'object', properties: { room: { type: 'string', enum: ['A', 'B'] } }, required: ['room'] },
                    },
                  },
                },
              },
            };
          case 3:
            // An unrelated call runs between rounds 2 and 3.
            unrelatedDone = callWithRoundTrips(s.conn, 'tools/call', { name: 'list_rooms', arguments: {} });
            return { result: { resultType: 'input_required', requestState: 'S3' } };
          default:
            return done('booked');
        }
      },
      {
        provider: scriptedProvider({
          who: { action: 'accept', content: { name: 'Placeholder Person' } },
          room: { action: 'accept', content: { room: 'B' } },
        }),
      },
    );
    const args = { date: '2026-12-01' };
    await callWithRoundTrips(s.conn, 'tools/call', { name: 'book_room', arguments: args }, { statePacingMs: 1 });
    await unrelatedDone;
    const legs = s.requests('tools/call').filter((m) => m.params.name === 'book_room');
    assert.equal(legs.length, 4);
    assert.deepEqual(legs[1].params.inputResponses, { who: { action: 'accept', content: { name: 'Placeholder Person' } } });
    assert.equal(legs[1].params.requestState, 'S1');
    assert.deepEqual(Object.keys(legs[2].params.inputResponses), ['room']);
    assert.deepEqual(legs[2].params.inputResponses.room, { action: 'accept', content: { room: 'B' } });
    assert.equal('requestState' in legs[2].params, false);
    assert.equal('inputResponses' in legs[3].params, false);
    assert.equal(legs[3].params.requestState, 'S3');
    assert.equal(new Set(legs.map((l) => l.id)).size, 4);
    for (const l of legs) assert.deepEqual(l.params.arguments, args);
    const unrelated = s.requests('tools/call').filter((m) => m.params.name === 'list_rooms');
    assert.equal(unrelated.length, 1);
    assert.equal('inputResponses' in unrelated[0].params, false);
    assert.equal('requestState' in unrelated[0].params, false);
  });

  describe('F9: requestState is echoed exactly', () => {
    const cases: [string, string][] = [
      ['base64 with +/=', 'eyJ2IjoxfQ==.c2ln+/=='],
      ['a string that looks like JSON', '{"step":2,"total":1.0,"tags":[]}'],
      ['leading/trailing whitespace and newline', '  padded value\n'],
      ['the empty string', ''],
      ['100 000 chars with U+2028 and é', 'é\u2028x'.repeat(33_334).slice(0, 100_000)],
      ['64 KiB ASCII', 'A'.repeat(65_536)],
      ['emoji, right-to-left and combining marks', '👩🏽‍🚀 مرحبا שלום e\u0301 a\u0308\u0304 \u202Eevil'],
      ['JSON-looking with odd whitespace', ' {\t"a" :\r\n 1 ,"b":[ ]}  '],
    ];
    for (const [label, value] of cases) {
      it(label, async () => {
        const s = scriptedConnection((msg, n) => (n === 1 ? askName('k', value) : done()), { provider: scriptedProvider({ k: NAME }) });
        await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
        const retry = s.requests('tools/call')[1];
        assert.equal(typeof retry.params.requestState, 'string');
        assert.equal(retry.params.requestState.length, value.length);
        assert.equal(retry.params.requestState, value);
      });
    }
    it('absent state stays absent', async () => {
      const s = scriptedConnection((msg, n) => (n === 1 ? askName('k') : done()), { provider: scriptedProvider({ k: NAME }) });
      await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
      assert.equal('requestState' in s.requests('tools/call')[1].params, false);
    });
  });

  it('F11: reserved _meta keys from the caller are ignored, others kept, envelope identical on every leg, unique progress tokens', async () => {
    const s = scriptedConnection(async (msg, n) => (n === 1 ? askName('k', 's') : done()), { provider: scriptedProvider({ k: NAME }) });
    const progress: unknown[] = [];
    await callWithRoundTrips(
      s.conn,
      'tools/call',
      { name: 't', arguments: {}, _meta: { 'com.example/trace-id': 't-0001', 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } },
      { onProgress: (p) => progress.push(p) },
    );
    const legs = s.requests('tools/call');
    assert.equal(legs.length, 2);
    for (const l of legs) {
      const meta = l.params._meta;
      assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
      assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} });
      assert.equal(typeof meta['io.modelcontextprotocol/clientInfo'].name, 'string');
      assert.equal(typeof meta['io.modelcontextprotocol/clientInfo'].version, 'string');
      assert.equal(meta['com.example/trace-id'], 't-0001');
      assert.ok(['string', 'number'].includes(typeof meta.progressToken));
    }
    assert.deepEqual(
      legs[0].params._meta['io.modelcontextprotocol/clientCapabilities'],
      legs[1].params._meta['io.modelcontextprotocol/clientCapabilities'],
    );
    assert.notEqual(legs[0].params._meta.progressToken, legs[1].params._meta.progressToken);
  });

  it('emits one event per leg with ids, keys and a verified exact echo', async () => {
    const events: RoundTripEvent[] = [];
    const s = scriptedConnection((msg, n) => (n === 1 ? askName('k', 'secret-state') : done()), {
      provider: scriptedProvider({ k: NAME }),
    });
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { onEvent: (e) => events.push(e as RoundTripEvent) });
    assert.deepEqual(
      events.map((e) => e.kind),
      ['request', 'inputRequired', 'answer', 'retry', 'complete'],
    );
    const [req, ir, ans, retry] = events as Json[];
    const legs = s.requests('tools/call');
    assert.equal(req.id, legs[0].id);
    assert.equal(retry.id, legs[1].id);
    assert.equal(retry.previousId, legs[0].id);
    assert.deepEqual(ir.inputs, [{ key: 'k', method: 'elicitation/create' }]);
    assert.equal(ir.state.length, 'secret-state'.length);
    assert.equal(ans.summary, 'accept fields [name]');
    assert.equal(retry.echoExact, true);
    assert.ok(!JSON.stringify(events).includes('secret-state'), 'state never in events');
    assert.ok(!JSON.stringify(events).includes('Ada'), 'form values never in events');
  });
});
