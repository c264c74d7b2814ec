/**
 * What a 2025-era server pushes that the host does not take is said in the round-trip log, never
 * dropped unsaid: a request for a capability the host did not declare (refused -32601), a
 * notification it does not handle, and a pushed request the server withdraws while it is asked.
 */
import assert from 'node:assert/strict';
import type { HostEvent } from '../../../src/core/log/events';
import { formatEvent } from '../../../src/core/log/traceLog';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { HostError } from '../../../src/core/util/errors';
import { scriptedConnection } from '../../support/inMemory';
import { done, type Json } from '../../support/scripted';
import { deferred, scriptedProvider } from '../../support/providers';

const FORM = { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };

describe('unexpected pushes of a 2025-era server', () => {
  it('are logged: an undeclared capability refused, an unknown notification ignored, a withdrawn request', async () => {
    const events: HostEvent[] = [];
    const asked = deferred();
    const withdrawn = deferred();
    let refused: Json;
    // Form elicitation only: no sampling declared.
    const provider = scriptedProvider(
      {
        'push-2': (_p: unknown, ctx: { signal: AbortSignal }) => {
          asked.resolve();
          return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new HostError('cancelled', 'withdrawn'))));
        },
      },
      { elicitation: { form: {} } },
    );
    const onEvent = (e: HostEvent) => {
      events.push(e);
      if (e.kind === 'pushed' && e.action === 'withdrawn') withdrawn.resolve();
    };
    const s = scriptedConnection(
      async (msg, n, all, server) => {
        refused = await server.request('sampling/createMessage', { messages: [], maxTokens: 10 });
        server.notify('notifications/weird/thing', {});
        void server.request('elicitation/create', FORM);
        await asked.promise;
        server.notify('notifications/cancelled', { requestId: 'push-2', reason: 'no longer needed' });
        await withdrawn.promise;
        return done('ok');
      },
      { provider, onEvent },
      { legacy: true },
    );
    try {
      await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
      assert.equal(refused.error?.code, -32601);
      const lines = events.map((e) => formatEvent(e)?.text ?? '');
      assert.ok(
        lines.includes(
          '⚠ [scripted] scripted pushed sampling/createMessage, but this host did not declare the sampling capability; refused (-32601)',
        ),
        lines.join('\n'),
      );
      assert.ok(
        lines.includes('⚠ [scripted] scripted sent the notification notifications/weird/thing, which this host does not handle; ignored'),
        lines.join('\n'),
      );
      assert.ok(
        lines.includes(
          '← [scripted] elicitation/create id=push-2 pushed by a 2025-era server: withdrawn by the server (notifications/cancelled) before it was answered',
        ),
        lines.join('\n'),
      );
    } finally {
      await s.conn.close();
    }
  });
});
