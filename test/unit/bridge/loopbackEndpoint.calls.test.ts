/**
 * The bridge as VS Code's MCP client meets it: a 2025-11-25 client (the official SDK's, as VS Code
 * 1.139 speaks it) over the loopback endpoint, in front of the host's MRTR driver and the demo server
 * (2026-07-28 only, in memory). tools/list mirrors the real server's tools; tools/call streams one
 * progress line per round and returns the real result unchanged; `notifications/cancelled` and a
 * request that goes away abort the call mid-round; two calls in parallel do not disturb each other.
 */
import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import type { BridgeTarget } from '../../../src/core/bridge/bridgeServer';
import { LoopbackEndpoint } from '../../../src/core/bridge/loopbackEndpoint';
import { roundProgressText } from '../../../src/core/chat/progressText';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { checkFormContent } from '../../../src/core/elicitation/formCheck';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import type { InputContext } from '../../../src/core/inputs/inputProvider';
import { readDemoConfig } from '../../../src/demo/config';
import { demoServerFactory } from '../../../src/demo/server';
import { deferred, scriptedProvider } from '../../support/providers';

const TRIP = {
  trip: { action: 'accept', content: { destination: 'Lisbon', startDate: '2026-12-01', endDate: '2026-12-04' } },
  itinerary: { role: 'assistant', content: { type: 'text', text: 'Day 1: Alfama.' }, model: 'test-model', stopReason: 'endTurn' },
  roots: { roots: [{ uri: 'file:///work/trips', name: 'trips' }] },
};

/** The demo server in memory (no socket), as the host's connection sees it. */
function demoConnection(answers: Record<string, unknown>): ServerConnection {
  const handler = createMcpHandler(demoServerFactory(readDemoConfig({})));
  return new ServerConnection(
    {
      transport: 'custom',
      name: 'demo',
      era: 'modern',
      create: () =>
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }),
    },
    { provider: scriptedProvider(answers), checkFormContent },
  );
}

/** What the VS Code side does for a bridged call, minus the panel: the driver, and a progress line per event. */
function bridgedDemo(conn: ServerConnection, seen: Seen): BridgeTarget {
  return {
    name: 'demo',
    listTools: () => conn.list('tools'),
    callTool: async (params, signal, progress) => {
      seen.params.push(params);
      seen.signals.push(signal);
      const r = await callWithRoundTrips(conn, 'tools/call', params, {
        signal,
        onEvent: (e) => {
          const text = roundProgressText(e, 300);
          if (text) progress(text);
        },
      });
      seen.completed.push(!signal.aborted);
      return r.result;
    },
  };
}

/** What the bridged calls received: their params and signals, and which ones completed unaborted. */
interface Seen {
  params: Record<string, unknown>[];
  signals: AbortSignal[];
  completed: boolean[];
}
const newSeen = (): Seen => ({ params: [], signals: [], completed: [] });

