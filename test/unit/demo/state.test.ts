// requestState of the built demo server, driven leg by leg (manual MRTR mode, 2026-07-28 over stdio):
// round shapes, byte-exact echo, and refusal of tampered, expired and replayed state.
import * as assert from 'node:assert/strict';
import { connectDemo, ensureDemoBuilt, firstText, rejection, sendLeg, type DemoConnection } from '../../support/demoHarness';

describe('demo server requestState (manual legs, 2026-07-28 over stdio)', function () {
  this.timeout(30_000);
  let conn: DemoConnection | undefined;
  const client = () => conn!.client;

  before(async () => {
    await ensureDemoBuilt();
    conn = await connectDemo({ era: 'modern', where: { kind: 'stdio' }, autoFulfill: false });
  });
  after(async () => conn?.close());

  it('plan_trip: one key per round; no state before there is something to carry, signed state after', async () => {
    const first = await sendLeg(client(), 'tools/call', { name: 'plan_trip', arguments: {} });
    assert.equal(first.resultType, 'input_required');
    assert.deepEqual(Object.keys(first.inputRequests ?? {}), ['trip']);
    assert.equal(first.requestState, undefined);

    const trip = { destination: 'Oslo', startDate: '2026-10-01', endDate: '2026-10-02' };
    const second = await sendLeg(client(), 'tools/call', {
      name: 'plan_trip',
      arguments: {},
      inputResponses: { trip: { action: 'accept', content: trip } },
    });
    assert.deepEqual(Object.keys(second.inputRequests ?? {}), ['itinerary']);
    assert.equal(second.inputRequests!.itinerary.method, 'sampling/createMessage');
    assert.match(second.requestState!, /^v1\./);

    const third = await sendLeg(client(), 'tools/call', {
      name: 'plan_trip',
      arguments: {},
      inputResponses: { itinerary: { role: 'assistant', model: 'gpt-test', content: { type: 'text', text: 'Day 1: fjords' } } },
      requestState: second.requestState,
    });
    assert.deepEqual(third.inputRequests, { roots: { method: 'roots/list' } });
    assert.notEqual(third.requestState, second.requestState);

    // Only this round's answer goes back; the trip and the itinerary come from the state.
    const done = await sendLeg(client(), 'tools/call', {
      name: 'plan_trip',
      arguments: {},
      inputResponses: { roots: { roots: [{ uri: 'file:///srv/plans' }] } },
      requestState: third.requestState,
    });
    assert.equal(done.resultType ?? 'complete', 'complete');
    const text = firstText(done);
    assert.match(text, /^Trip to Oslo: 2026-10-01 to 2026-10-02 \(1 night\)\./);
    assert.ok(
      text.includes('model "gpt-test"') && text.includes('Day 1: fjords') && text.includes('file:///srv/plans/trip-oslo-2026-10-01.md'),
    );
  });

  it('book_table: schema-invalid content is refused server-side and asked again (new round, same key)', async () => {
    const leg = await sendLeg(client(), 'tools/call', {
      name: 'book_table',
      arguments: {},
      inputResponses: {
        booking: {
          action: 'accept',
          content: { date: '2026-13-40', email: 'nope', partySize: 40, outdoor: 'yes', seating: 'roof', time: '19:00', dietary: [] },
        },
      },
    });
    assert.equal(leg.resultType, 'input_required');
    const message = (leg.inputRequests!.booking.params as { message: string }).message;
    for (const field of ['date', 'email', 'partySize', 'outdoor', 'seating', 'dietary'])
      assert.match(message, new RegExp(`${field}: `), message);
    assert.doesNotMatch(message, /time: /);
  });

  it('busy_report: the first answer is state only (load shedding), the retry completes', async () => {
    const first = await sendLeg(client(), 'tools/call', { name: 'busy_report', arguments: {} });
    assert.equal(first.resultType, 'input_required');
    // The SDK hands back `inputRequests: {}`; on the wire the field is absent.
    const wire = conn!.inbound.at(-1) as { result: Record<string, unknown> };
    assert.equal(wire.result.resultType, 'input_required');
    assert.equal('inputRequests' in wire.result, false);
    assert.equal(wire.result.requestState, first.requestState);
    assert.match(first.requestState!, /^v1\./);
    const done = await sendLeg(client(), 'tools/call', { name: 'busy_report', arguments: {}, requestState: first.requestState });
    assert.match(firstText(done), /^Report on weekly sales is ready/);
  });

  it('echo_state: returns exactly the requestState string it received', async () => {
    const first = await sendLeg(client(), 'tools/call', { name: 'echo_state', arguments: {} });
    assert.deepEqual(Object.keys(first.inputRequests ?? {}), ['continue']);
    const state = first.requestState!;
    const done = await sendLeg(client(), 'tools/call', {
      name: 'echo_state',
      arguments: {},
      inputResponses: { continue: { action: 'decline' } },
      requestState: state,
    });
    assert.equal(firstText(done), state);
  });

  describe('refusals (-32602, saying which)', () => {
    let echoState = '';
    before(async () => {
      echoState = (await sendLeg(client(), 'tools/call', { name: 'echo_state', arguments: {} })).requestState!;
    });

    const refuse = async (method: 'tools/call' | 'prompts/get' | 'resources/read', params: Parameters<typeof sendLeg>[2]) => {
      const error = await rejection(() => sendLeg(client(), method, params));
      assert.equal(error.code, -32602, error.message);
      return error;
    };

    it('tampered: one changed character in the signed body', async () => {
      const [prefix, body, mac] = echoState.split('.');
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
      payload.p.nonce = '0000000000000000';
      const forged = [prefix, Buffer.from(JSON.stringify(payload)).toString('base64url'), mac].join('.');
      const error = await refuse('tools/call', { name: 'echo_state', arguments: {}, inputResponses: {}, requestState: forged });
      assert.match(error.message, /tampered/);
      assert.deepEqual(error.data, { reason: 'tampered' });
    });

    it('tampered: not a state this server mints at all', async () => {
      const error = await refuse('tools/call', { name: 'echo_state', arguments: {}, requestState: 'not-a-state' });
      assert.match(error.message, /tampered/);
    });

    it('replayed on another tool, on the prompt and on the resource', async () => {
      for (const [method, params] of [
        ['tools/call', { name: 'book_table', arguments: {} }],
        ['prompts/get', { name: 'code_review', arguments: { code: 'x' } }],
        ['resources/read', { uri: 'demo://secret-note' }],
      ] as const) {
        const error = await refuse(method, { ...params, inputResponses: {}, requestState: echoState });
        assert.match(error.message, /issued for a different request \(another tool, prompt, resource or other arguments\)/);
        assert.deepEqual(error.data, { reason: 'other_request' });
      }
    });

    it('replayed on the same tool with other arguments', async () => {
      const first = await sendLeg(client(), 'tools/call', { name: 'connect_account', arguments: { service: 'Mail' } });
      const error = await refuse('tools/call', {
        name: 'connect_account',
        arguments: { service: 'Bank' },
        inputResponses: { connect: { action: 'accept' } },
        requestState: first.requestState,
      });
      assert.deepEqual(error.data, { reason: 'other_request' });
      // The same state on its own request still works: argument key order does not matter either.
      const ok = await sendLeg(client(), 'tools/call', {
        name: 'connect_account',
        arguments: { service: 'Mail' },
        inputResponses: { connect: { action: 'accept' } },
        requestState: first.requestState,
      });
      assert.match(firstText(ok), /^Connected Mail/);
    });
  });
});

