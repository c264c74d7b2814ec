/**
 * The 2025-era path as good as the MRTR one: a request a 2025 server pushes during a leg stops the
 * call's clock while a person answers it, and the person's cancel or a missing scripted answer ends
 * the call as the same input of an MRTR round would (the CLI's exit codes 130 and 3); a leg's idle
 * limit starts over on each progress notification, the call's limit still holds.
 */
import assert from 'node:assert/strict';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { scriptedInputs } from '../../../src/core/mrtr/scriptedInputs';
import { HostError } from '../../../src/core/util/errors';
import type { HostEvent } from '../../../src/core/log/events';
import { scriptedConnection } from '../../support/inMemory';
import { done, type Json, type Script } from '../../support/scripted';
import { deferred, scriptedProvider } from '../../support/providers';

const FORM = { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };

/** A 2025 server whose tools/call pushes one elicitation and completes with what it was answered. */
const pushOnce: Script = async (msg, n, all, server) => {
  const response = await server.request('elicitation/create', FORM);
  return done(JSON.stringify(response.result ?? response.error));
};

async function rejection(p: Promise<unknown>): Promise<HostError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HostError, `expected a HostError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

/** Resolves once `check` holds, polled every few ms (a state, not a time); fails after 5 s. */
async function until(check: () => boolean, what = 'the state awaited'): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 5_000) assert.fail(`${what} never came`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('2025-era pushes and long legs', () => {
  it("a person answering a pushed form past the call's and the leg's limits is not counted, and the log says the wait", async () => {
    const answer = deferred<unknown>();
    let asked = false;
    const provider = scriptedProvider({
      'push-1': () => {
        asked = true;
        return answer.promise;
      },
    });
    const s = scriptedConnection(pushOnce, { provider }, { legacy: true });
    const events: HostEvent[] = [];
    try {
      const call = callWithRoundTrips(
        s.conn,
        'tools/call',
        { name: 't', arguments: {} },
        { timeoutMs: 100, legIdleMs: 100, onEvent: (e) => events.push(e) },
      );
      await until(() => asked, 'the pushed form');
      // The person takes three times the call's limit to answer.
      const since = Date.now();
      await until(() => Date.now() - since >= 300);
      answer.resolve({ action: 'accept', content: { name: 'Ada' } });
      const r = await call;
      assert.equal(s.conn.era, 'legacy');
      assert.deepEqual(r.result.content, [{ type: 'text', text: '{"action":"accept","content":{"name":"Ada"}}' }]);
      assert.ok(r.waitingMs >= 300, `waiting ${r.waitingMs} ms`);
      const complete = events.find((e) => e.kind === 'complete') as { waitingMs: number } | undefined;
      assert.ok(complete && complete.waitingMs >= 300, 'the accounting line says the time spent answering');
    } finally {
      await s.conn.close();
    }
  });

  it('Ctrl-C at a pushed form ends the call as cancelled, and the server is told', async () => {
    const provider = scriptedProvider({ 'push-1': () => Promise.reject(new HostError('cancelled', 'cancelled at the terminal (Ctrl+C)')) });
    const s = scriptedConnection(pushOnce, { provider }, { legacy: true });
    try {
      const e = await rejection(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }));
      assert.equal(e.kind, 'cancelled');
      assert.match(e.message, /Ctrl\+C/);
      const callId = s.requests('tools/call')[0].id;
      await until(() => s.received.some((m) => m.method === 'notifications/cancelled' && m.params.requestId === callId));
    } finally {
      await s.conn.close();
    }
  });

  it('a pushed request with no scripted answer ends the call as a missing answer naming the key', async () => {
    const s = scriptedConnection(pushOnce, { provider: scriptedInputs({}, []) }, { legacy: true });
    try {
      const e = await rejection(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }));
      assert.equal(e.kind, 'missingAnswer');
      assert.match(e.message, /no answer for input "push-1" \(elicitation\/create\) .* of tools\/call t; add it to --answers/);
    } finally {
      await s.conn.close();
    }
  });

  it('a declined pushed form is the server to handle: the call goes on', async () => {
    const provider = scriptedProvider({ 'push-1': () => Promise.reject(new HostError('declined', 'declined')) });
    const s = scriptedConnection(pushOnce, { provider }, { legacy: true });
    try {
      const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
      assert.match(JSON.stringify(r.result.content), /\\"code\\":-1/);
    } finally {
      await s.conn.close();
    }
  });

  it('progress notifications keep a leg alive past its idle limit; the updates reach the caller', async () => {
    const ticks = 8;
    const script: Script = async (msg, n, all, server) => {
      const token = msg.params._meta?.progressToken;
      for (let i = 1; i <= ticks; i++) {
        await new Promise((r) => setTimeout(r, 200));
        server.notify('notifications/progress', { progressToken: token, progress: i, total: ticks, message: `step ${i}` });
      }
      return done('long');
    };
    const s = scriptedConnection(script, { provider: scriptedProvider({}) }, { legacy: true });
    const seen: Json[] = [];
    try {
      const started = Date.now();
      const r = await callWithRoundTrips(
        s.conn,
        'tools/call',
        { name: 't', arguments: {} },
        { legIdleMs: 1000, onProgress: (p) => seen.push(p) },
      );
      assert.ok(Date.now() - started >= 1500, 'the leg lasted half again as long as its idle limit');
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'long' }]);
      assert.equal(seen.length, ticks);
      assert.deepEqual(seen[2], { progress: 3, total: ticks, message: 'step 3' });
    } finally {
      await s.conn.close();
    }
  });

  it('connecting does not count against the leg idle limit: it starts when the request is written', async () => {
    const s = scriptedConnection(() => done('up'), { provider: scriptedProvider({}) }, { legacy: true, startDelayMs: 400 });
    try {
      const started = Date.now();
      const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { legIdleMs: 150, onProgress: () => {} });
      assert.ok(Date.now() - started >= 400, 'the connection took longer than the idle limit');
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'up' }]);
    } finally {
      await s.conn.close();
    }
  });

  it('a progress notification written right before the result still reaches the caller (the SDK runs it a microtask later)', async () => {
    const script: Script = (msg, n, all, server) => {
      // The notification and the result in one turn, as a server's two lines read in one chunk reach the host.
      server.notify('notifications/progress', { progressToken: msg.params._meta?.progressToken, progress: 4, total: 4 });
      server.send({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'last' }] } });
      return { silent: true };
    };
    const s = scriptedConnection(script, { provider: scriptedProvider({}) }, { legacy: true });
    const seen: Json[] = [];
    try {
      const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { onProgress: (p) => seen.push(p) });
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'last' }]);
      assert.deepEqual(seen, [{ progress: 4, total: 4 }]);
    } finally {
      await s.conn.close();
    }
  });

  it('a silent leg fails at the idle limit, naming it and how to raise it', async () => {
    const s = scriptedConnection(() => ({ silent: true }), { provider: scriptedProvider({}) }, { legacy: true });
    try {
      const started = Date.now();
      const e = await rejection(
        callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { legIdleMs: 60, onProgress: () => {} }),
      );
      assert.ok(Date.now() - started >= 60);
      assert.equal(e.kind, 'timeLimit');
      assert.equal(
        e.message,
        'tools/call t: scripted sent neither an answer nor progress for 60 ms, the leg idle limit (raise it with --leg-idle-ms or the setting mcpRoundtrip.legIdleSeconds)',
      );
    } finally {
      await s.conn.close();
    }
  });

  it("the call's limit still holds over a leg that keeps sending progress", async () => {
    let sending = true;
    const script: Script = async (msg, n, all, server) => {
      const token = msg.params._meta?.progressToken;
      for (let i = 1; sending; i++) {
        await new Promise((r) => setTimeout(r, 10));
        server.notify('notifications/progress', { progressToken: token, progress: i });
      }
      return { silent: true };
    };
    const s = scriptedConnection(script, { provider: scriptedProvider({}) }, { legacy: true });
    try {
      const e = await rejection(
        callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { timeoutMs: 150, legIdleMs: 50, onProgress: () => {} }),
      );
      assert.equal(e.kind, 'timeLimit');
      assert.match(e.message, /^tools\/call t on scripted exceeded its time limit of 150 ms/);
    } finally {
      sending = false;
      await s.conn.close();
    }
  });
});
