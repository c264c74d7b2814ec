/**
 * How the MRTR driver ends a call that cannot complete normally: round limit, time limit,
 * cancellation, malformed results, a server that dies, and concurrency hygiene.
 */
import assert from 'node:assert/strict';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { HostError } from '../../../src/core/util/errors';
import type { RoundTripEvent } from '../../../src/core/log/events';
import { scriptedConnection } from '../../support/inMemory';
import { askName, done, type Json } from '../../support/scripted';
import { deferred, scriptedProvider } from '../../support/providers';

const NAME = { action: 'accept', content: { name: 'Ada' } };

async function rejects(p: Promise<unknown>, kind: string, pattern?: RegExp): Promise<HostError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HostError, `expected HostError, got ${e}`);
    assert.equal(e.kind, kind, e.message);
    if (pattern) assert.match(e.message, pattern);
    return e;
  }
  assert.fail('expected a rejection');
}

describe('MRTR limits and failures', () => {
  describe('round limit', () => {
    it('stops after maxRounds retries, having sent exactly 1 + maxRounds legs', async () => {
      const s = scriptedConnection(() => askName('k', 'again'), { provider: scriptedProvider({ k: NAME }) });
      await rejects(
        callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { maxRounds: 3 }),
        'roundLimit',
        /after 3 round/,
      );
      assert.equal(s.requests('tools/call').length, 4);
    });
    it('keeps a complete result that arrives on exactly the last allowed retry', async () => {
      const s = scriptedConnection((m, n) => (n <= 3 ? askName('k', `s${n}`) : done('last')), { provider: scriptedProvider({ k: NAME }) });
      const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { maxRounds: 3 });
      assert.equal(r.rounds, 3);
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'last' }]);
    });
    it('defaults to 10 retries', async () => {
      const s = scriptedConnection(() => askName('k', 'x'), { provider: scriptedProvider({ k: NAME }) });
      await rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }), 'roundLimit');
      assert.equal(s.requests('tools/call').length, 11);
    });
  });

  it('retries a first state-only round at once, and paces the next ones in a row with a growing pause instead of spinning', async () => {
    const events: Json[] = [];
    const sentAt: number[] = [];
    const s = scriptedConnection(
      (m, n) => {
        sentAt.push(Date.now());
        return n <= 3 ? { result: { resultType: 'input_required', requestState: `busy${n}` } } : done();
      },
      { provider: scriptedProvider({}) },
    );
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { statePacingMs: 40, onEvent: (e) => events.push(e) });
    const retries = events.filter((e) => e.kind === 'retry');
    assert.deepEqual(
      retries.map((e) => e.delayMs),
      [0, 40, 80],
    );
    for (let i = 1; i < sentAt.length; i++) assert.ok(sentAt[i] - sentAt[i - 1] >= retries[i - 1].delayMs - 2, `leg ${i} waited its pause`);
  });

  describe('time limit', () => {
    it('does not count the time a person spends answering', async () => {
      const s = scriptedConnection((m, n) => (n === 1 ? askName('k', 's') : done()), {
        provider: scriptedProvider({ k: () => new Promise((r) => setTimeout(() => r(NAME), 400)) }),
      });
      const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { timeoutMs: 250 });
      assert.ok(r.waitingMs >= 400, `waited ${r.waitingMs}`);
      assert.ok(r.totalMs > 250);
    });
    it('ends a call whose server does not answer, and tells the server it was cancelled', async () => {
      const s = scriptedConnection(() => ({ silent: true }), { provider: scriptedProvider({}) });
      await rejects(
        callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { timeoutMs: 150 }),
        'timeLimit',
        /time limit of 150 ms/,
      );
      const leg = s.requests('tools/call')[0];
      const cancel = s.received.find((m) => m.method === 'notifications/cancelled');
      assert.equal(cancel?.params.requestId, leg.id);
    });
  });

  describe('cancellation', () => {
    it('while inputs are pending: the provider is told, nothing more is sent', async () => {
      const asked = deferred();
      let providerSignal: AbortSignal | undefined;
      const s = scriptedConnection((m, n) => (n === 1 ? askName('k', 's') : done()), {
        provider: scriptedProvider({
          k: (_p: unknown, ctx: { signal: AbortSignal }) => {
            providerSignal = ctx.signal;
            asked.resolve();
            return new Promise(() => {}); // a person who never answers
          },
        }),
      });
      const ac = new AbortController();
      const call = callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: ac.signal });
      await asked.promise;
      const before = s.received.length;
      ac.abort();
      await rejects(call, 'cancelled');
      assert.equal(providerSignal?.aborted, true);
      assert.equal(s.received.length, before, 'nothing sent after cancel while waiting for input');
      assert.equal(s.requests('tools/call').length, 1);
    });
    it("during a leg: only the transport's cancellation is sent", async () => {
      const arrived = deferred();
      const s = scriptedConnection(() => (arrived.resolve(), { silent: true }), { provider: scriptedProvider({}) });
      const ac = new AbortController();
      const call = callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: ac.signal });
      await arrived.promise;
      ac.abort();
      await rejects(call, 'cancelled');
      const leg = s.requests('tools/call')[0];
      const after = s.received.slice(s.received.indexOf(leg) + 1);
      assert.deepEqual(
        after.map((m) => m.method),
        ['notifications/cancelled'],
      );
      assert.equal(after[0].params.requestId, leg.id);
    });
    it('before the call starts: nothing is sent', async () => {
      const s = scriptedConnection(() => done(), { provider: scriptedProvider({}) });
      const ac = new AbortController();
      ac.abort();
      await rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: ac.signal }), 'cancelled');
      assert.equal(s.requests('tools/call').length, 0);
    });
  });

  describe('malformed input_required gives a clear error and no retry', () => {
    const cases: [string, Json, RegExp][] = [
      ['neither field', { resultType: 'input_required' }, /neither inputRequests nor requestState/],
      ['inputRequests a number', { resultType: 'input_required', inputRequests: 5 }, /inputRequests must be an object.*number/],
      [
        'inputRequests an array',
        { resultType: 'input_required', inputRequests: [], requestState: 's' },
        /inputRequests must be an object.*array/,
      ],
      [
        'unknown embedded method',
        { resultType: 'input_required', inputRequests: { a: { method: 'foo/bar', params: {} } } },
        /unknown method "foo\/bar"/,
      ],
      ['requestState a number', { resultType: 'input_required', requestState: 7 }, /requestState must be a string, got number/],
      [
        'requestState null',
        { resultType: 'input_required', inputRequests: { a: { method: 'roots/list' } }, requestState: null },
        /requestState must be a string, got null/,
      ],
      ['entry without method', { resultType: 'input_required', inputRequests: { a: { params: {} } } }, /"a"\] has no method/],
    ];
    for (const [label, result, pattern] of cases) {
      it(label, async () => {
        const s = scriptedConnection(() => ({ result }), { provider: scriptedProvider({ a: { roots: [] } }) });
        await rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }), 'protocol', pattern);
        assert.equal(s.requests('tools/call').length, 1);
      });
    }
  });

  describe('resultType', () => {
    it('an unknown resultType is an error naming it, never a success', async () => {
      const s = scriptedConnection(() => ({ result: { resultType: 'partial', content: [] } }), { provider: scriptedProvider({}) });
      await rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }), 'protocol', /unknown resultType "partial"/);
    });
    it('an absent resultType on a modern server means complete, with a warning', async () => {
      const events: RoundTripEvent[] = [];
      const s = scriptedConnection(() => ({ result: { content: [{ type: 'text', text: 'old habit' }] } }), {
        provider: scriptedProvider({}),
      });
      const r = await callWithRoundTrips(
        s.conn,
        'tools/call',
        { name: 't', arguments: {} },
        { onEvent: (e) => events.push(e as RoundTripEvent) },
      );
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'old habit' }]);
      const w = events.find((e) => e.kind === 'warning');
      assert.match((w as Json).message, /omitted resultType/);
    });
    it('an absent resultType on a legacy server is complete without a warning', async () => {
      const events: RoundTripEvent[] = [];
      const s = scriptedConnection(
        () => ({ result: { content: [{ type: 'text', text: '2025' }] } }),
        { provider: scriptedProvider({}) },
        { legacy: true },
      );
      const r = await callWithRoundTrips(
        s.conn,
        'tools/call',
        { name: 't', arguments: {} },
        { onEvent: (e) => events.push(e as RoundTripEvent) },
      );
      assert.equal(s.conn.era, 'legacy');
      assert.deepEqual(r.result.content, [{ type: 'text', text: '2025' }]);
      assert.equal(events.filter((e) => e.kind === 'warning').length, 0);
    });
    it('input_required on a method other than the three MRTR methods is an error', async () => {
      // tools/list is answered by the scripted server's built-in handler; make prompts/list misbehave.
      const s = scriptedConnection(
        (m) => (m.method === 'prompts/list' ? { result: { resultType: 'input_required', requestState: 'x' } } : done()),
        { provider: scriptedProvider({}) },
      );
      await rejects(s.conn.list('prompts'), 'protocol', /prompts\/list with input_required/);
    });
  });

  it('a server JSON-RPC error ends the call with its code', async () => {
    const s = scriptedConnection(() => ({ error: { code: -32602, message: 'Invalid or expired requestState' } }), {
      provider: scriptedProvider({}),
    });
    const e = await rejects(
      callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }),
      'server',
      /-32602: Invalid or expired requestState/,
    );
    assert.equal(e.code, -32602);
  });

  describe('answers are checked before they are sent', () => {
    it('an input the host did not declare is refused (no retry)', async () => {
      const s = scriptedConnection(
        () => ({
          result: {
            resultType: 'input_required',
            inputRequests: { s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } },
          },
        }),
        { provider: scriptedProvider({ s: {} }, { elicitation: { form: {} } }) },
      );
      await rejects(
        callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }),
        'protocol',
        /sampling\/createMessage \("s"\), a capability this host did not declare/,
      );
      assert.equal(s.requests('tools/call').length, 1);
    });
    it('URL mode is refused when only form mode is declared', async () => {
      const s = scriptedConnection(
        () => ({
          result: {
            resultType: 'input_required',
            inputRequests: { u: { method: 'elicitation/create', params: { mode: 'url', url: 'https://a.test', message: 'go' } } },
          },
        }),
        { provider: scriptedProvider({ u: { action: 'accept' } }, { elicitation: { form: {} } }) },
      );
      await rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }), 'protocol', /URL-mode elicitation/);
    });
    it('an accept missing a required field is never sent (F1)', async () => {
      const s = scriptedConnection((m, n) => (n === 1 ? askName('k', 's') : done()), {
        provider: scriptedProvider({ k: { action: 'accept', content: {} } }),
      });
      await rejects(
        callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }),
        'protocol',
        /required field\(s\) missing: name/,
      );
      assert.equal(s.requests('tools/call').length, 1);
    });
    it('decline and cancel go out without content, whatever the provider attached (F4)', async () => {
      for (const action of ['decline', 'cancel']) {
        const s = scriptedConnection((m, n) => (n === 1 ? askName('why', 'rs-del-7') : done()), {
          provider: scriptedProvider({ why: { action, content: { reason: 'ok' } } }),
        });
        await callWithRoundTrips(s.conn, 'tools/call', { name: 'delete_branch', arguments: { branch: 'feat-x' } });
        const retry = s.requests('tools/call')[1];
        assert.deepEqual(retry.params.inputResponses, { why: { action } });
        assert.equal(retry.params.requestState, 'rs-del-7');
      }
    });
    it('one failing input aborts the other inputs of the round', async () => {
      let otherSignal: AbortSignal | undefined;
      const s = scriptedConnection(
        () => ({
          result: {
            resultType: 'input_required',
            inputRequests: { a: { method: 'roots/list' }, b: (askName('b') as { result: Json }).result.inputRequests.b },
          },
        }),
        {
          provider: scriptedProvider({
            a: () => Promise.reject(new HostError('declined', 'no roots for you')),
            b: (_p: unknown, ctx: { signal: AbortSignal }) => ((otherSignal = ctx.signal), new Promise(() => {})),
          }),
        },
      );
      await rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }), 'declined', /no roots/);
      assert.equal(otherSignal?.aborted, true);
    });
  });

  it('two concurrent calls to one server keep their own state and answers', async () => {
    const s = scriptedConnection(
      (m) => {
        const who = m.params.arguments.who;
        return m.params.requestState === undefined
          ? askName('k', `state-of-${who}`)
          : done(`${who}:${m.params.requestState}:${m.params.inputResponses.k.content.name}`);
      },
      {
        provider: scriptedProvider({
          k: (_p: unknown, ctx: Json) => ({ action: 'accept', content: { name: `name-for-${ctx.round.flowId}` } }),
        }),
      },
    );
    const [a, b] = await Promise.all([
      callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: { who: 'A' } }),
      callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: { who: 'B' } }),
    ]);
    assert.equal((a.result.content as Json)[0].text, `A:state-of-A:name-for-${a.flowId}`);
    assert.equal((b.result.content as Json)[0].text, `B:state-of-B:name-for-${b.flowId}`);
    const retries = s.requests('tools/call').filter((m) => m.params.requestState);
    assert.equal(new Set(s.requests('tools/call').map((m) => m.id)).size, 4);
    for (const r of retries) assert.equal(r.params.requestState, `state-of-${r.params.arguments.who}`);
  });

  it('a non-MRTR method is refused before anything is sent', async () => {
    const s = scriptedConnection(() => done(), { provider: scriptedProvider({}) });
    await rejects(callWithRoundTrips(s.conn, 'tools/list' as never, {}), 'usage', /only tools\/call, prompts\/get, resources\/read/);
    assert.equal(s.received.length, 0);
  });
});

