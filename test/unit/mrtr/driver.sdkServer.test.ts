/**
 * The host against the official SDK's own server (our demo server, built on McpServer):
 * in memory over a fetch-level Streamable HTTP channel (2026-07-28), and over stdio on the 2025 era,
 * where the server pushes real requests that must reach the same InputProvider.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { HostEvent } from '../../../src/core/log/events';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { checkFormContent } from '../../../src/core/elicitation/formCheck';
import { readDemoConfig } from '../../../src/demo/config';
import { demoServerFactory } from '../../../src/demo/server';
import { DIST, ensureBuilt } from '../../support/build';
import { scriptedProvider } from '../../support/providers';

const TRIP = {
  trip: { action: 'accept', content: { destination: 'Lisbon', startDate: '2026-12-01', endDate: '2026-12-04' } },
  itinerary: { role: 'assistant', content: { type: 'text', text: 'Day 1: Alfama.' }, model: 'test-model', stopReason: 'endTurn' },
  roots: { roots: [{ uri: 'file:///work/trips', name: 'trips' }] },
};

describe("the SDK's own server (demo)", function () {
  this.timeout(30_000);

  it('in memory, modern era: plan_trip completes through three rounds with our driver', async () => {
    const handler = createMcpHandler(demoServerFactory(readDemoConfig({})));
    const conn = new ServerConnection(
      {
        transport: 'custom',
        name: 'in-memory-demo',
        // No socket: the client's fetch calls the server's handler directly.
        create: () =>
          new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
            fetch: (url, init) => handler.fetch(new Request(url, init)),
          }),
      },
      { provider: scriptedProvider(TRIP), checkFormContent },
    );
    try {
      const events: HostEvent[] = [];
      const r = await callWithRoundTrips(conn, 'tools/call', { name: 'plan_trip', arguments: {} }, { onEvent: (e) => events.push(e) });
      assert.equal(conn.era, 'modern');
      assert.equal(r.rounds, 3);
      assert.equal((r.result.structuredContent as { model: string }).model, 'test-model');
      assert.equal((r.result.structuredContent as { firstRoot: string }).firstRoot, 'file:///work/trips');
      assert.deepEqual(
        events.filter((e) => e.kind === 'inputRequired').map((e) => (e as { inputs: { key: string }[] }).inputs.map((i) => i.key)),
        [['trip'], ['itinerary'], ['roots']],
      );
    } finally {
      await conn.close();
    }
  });

  it('over stdio, 2025 era: pushed elicitation, sampling and roots reach the same provider', async () => {
    ensureBuilt();
    const provider = scriptedProvider({});
    const byMethod: Record<string, unknown> = {
      'elicitation/create': TRIP.trip,
      'sampling/createMessage': TRIP.itinerary,
      'roots/list': TRIP.roots,
    };
    // 2025 pushes are keyed by JSON-RPC id: answer by method instead.
    const legacyProvider = {
      ...provider,
      elicit: async (p: unknown, ctx: { round: { era: string; target: string } }) => (
        assert.equal(ctx.round.era, 'legacy'),
        assert.equal(ctx.round.target, 'plan_trip'),
        byMethod['elicitation/create']
      ),
      sample: async () => byMethod['sampling/createMessage'],
      listRoots: async () => byMethod['roots/list'],
    };
    const events: HostEvent[] = [];
    const conn = new ServerConnection(
      { transport: 'stdio', name: 'demo-2025', command: process.execPath, args: [join(DIST, 'demo-server.js')], era: 'legacy' },
      { provider: legacyProvider as never, onEvent: (e) => events.push(e) },
    );
    try {
      const r = await callWithRoundTrips(conn, 'tools/call', { name: 'plan_trip', arguments: {} });
      assert.equal(conn.era, 'legacy');
      assert.equal(r.rounds, 0, 'no MRTR rounds on the 2025 era');
      assert.equal((r.result.structuredContent as { firstRoot: string }).firstRoot, 'file:///work/trips');
      const pushed = events.filter((e) => e.kind === 'pushed').map((e) => (e as { inputMethod: string }).inputMethod);
      assert.deepEqual(pushed, ['elicitation/create', 'sampling/createMessage', 'roots/list']);
    } finally {
      await conn.close();
    }
  });
});