describe('demo server requestState expiry (MCP_ROUNDTRIP_DEMO_TTL_SECONDS=1)', function () {
  this.timeout(30_000);
  let conn: DemoConnection | undefined;

  before(async () => {
    await ensureDemoBuilt();
    conn = await connectDemo({ era: 'modern', where: { kind: 'stdio', env: { MCP_ROUNDTRIP_DEMO_TTL_SECONDS: '1' } }, autoFulfill: false });
  });
  after(async () => conn?.close());

  it('accepts fresh state, then refuses the same state as expired once its second has passed', async () => {
    const client = conn!.client;
    const state = (await sendLeg(client, 'tools/call', { name: 'echo_state', arguments: {} })).requestState!;
    const retry = () => sendLeg(client, 'tools/call', { name: 'echo_state', arguments: {}, inputResponses: {}, requestState: state });
    assert.equal(firstText(await retry()), state);

    // Expiry is wall-clock time: poll the retry (paced) until the server refuses it, within a bound.
    const started = Date.now();
    let refused: (Error & { code?: unknown; data?: unknown }) | undefined;
    while (refused === undefined && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      refused = await retry().then(
        () => undefined,
        (error: Error & { code?: unknown; data?: unknown }) => error,
      );
    }
    assert.ok(refused, 'state was still accepted 5 s after minting with a 1 s TTL');
    assert.equal(refused.code, -32602);
    assert.match(refused.message, /has expired \(state lives 1 s\)/);
    assert.deepEqual(refused.data, { reason: 'expired' });
  });
});
