/**
 * A URLElicitationRequiredError (-32042, MCP 2025-11-25): the host offers the URL with the URL consent
 * of any URL elicitation, waits for the server's notifications/elicitation/complete or the person's
 * "done", and sends the request once more; once per call.
 */
import assert from 'node:assert/strict';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { scriptedInputs } from '../../../src/core/mrtr/scriptedInputs';
import { urlElicitationsOf } from '../../../src/core/mrtr/urlRequired';
import { HostError } from '../../../src/core/util/errors';
import { scriptedConnection } from '../../support/inMemory';
import { done, type Reply, type Script, type ServerSide } from '../../support/scripted';
import { deferred, scriptedProvider } from '../../support/providers';

const URL_PARAMS = { mode: 'url', url: 'https://sign.test/start', message: 'Sign the form first', elicitationId: 'e1' };
const REQUIRED: Reply = {
  error: { code: -32042, message: 'This request requires browser-based authorization.', data: { elicitations: [URL_PARAMS] } },
};

describe('URLElicitationRequiredError (-32042)', () => {
  it('offers the URL, waits for notifications/elicitation/complete, and sends the call once more', async () => {
    let side: ServerSide | undefined;
    const script: Script = (msg, n, all, server) => ((side = server), n === 1 ? REQUIRED : done('signed'));
    const never = deferred();
    const provider = {
      ...scriptedProvider({
        e1: (params: unknown) => {
          assert.deepEqual(params, URL_PARAMS);
          // The server says it is done while the person has not said so yet.
          side!.notify('notifications/elicitation/complete', { elicitationId: 'e1' });
          return { action: 'accept' };
        },
      }),
      urlDone: () => never.promise,
    };
    const s = scriptedConnection(script, { provider }, { legacy: true });
    try {
      const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: { a: 1 } });
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'signed' }]);
      const calls = s.requests('tools/call');
      assert.equal(calls.length, 2);
      assert.deepEqual(calls[1].params.arguments, { a: 1 }, 'the same request, sent once more');
      assert.notEqual(calls[1].id, calls[0].id);
    } finally {
      await s.conn.close();
    }
  });

  it('the person\'s "done" ends the wait when the server says nothing', async () => {
    const doneAsked = deferred();
    const provider = { ...scriptedProvider({ e1: { action: 'accept' } }), urlDone: () => (doneAsked.resolve(), Promise.resolve()) };
    const s = scriptedConnection((m, n) => (n === 1 ? REQUIRED : done('ok')), { provider }, { legacy: true });
    try {
      const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
      await doneAsked.promise;
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'ok' }]);
    } finally {
      await s.conn.close();
    }
  });

  it("a declined URL ends the call without sending it again; a second -32042 is the call's error", async () => {
    const declined = scriptedConnection(() => REQUIRED, { provider: scriptedProvider({ e1: { action: 'decline' } }) }, { legacy: true });
    const again = scriptedConnection(() => REQUIRED, { provider: scriptedProvider({ e1: { action: 'accept' } }) }, { legacy: true });
    try {
      await assert.rejects(callWithRoundTrips(declined.conn, 'tools/call', { name: 't', arguments: {} }), (e: HostError) => {
        assert.equal(e.kind, 'declined');
        assert.match(e.message, /needs the URL https:\/\/sign\.test\/start opened before it goes on; it was declined/);
        return true;
      });
      assert.equal(declined.requests('tools/call').length, 1);
      await assert.rejects(callWithRoundTrips(again.conn, 'tools/call', { name: 't', arguments: {} }), (e: HostError) => {
        assert.equal(e.code, -32042);
        return true;
      });
      assert.equal(again.requests('tools/call').length, 2);
    } finally {
      await declined.conn.close();
      await again.conn.close();
    }
  });

  it("a declined URL's failure counts the person's time as waiting for the user", async () => {
    // The person takes a minute to decline: Date.now moves on while they are asked (no real wait).
    const realNow = Date.now;
    const provider = scriptedProvider({
      e1: () => {
        const shifted = realNow() + 60_000;
        Date.now = () => shifted;
        return { action: 'decline' };
      },
    });
    const s = scriptedConnection(() => REQUIRED, { provider }, { legacy: true });
    const errors: { waitingMs: number }[] = [];
    try {
      await assert.rejects(
        callWithRoundTrips(
          s.conn,
          'tools/call',
          { name: 't', arguments: {} },
          {
            onEvent: (e) => {
              if (e.kind === 'error') errors.push({ waitingMs: e.waitingMs });
            },
          },
        ),
        (e: HostError) => e.kind === 'declined',
      );
    } finally {
      Date.now = realNow;
      await s.conn.close();
    }
    assert.equal(errors.length, 1);
    assert.ok(errors[0].waitingMs >= 60_000, `waitingMs ${errors[0].waitingMs}`);
  });

  it('with --answers, the URL is answered under its elicitationId; none is a missing answer', async () => {
    const s = scriptedConnection((m, n) => (n === 1 ? REQUIRED : done('ok')), { provider: scriptedInputs({}, []) }, { legacy: true });
    try {
      await assert.rejects(callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }), (e: HostError) => {
        assert.equal(e.kind, 'missingAnswer');
        assert.match(e.message, /no answer for input "e1" \(elicitation\/create\)/);
        return true;
      });
    } finally {
      await s.conn.close();
    }
    const ok = scriptedConnection(
      (m, n) => (n === 1 ? REQUIRED : done('ok')),
      { provider: scriptedInputs({ e1: { action: 'accept' } }, []) },
      { legacy: true },
    );
    try {
      const r = await callWithRoundTrips(ok.conn, 'tools/call', { name: 't', arguments: {} });
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'ok' }]);
    } finally {
      await ok.conn.close();
    }
  });

  it('reads only a well-formed list of URL elicitations from the error', () => {
    const err = (data: unknown) => new HostError('server', 'x', -32042, data);
    assert.deepEqual(urlElicitationsOf(err({ elicitations: [URL_PARAMS] })), [URL_PARAMS]);
    assert.equal(urlElicitationsOf(err({ elicitations: [{ ...URL_PARAMS, mode: 'form' }] })), undefined);
    assert.equal(urlElicitationsOf(err({ elicitations: [] })), undefined);
    assert.equal(urlElicitationsOf(new HostError('server', 'x', -32603, { elicitations: [URL_PARAMS] })), undefined);
  });
});
