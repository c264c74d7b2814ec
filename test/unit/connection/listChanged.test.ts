/**
 * A server's `notifications/tools|prompts|resources/list_changed` (MCP "Tools", "Prompts",
 * "Resources"): one round-trip log line each, and the listener `withListChanges` adds (the Servers
 * view lists again) is told which server and which list.
 */
import assert from 'node:assert/strict';
import { withListChanges } from '../../../src/core/connection/connectionOptions';
import type { ChangedList, HostEvent } from '../../../src/core/log/events';
import { formatEvent } from '../../../src/core/log/traceLog';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { scriptedConnection } from '../../support/inMemory';
import { done } from '../../support/scripted';
import { deferred, scriptedProvider } from '../../support/providers';

describe('list changed notifications', () => {
  it('are logged, and each reaches the listener withListChanges adds', async () => {
    const events: HostEvent[] = [];
    const changes: [string, ChangedList][] = [];
    const all = deferred();
    const options = withListChanges({ provider: scriptedProvider({}), onEvent: (e) => events.push(e) }, (server, list) => {
      changes.push([server, list]);
      if (changes.length === 3) all.resolve();
    });
    const s = scriptedConnection(
      (msg, n, received, server) => {
        for (const list of ['tools', 'prompts', 'resources']) server.notify(`notifications/${list}/list_changed`, {});
        return done('changed');
      },
      options,
      { legacy: true },
    );
    try {
      await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
      await all.promise;
      assert.deepEqual(changes, [
        ['scripted', 'tools'],
        ['scripted', 'prompts'],
        ['scripted', 'resources'],
      ]);
      const lines = events.filter((e) => e.kind === 'listChanged').map((e) => formatEvent(e)?.text);
      assert.deepEqual(lines, [
        '[scripted] its tools changed (notifications/tools/list_changed); listed again when shown',
        '[scripted] its prompts changed (notifications/prompts/list_changed); listed again when shown',
        '[scripted] its resources changed (notifications/resources/list_changed); listed again when shown',
      ]);
    } finally {
      await s.conn.close();
    }
  });
});