/** A 2025-11-25 client of the endpoint, as VS Code's is: bearer token in a header. */
async function vscodeLikeClient(endpoint: LoopbackEndpoint, token: string): Promise<Client> {
  const client = new Client(
    { name: 'vscode-like', version: '1.139.1' },
    { capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint.url('demo')), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

describe('bridge loopback endpoint: calls from a 2025-11-25 client', function () {
  this.timeout(30_000);

  it('mirrors tools/list, streams a progress line per round, and returns the real result unchanged', async () => {
    const conn = demoConnection(TRIP);
    const seen = newSeen();
    const endpoint = await LoopbackEndpoint.start({ version: '1', target: (id) => (id === 'demo' ? bridgedDemo(conn, seen) : undefined) });
    const client = await vscodeLikeClient(endpoint, endpoint.mintToken());
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
      const real = ((await conn.list('tools')) as { name: string; description?: string }[]).map((t) => [t.name, t.description]);
      const bridged = (await client.listTools()).tools.map((t) => [t.name, t.description]);
      assert.deepEqual(bridged, real);

      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'plan_trip', arguments: {}, _meta: { 'vscode.conversationId': 'chat-1', 'vscode.requestId': 'r-1', trace: 'kept' } },
        { onprogress: (p) => progress.push(String(p.message)) },
      );
      assert.deepEqual(progress, [
        'Round 1: answer in the MCP Roundtrip panel (Cancel there ends the call; the 300 s call limit pauses while you answer)',
        'Round 1: answers sent, waiting for demo',
        'Round 2: answer in the MCP Roundtrip panel (Cancel there ends the call; the 300 s call limit pauses while you answer)',
        'Round 2: answers sent, waiting for demo',
        'Round 3: sharing your workspace folders (roots) with demo',
        'Round 3: answers sent, waiting for demo',
      ]);
      // The same call through the driver directly gives the same result (apart from resultType, a 2026 field).
      const direct = await callWithRoundTrips(conn, 'tools/call', { name: 'plan_trip', arguments: {} });
      const { resultType: _omit, ...expected } = direct.result;
      assert.deepEqual(result, expected);
      assert.equal((result.structuredContent as { model: string }).model, 'test-model');
      // VS Code's own _meta keys and its progress token stay with VS Code.
      assert.deepEqual(seen.params[0], { name: 'plan_trip', arguments: {}, _meta: { trace: 'kept' } });
    } finally {
      await client.close();
      await endpoint.close();
      await conn.close();
    }
  });

  it('aborts the call mid-round on notifications/cancelled; a parallel call completes untouched', async () => {
    const asked = deferred<InputContext>();
    // Flow of the first call: the form waits (the person has not answered); the second call's form is answered.
    let calls = 0;
    const conn = demoConnection({
      ...TRIP,
      trip: (_p: unknown, ctx: InputContext) => {
        calls++;
        if (calls === 1) {
          asked.resolve(ctx);
          return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
        }
        return TRIP.trip;
      },
    });
    const seen = newSeen();
    const endpoint = await LoopbackEndpoint.start({ version: '1', target: () => bridgedDemo(conn, seen) });
    const client = await vscodeLikeClient(endpoint, endpoint.mintToken());
    try {
      const stop = new AbortController();
      const first = client.callTool({ name: 'plan_trip', arguments: {} }, { signal: stop.signal }).then(
        () => 'completed',
        (e: Error) => `rejected: ${e.message}`,
      );
      const ctx = await asked.promise;
      assert.equal(endpoint.callsInFlight, 1);
      const second = client.callTool({ name: 'plan_trip', arguments: {} });
      // The SDK client cancels with notifications/cancelled (a separate POST, to a fresh server instance).
      stop.abort('the person pressed stop');
      assert.match(await first, /rejected/);
      await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve())));
      assert.equal(seen.signals[0].aborted, true, 'the bridged call was aborted');
      assert.match(String(seen.signals[0].reason), /the person pressed stop/);
      const done = await second;
      assert.equal((done.structuredContent as { status: string }).status, 'planned');
      assert.deepEqual(seen.completed, [true], 'only the second call completed, not aborted');
      assert.equal(endpoint.callsInFlight, 0);
    } finally {
      await client.close();
      await endpoint.close();
      await conn.close();
    }
  });

  /** A raw tools/call (id 7) over plain fetch, its form held until the call's signal aborts. */
  async function rawHeldCall() {
    const asked = deferred<InputContext>();
    const conn = demoConnection({
      ...TRIP,
      trip: (_p: unknown, ctx: InputContext) => (
        asked.resolve(ctx),
        new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)))
      ),
    });
    const seen = newSeen();
    const endpoint = await LoopbackEndpoint.start({ version: '1', target: () => bridgedDemo(conn, seen) });
    const token = endpoint.mintToken();
    const post = (body: unknown, signal?: AbortSignal) =>
      fetch(endpoint.url('demo'), {
        method: 'POST',
        signal,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify(body),
      });
    const http = new AbortController();
    // The stateless 2025 serving needs no initialize before a tools/call.
    const pending = post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'plan_trip', arguments: {} } }, http.signal)
      .then((r) => r.text())
      .catch((e: Error) => e.name);
    const ctx = await asked.promise;
    const aborted = new Promise<void>((resolve) =>
      ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve()),
    );
    const close = async () => {
      http.abort();
      await pending;
      await endpoint.close();
      await conn.close();
    };
    return { post, http, pending, aborted, seen, endpoint, close };
  }

  it('routes a notifications/cancelled sent on its own POST to the running call (202), while its request stays open', async () => {
    const call = await rawHeldCall();
    try {
      const other = await call.post({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 8, reason: 'not this one' },
      });
      assert.equal(other.status, 202);
      assert.equal(call.seen.signals[0].aborted, false, 'a cancellation of another id changes nothing');
      const r = await call.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'stop button' } });
      assert.equal(r.status, 202);
      await call.aborted;
      assert.match(String(call.seen.signals[0].reason), /stop button/);
      assert.equal(call.endpoint.callsInFlight, 0, 'the call ended');
    } finally {
      await call.close();
    }
  });

  it('aborts the call when its HTTP request goes away without a cancellation', async () => {
    const call = await rawHeldCall();
    try {
      call.http.abort();
      await call.pending;
      await call.aborted;
      assert.equal(call.seen.signals[0].aborted, true);
    } finally {
      await call.close();
    }
  });
});
