/**
 * Answers a provider has at hand (roots from the workspace folders): the round's answers are taken in
 * the same turn, and the retry is written before any other queued work runs (the round's latency).
 */
import assert from 'node:assert/strict';
import type { ListRootsResult, Transport } from '@modelcontextprotocol/client';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { recordingProvider, type InputNotes } from '../../../src/core/history/recordingProvider';
import type { InputRecord } from '../../../src/core/history/callRecord';
import { RoundAnswering } from '../../../src/core/mrtr/answerRound';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import type { InputProvider, InputRequestEntry, RoundInfo } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';
import { done, scriptedHandler, type Json } from '../../support/scripted';

const ROOTS: ListRootsResult = { roots: [{ uri: 'file:///work/project', name: 'project' }] };
const ROOTS_ASKED = {
  result: { resultType: 'input_required', inputRequests: { where: { method: 'roots/list', params: {} } }, requestState: 'S1' },
};

function provider(
  listRoots: InputProvider['listRoots'],
  elicit: InputProvider['elicit'] = () => Promise.reject(new Error('not asked')),
): InputProvider {
  return {
    capabilities: { roots: {}, elicitation: { form: {} } },
    elicit,
    sample: () => Promise.reject(new Error('not asked')),
    listRoots,
  };
}

/**
 * A server that answers synchronously on the host's transport and, right after handing it the
 * `input_required`, queues a microtask (as a transport's own work would be): records whether that
 * microtask ran before the retry was written.
 */
function server() {
  const seen: { queuedRanBeforeRetry?: boolean; retry?: Json } = {};
  let queuedRan = false;
  const transport: Transport = {
    start: async () => {},
    close: async () => transport.onclose?.(),
    send: async (m) => {
      const msg = m as Json;
      if (msg.params?.inputResponses !== undefined) {
        seen.queuedRanBeforeRetry = queuedRan;
        seen.retry = msg;
      }
      void handler.handle(msg);
    },
  };
  const handler = scriptedHandler(
    (reply) => {
      transport.onmessage?.(reply);
      if (reply.result?.resultType === 'input_required') {
        queuedRan = false;
        queueMicrotask(() => (queuedRan = true));
      }
    },
    (_msg, n) => (n === 1 ? ROOTS_ASKED : done('here')),
  );
  return { spec: { transport: 'custom' as const, name: 'scripted', create: () => transport }, seen };
}

function round(inputs: InputRequestEntry[]): RoundInfo {
  return { flowId: 1, server: 'scripted', method: 'tools/call', target: 'where', round: 1, inputs, era: 'modern' };
}

