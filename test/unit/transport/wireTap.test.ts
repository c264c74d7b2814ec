/** The wire tap (src/core/transport/wireTap.ts): what the SDK sees of the transport, and what the host learns of each leg. */
import * as assert from 'node:assert/strict';
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { WireTap } from '../../../src/core/transport/wireTap';
import { type LegRecord } from '../../../src/core/transport/legResult';

describe('WireTap keeps the transport kind the SDK sees', () => {
  it('an HTTP transport has no stderr/pid (else the SDK treats it as stdio)', () => {
    const tap = new WireTap(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp')), { fillResultType: () => true });
    assert.equal('stderr' in tap, false);
    assert.equal('pid' in tap, false);
  });

  it('a stdio-like transport keeps them, read live from the inner transport', () => {
    const inner = {
      stderr: null as unknown,
      pid: 1 as number | null,
      start: async () => {},
      close: async () => {},
      send: async () => {},
    } as unknown as Transport & { pid: number | null };
    const tap = new WireTap(inner, { fillResultType: () => true }) as unknown as { pid: unknown; stderr: unknown };
    assert.equal('stderr' in tap, true);
    inner.pid = 4242;
    assert.equal(tap.pid, 4242);
  });
});

/** An inner transport that records what it is asked to send, and can hand up messages. */
function fakeInner(): Transport & { sent: unknown[]; deliver(m: unknown): void } {
  const inner = {
    sent: [] as unknown[],
    start: async () => {},
    close: async () => {},
    send: async (m: unknown) => void inner.sent.push(m),
    deliver: (m: unknown) => inner.onmessage?.(m as never),
  } as Transport & { sent: unknown[]; deliver(m: unknown): void };
  return inner;
}

describe('WireTap sees each leg', () => {
  it('ties the armed leg to the id of the next request with its method, and records the params as written', async () => {
    const inner = fakeInner();
    const tap = new WireTap(inner, { fillResultType: () => true });
    const leg: LegRecord = { method: 'tools/call' };
    tap.arm(leg);
    await tap.send({ jsonrpc: '2.0', id: 3, method: 'notifications/x' } as never); // another method: not the leg
    await tap.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'a', requestState: 'S' } });
    assert.equal(leg.id, 4);
    assert.deepEqual(leg.sentParams, { name: 'a', requestState: 'S' });
    assert.equal(inner.sent.length, 2, 'everything is written unchanged');
  });

  it('records the raw result; the SDK gets a minimal complete stand-in, resultType filled when it was missing', () => {
    const inner = fakeInner();
    const tap = new WireTap(inner, { fillResultType: () => true });
    const got: unknown[] = [];
    tap.onmessage = (m) => got.push(m);
    const leg: LegRecord = { method: 'tools/call' };
    tap.arm(leg);
    void tap.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
    const raw = { content: [{ type: 'mystery_block' }] };
    inner.deliver({ jsonrpc: '2.0', id: 1, result: raw });
    assert.equal(leg.rawResult, raw);
    assert.equal(leg.resultTypeMissing, true);
    assert.deepEqual(got, [{ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [] } }]);
  });

  it('passes input_required through untouched, and untracked messages too', () => {
    const inner = fakeInner();
    const tap = new WireTap(inner, { fillResultType: () => false });
    const got: unknown[] = [];
    tap.onmessage = (m) => got.push(m);
    const leg: LegRecord = { method: 'prompts/get' };
    tap.arm(leg);
    void tap.send({ jsonrpc: '2.0', id: 'p', method: 'prompts/get', params: {} });
    const ir = { jsonrpc: '2.0', id: 'p', result: { resultType: 'input_required', requestState: 'S' } };
    inner.deliver(ir);
    inner.deliver({ jsonrpc: '2.0', id: 99, result: { x: 1 } });
    assert.deepEqual(got, [ir, { jsonrpc: '2.0', id: 99, result: { x: 1 } }]);
    assert.equal(leg.resultTypeMissing, undefined);
  });

  it('a disarmed leg is not tied to a later request; observe sees both directions', async () => {
    const seen: string[] = [];
    const inner = fakeInner();
    const tap = new WireTap(inner, { fillResultType: () => true, observe: (dir, m) => seen.push(`${dir} ${(m as { id?: unknown }).id}`) });
    const leg: LegRecord = { method: 'tools/call' };
    tap.arm(leg);
    tap.disarm(leg);
    await tap.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} });
    inner.deliver({ jsonrpc: '2.0', id: 7, result: { content: [] } });
    assert.equal(leg.id, undefined);
    assert.deepEqual(seen, ['out 7', 'in 7']);
  });
});

describe('WireTap hands an input_required on before the SDK sees it', () => {
  const ask = (id: number) => ({ jsonrpc: '2.0', id, result: { resultType: 'input_required', requestState: 's' } });

  it('the leg learns of it at once; the SDK gets it later, before any later message and before the connection closes', async () => {
    const inner = fakeInner();
    const tap = new WireTap(inner, { fillResultType: () => true });
    const seen: string[] = [];
    tap.onmessage = (m) => void seen.push(`sdk ${(m as { id?: number; method?: string }).id ?? (m as { method: string }).method}`);
    tap.onclose = () => void seen.push('sdk close');
    const leg: LegRecord = { method: 'tools/call', onInputRequired: () => void seen.push('leg') };
    tap.arm(leg);
    await tap.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
    inner.deliver(ask(1));
    assert.deepEqual(seen, ['leg'], 'the SDK has not seen it yet');
    assert.deepEqual(leg.rawResult, { resultType: 'input_required', requestState: 's' });
    inner.deliver({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    assert.deepEqual(seen, ['leg', 'sdk 1', 'sdk notifications/message'], 'nothing overtakes it');
    const leg2: LegRecord = { method: 'tools/call', onInputRequired: () => void seen.push('leg2') };
    tap.arm(leg2);
    await tap.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} });
    inner.deliver(ask(2));
    inner.onclose?.();
    assert.deepEqual(seen.slice(3), ['leg2', 'sdk 2', 'sdk close']);
  });

  it('on its own, the SDK gets it on the next turn of the event loop', async () => {
    const inner = fakeInner();
    const tap = new WireTap(inner, { fillResultType: () => true });
    const seen: unknown[] = [];
    tap.onmessage = (m) => void seen.push(m);
    tap.arm({ method: 'tools/call', onInputRequired: () => {} });
    await tap.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} });
    inner.deliver(ask(1));
    assert.equal(seen.length, 0);
    await new Promise((r) => setImmediate(r));
    assert.equal(seen.length, 1);
  });
});