describe('complete results reach the host as received', () => {
  it('F12: an unknown content block does not fail the call; every block is delivered as sent', async () => {
    const content = [
      { type: 'text', text: 'Render finished.' },
      {
        type: 'resource_link',
        uri: 'https://cdn.example.test/out/clip-7.mp4',
        name: 'clip-7.mp4',
        title: 'Rendered clip',
        mimeType: 'video/mp4',
        size: 1048576,
      },
      { type: 'mystery_block', foo: 1 },
    ];
    const s = scriptedConnection(() => ({ result: { resultType: 'complete', isError: false, content } }), {
      provider: scriptedProvider({}),
    });
    const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 'render', arguments: {} });
    assert.deepEqual(r.result, { resultType: 'complete', isError: false, content });
  });
  it('F13: structuredContent may be an array, with empty content', async () => {
    const s = scriptedConnection(
      () => ({ result: { resultType: 'complete', content: [], structuredContent: [{ id: 'r1' }, { id: 'r2' }] } }),
      { provider: scriptedProvider({}) },
    );
    const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 'rooms', arguments: {} });
    assert.deepEqual(r.result.structuredContent, [{ id: 'r1' }, { id: 'r2' }]);
  });
  it('a result whose container is unusable is a clear error', async () => {
    const s = scriptedConnection(() => ({ result: { resultType: 'complete', content: 'not a list' } }), { provider: scriptedProvider({}) });
    await rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }), 'protocol', /content must be an array/);
    const p = scriptedConnection(() => ({ result: { resultType: 'complete' } }), { provider: scriptedProvider({}) });
    await rejects(callWithRoundTrips(p.conn, 'prompts/get', { name: 'p' }), 'protocol', /messages must be an array/);
  });
});