const CONN = { name: 'scripted', lostSignal: new AbortController().signal, checkFormContent: undefined };
const ROOTS_ENTRY: InputRequestEntry = { key: 'where', method: 'roots/list', params: {} };
const FORM_ENTRY: InputRequestEntry = {
  key: 'who',
  method: 'elicitation/create',
  params: { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
};

describe('answers at hand', () => {
  it('roots returned as they are: the retry is written before a microtask queued with the input_required runs', async () => {
    const s = server();
    const conn = new ServerConnection(s.spec, { provider: provider(() => ROOTS) });
    // Connected first, as the host keeps its connections (a leg that connects waits for that).
    await conn.ensureConnected();
    const r = await callWithRoundTrips(conn, 'tools/call', { name: 'where_am_i', arguments: {} });
    await conn.close();
    assert.equal(r.rounds, 1);
    assert.deepEqual(s.seen.retry.params.inputResponses, { where: ROOTS });
    assert.equal(s.seen.retry.params.requestState, 'S1');
    assert.equal(s.seen.queuedRanBeforeRetry, false);
  });

  it('roots given as a promise: the same retry, written only after the queued microtask ran', async () => {
    const s = server();
    const conn = new ServerConnection(s.spec, { provider: provider(async () => ROOTS) });
    await conn.ensureConnected();
    await callWithRoundTrips(conn, 'tools/call', { name: 'where_am_i', arguments: {} });
    await conn.close();
    assert.deepEqual(s.seen.retry.params.inputResponses, { where: ROOTS });
    assert.equal(s.seen.queuedRanBeforeRetry, true);
  });

  it("a round answered wholly at hand gives its answers as a value, not a promise, in the server's order", () => {
    const rounds = new RoundAnswering(CONN, new AbortController());
    const seen: string[] = [];
    const second: InputRequestEntry = { key: 'also', method: 'roots/list', params: {} };
    const got = rounds.answer(
      provider(() => ROOTS),
      round([ROOTS_ENTRY, second]),
      (entry, _a, last) => seen.push(`${entry.key}${last ? ' (last)' : ''}`),
    );
    rounds.dispose();
    assert.equal(got instanceof Promise, false);
    assert.deepEqual(Object.keys(got), ['where', 'also']);
    assert.deepEqual(seen, ['where', 'also (last)']);
  });

  it("a round with one answer to wait for gives a promise of all of them, in the server's order", async () => {
    const rounds = new RoundAnswering(CONN, new AbortController());
    const form = { action: 'accept' as const, content: { name: 'Ada' } };
    const got = rounds.answer(
      provider(
        () => ROOTS,
        async () => form,
      ),
      round([FORM_ENTRY, ROOTS_ENTRY]),
      () => {},
    );
    assert.ok(got instanceof Promise);
    assert.deepEqual(Object.keys(await got), ['who', 'where']);
    assert.deepEqual((await got).who, form);
    rounds.dispose();
  });

  it("an invalid answer at hand is thrown at once, naming the input, and aborts the call (other inputs' UI closes)", () => {
    const callAbort = new AbortController();
    const rounds = new RoundAnswering(CONN, callAbort);
    let formSignal: AbortSignal | undefined;
    const p = provider(
      () => ({ roots: 'not a list' }) as unknown as ListRootsResult,
      (_params, ctx) => ((formSignal = ctx.signal), new Promise(() => {})),
    );
    assert.throws(
      () => rounds.answer(p, round([FORM_ENTRY, ROOTS_ENTRY]), () => {}),
      (e: unknown) => e instanceof HostError && e.kind === 'protocol' && /"where"/.test(e.message),
    );
    assert.equal(callAbort.signal.aborted, true);
    assert.equal(formSignal?.aborted, true);
    rounds.dispose();
  });

  it('a provider that throws at once fails the round with its error; an answer already asked that rejects later is not left unhandled', async () => {
    const rounds = new RoundAnswering(CONN, new AbortController());
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      let rejectForm!: (e: unknown) => void;
      const p = provider(
        () => {
          throw new Error('workspace folders unreadable');
        },
        () => new Promise((_resolve, reject) => (rejectForm = reject)),
      );
      assert.throws(() => rounds.answer(p, round([FORM_ENTRY, ROOTS_ENTRY]), () => {}), /workspace folders unreadable/);
      rejectForm(new Error('panel closed'));
      // Unhandled rejections are reported after the microtask queue drains, before the next macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      rounds.dispose();
    }
  });

  it("in a round of both kinds, the answer awaited is the last one reported, and the answers keep the server's order", async () => {
    const rounds = new RoundAnswering(CONN, new AbortController());
    const seen: string[] = [];
    const got = rounds.answer(
      provider(
        () => ROOTS,
        async () => ({ action: 'decline' }),
      ),
      round([ROOTS_ENTRY, FORM_ENTRY]),
      (entry, _a, last) => seen.push(`${entry.key}${last ? ' (last)' : ''}`),
    );
    assert.deepEqual(Object.keys(await got), ['where', 'who']);
    assert.deepEqual(seen, ['where', 'who (last)']);
    rounds.dispose();
  });

  it('a thenable that is not a promise counts once, even when it calls back twice; one whose then throws fails the round and closes the others', async () => {
    const rounds = new RoundAnswering(CONN, new AbortController());
    const twice = { then: (ok: (v: unknown) => void) => setImmediate(() => (ok(ROOTS), ok(ROOTS))) };
    const later = new Promise<ListRootsResult>((resolve) => setTimeout(() => resolve(ROOTS), 20));
    const keys = ['a', 'b', 'c'].map((key): InputRequestEntry => ({ key, method: 'roots/list', params: {} }));
    const got = await rounds.answer(
      provider((ctx) => (ctx.key === 'a' ? (twice as unknown as Promise<ListRootsResult>) : later)),
      round(keys),
      () => {},
    );
    rounds.dispose();
    assert.deepEqual(got, { a: ROOTS, b: ROOTS, c: ROOTS });

    const callAbort = new AbortController();
    const again = new RoundAnswering(CONN, callAbort);
    const broken = {
      then: () => {
        throw new Error('then threw');
      },
    };
    const asked = again.answer(
      provider(
        () => broken as unknown as Promise<ListRootsResult>,
        () => new Promise(() => {}),
      ),
      round([FORM_ENTRY, ROOTS_ENTRY]),
      () => {},
    );
    await assert.rejects(Promise.resolve(asked), /then threw/);
    assert.equal(callAbort.signal.aborted, true);
    again.dispose();
  });

  it('nothing is asked when the call was already cancelled, or when one input is of a capability the host did not declare', () => {
    const asked: string[] = [];
    const p = provider(
      (ctx) => (asked.push(ctx.key), ROOTS),
      (_params, ctx) => (asked.push(ctx.key), new Promise(() => {})),
    );
    const cancelled = new AbortController();
    cancelled.abort(new HostError('cancelled', 'the person cancelled'));
    const rounds = new RoundAnswering(CONN, cancelled);
    assert.throws(() => rounds.answer(p, round([ROOTS_ENTRY]), () => {}), /the person cancelled/);
    rounds.dispose();

    const callAbort = new AbortController();
    const other = new RoundAnswering(CONN, callAbort);
    const reported: string[] = [];
    const sampling: InputRequestEntry = { key: 'draft', method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } };
    assert.throws(
      () => other.answer(p, round([ROOTS_ENTRY, FORM_ENTRY, sampling]), (entry) => reported.push(entry.key)),
      (e: unknown) =>
        e instanceof HostError &&
        e.kind === 'protocol' &&
        /sampling\/createMessage \("draft"\), a capability this host did not declare/.test(e.message),
    );
    assert.deepEqual(asked, []);
    assert.deepEqual(reported, []);
    assert.equal(callAbort.signal.aborted, true);
    other.dispose();
  });

  it('the call recorder notes an answer at hand and hands it on as it is; a provider that throws at once is noted as failed', () => {
    const inputs: InputRecord[] = [];
    const notes: InputNotes = {
      input: (r, key, method) => {
        const rec = { round: r, key, method } as InputRecord;
        inputs.push(rec);
        return rec;
      },
      secret: () => {},
      keepValues: false,
      answeredBy: () => 'workspace folders',
    };
    const ctx = { round: round([ROOTS_ENTRY]), key: 'where', signal: new AbortController().signal };
    const got = recordingProvider(
      provider(() => ROOTS),
      notes,
    ).listRoots(ctx);
    assert.equal(got, ROOTS);
    assert.equal(inputs[0].answer?.action, 'answered');
    assert.equal(inputs[0].answer?.by, 'workspace folders');
    const broken = recordingProvider(
      provider(() => {
        throw new HostError('cancelled', 'no');
      }),
      notes,
    );
    assert.throws(() => broken.listRoots(ctx), /no/);
    assert.equal(inputs[1].answer?.action, 'cancel');
  });
});
