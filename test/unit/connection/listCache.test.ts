/**
 * A server's lists kept per session while it tells of their changes (`ListCache`): listed again
 * without asking the server, asked again once it says the list changed, and never kept for a server
 * that does not declare `listChanged` (MCP "List Changed Notification").
 */
import assert from 'node:assert/strict';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { ChangedList } from '../../../src/core/log/events';
import { deferred, scriptedProvider } from '../../support/providers';
import type { Json } from '../../support/scripted';

/** A 2025-era server whose tools/list answers `tools-<n>` (n: how many times it was asked). */
function listingServer(listChanged: boolean) {
  let lists = 0;
  let notify: (list: ChangedList) => void = () => {};
  const conn = new ServerConnection(
    {
      transport: 'custom',
      name: 'lists',
      create: () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        const send = (m: Json) => void server.send(m as never);
        notify = (list) => send({ jsonrpc: '2.0', method: `notifications/${list}/list_changed` });
        server.onmessage = (m: Json) => {
          if (m.method === 'server/discover')
            return send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
          if (m.method === 'initialize')
            return send({
              jsonrpc: '2.0',
              id: m.id,
              result: {
                protocolVersion: m.params.protocolVersion,
                capabilities: { tools: listChanged ? { listChanged: true } : {}, prompts: {} },
                serverInfo: { name: 'lists', version: '1' },
              },
            });
          if (m.method === 'tools/list') {
            lists++;
            return send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: `tools-${lists}`, inputSchema: { type: 'object' } }] } });
          }
          if (m.method === 'prompts/list') return send({ jsonrpc: '2.0', id: m.id, result: { prompts: [] } });
        };
        void server.start();
        return client;
      },
    },
    { provider: scriptedProvider({}) },
  );
  return { conn, lists: () => lists, notify: (list: ChangedList) => notify(list) };
}

const names = (items: unknown[]) => items.map((t) => (t as { name: string }).name);

describe('lists kept per server', () => {
  it('are listed again without asking a server that declares listChanged, and asked again once it says the list changed', async () => {
    const s = listingServer(true);
    try {
      assert.deepEqual(names(await s.conn.list('tools')), ['tools-1']);
      const again = await s.conn.list('tools');
      assert.deepEqual(names(again), ['tools-1']);
      assert.equal(s.lists(), 1);
      // The copy handed out is the caller's: changing it changes nothing kept.
      again.length = 0;
      assert.deepEqual(names(await s.conn.list('tools')), ['tools-1']);
      // A change of another list leaves the tools kept.
      const told = deferred();
      const unsubscribe = s.conn.onListChanged((list) => list === 'tools' && told.resolve());
      s.notify('prompts');
      s.notify('tools');
      await told.promise;
      unsubscribe();
      assert.deepEqual(names(await s.conn.list('tools')), ['tools-2']);
      assert.deepEqual(names(await s.conn.list('tools')), ['tools-2']);
      assert.equal(s.lists(), 2);
    } finally {
      await s.conn.close();
    }
  });

  it('are asked of the server every time when it does not declare listChanged (it would never say)', async () => {
    const s = listingServer(false);
    try {
      assert.deepEqual(names(await s.conn.list('tools')), ['tools-1']);
      assert.deepEqual(names(await s.conn.list('tools')), ['tools-2']);
      assert.equal(s.lists(), 2);
    } finally {
      await s.conn.close();
    }
  });

  it('are not kept across a new session', async () => {
    const s = listingServer(true);
    try {
      await s.conn.list('tools');
      await s.conn.close();
      assert.deepEqual(names(await s.conn.list('tools')), ['tools-2']);
    } finally {
      await s.conn.close();
    }
  });
});
