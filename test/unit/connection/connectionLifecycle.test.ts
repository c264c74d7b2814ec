/**
 * A connection's state carries its own message (src/core/connection/connectionLifecycle.ts): why the
 * server closed or could not be reached, kept while idle or reconnecting, cleared once connected.
 */
import assert from 'node:assert/strict';
import type { ConnectionStatus } from '../../../src/core/connection/connectionState';
import type { HostEvent } from '../../../src/core/log/events';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { HostError } from '../../../src/core/util/errors';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { hostileStdio } from '../../support/hostile';
import { scriptedConnection } from '../../support/inMemory';
import { scriptedProvider } from '../../support/providers';
import { done } from '../../support/scripted';

const call = (s: ReturnType<typeof scriptedConnection>) => callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setImmediate(r));
  assert.ok(check(), what);
}

describe('connection state and its message', () => {
  it('idle → connecting → connected; closed by the server says so; idle and connecting keep the message; connected clears it', async () => {
    const atConnecting: ConnectionStatus[] = [];
    const events: HostEvent[] = [];
    const s = scriptedConnection(() => done(), {
      provider: scriptedProvider({}),
      onEvent: (e) => {
        events.push(e);
        if (e.kind === 'connecting') atConnecting.push({ ...s.conn.status });
      },
    });
    assert.deepEqual(s.conn.status, { kind: 'idle' });
    await call(s);
    assert.deepEqual(s.conn.status, { kind: 'connected' });
    assert.equal(s.conn.state, 'connected');

    await s.kill();
    await until('the server closed the connection', () => s.conn.state === 'closed');
    assert.deepEqual(s.conn.status, { kind: 'closed', message: 'server scripted closed the connection' });
    assert.ok(events.some((e) => e.kind === 'disconnected' && e.reason === 'server scripted closed the connection'));

    await s.conn.close();
    assert.deepEqual(s.conn.status, { kind: 'idle', message: 'server scripted closed the connection' });
    await call(s);
    assert.deepEqual(atConnecting, [{ kind: 'connecting' }, { kind: 'connecting', message: 'server scripted closed the connection' }]);
    assert.deepEqual(s.conn.status, { kind: 'connected' });
  });

  it('a failed connect is an error state with the reason, also thrown as HostError connection', async () => {
    const s = scriptedConnection(() => done(), { provider: scriptedProvider({}), connectTimeoutMs: 2000 }, { era: 'modern', legacy: true });
    await assert.rejects(call(s), (e: unknown) => e instanceof HostError && e.kind === 'connection');
    assert.equal(s.conn.status.kind, 'error');
    assert.match(s.conn.status.message ?? '', /^could not connect to scripted: /);
  });

  it("a server silent on the handshake reaches the handshake's own limit: a time limit (CLI exit 4), naming the steps", async () => {
    const [command, ...args] = hostileStdio('silent-discover')
      .match(/"[^"]*"|\S+/g)!
      .map((w) => w.replace(/^"|"$/g, ''));
    const conn = new ServerConnection(
      { transport: 'stdio', name: 'silent', command, args, era: 'modern' },
      { provider: scriptedProvider({}), connectTimeoutMs: 500 },
    );
    try {
      await assert.rejects(
        callWithRoundTrips(conn, 'tools/call', { name: 't', arguments: {} }),
        (e: unknown) =>
          e instanceof HostError &&
          e.kind === 'timeLimit' &&
          /silent did not complete the handshake \(server\/discover\) within 500 ms/.test(e.message),
      );
    } finally {
      await conn.kill();
    }
  });
});
