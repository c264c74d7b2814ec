// SEP-2243 on Streamable HTTP, end to end (found by the official conformance suite): tools with invalid
// `x-mcp-header` declarations are excluded from tools/list, and every tools/call leg mirrors the declared
// arguments into `Mcp-Param-{Name}` headers (src/core/connection/toolHeaders.ts).
// Spec: MCP 2026-07-28, Streamable HTTP "Custom Headers from Tool Parameters".
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { INVALID_TOOLS, REGION_TOOL } from '../../fixtures/headerTools';
import { scriptedProvider } from '../../support/providers';

/** A minimal 2026-07-28 Streamable HTTP server: discover, tools/list, and a tools/call that asks once. */
async function startServer(): Promise<{
  url: string;
  posts: { method: string; id: unknown; headers: IncomingHttpHeaders; params: any }[];
  close: () => Promise<void>;
}> {
  const posts: { method: string; id: unknown; headers: IncomingHttpHeaders; params: any }[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      posts.push({ method: msg.method, id: msg.id, headers: req.headers, params: msg.params });
      if (msg.id === undefined) return void res.writeHead(202).end();
      const reply = (result: object) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      switch (msg.method) {
        case 'server/discover':
          return reply({
            resultType: 'complete',
            ttlMs: 0,
            cacheScope: 'private',
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {} },
            serverInfo: { name: 'headers', version: '1' },
          });
        case 'tools/list':
          return reply({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: [REGION_TOOL, ...INVALID_TOOLS] });
        case 'tools/call':
          if (!msg.params.inputResponses) {
            return reply({
              resultType: 'input_required',
              inputRequests: {
                ok: { method: 'elicitation/create', params: { message: 'sure?', requestedSchema: { type: 'object', properties: {} } } },
              },
            });
          }
          return reply({ resultType: 'complete', content: [{ type: 'text', text: 'done' }] });
        default:
          return reply({ resultType: 'complete' });
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, posts, close: () => new Promise((r) => server.close(() => r())) };
}

describe('a 2026-07-28 HTTP server with x-mcp-header tools', function () {
  this.timeout(20_000);
  let srv: Awaited<ReturnType<typeof startServer>>;
  let conn: ServerConnection;
  const provider = scriptedProvider({ ok: { action: 'accept', content: {} } });
  beforeEach(async () => {
    srv = await startServer();
    conn = new ServerConnection({ transport: 'http', name: 'headers', url: srv.url, era: 'modern' }, { provider });
  });
  afterEach(async () => {
    await conn.close();
    await srv.close();
  });

  const args = { region: 'Hello, 世界', priority: 7, verbose: null, where: { zone: ' z ' }, sql: 'SELECT 1' };
  const expected = {
    'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
    'mcp-param-priority': '7',
    'mcp-param-zone': '=?base64?IHog?=',
  };
  const paramHeaders = (h: IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).filter(([k]) => k.startsWith('mcp-param-')));

  it('lists only the tools whose declarations are valid', async () => {
    const tools = (await conn.list('tools')) as { name: string }[];
    assert.deepEqual(
      tools.map((t) => t.name),
      ['query'],
    );
  });

  it('every leg of an MRTR tools/call carries the Mcp-Param headers, null omitted', async () => {
    await conn.list('tools');
    const r = await callWithRoundTrips(conn, 'tools/call', { name: 'query', arguments: args }, { provider });
    assert.equal(r.rounds, 1);
    const calls = srv.posts.filter((p) => p.method === 'tools/call');
    assert.equal(calls.length, 2);
    for (const c of calls) {
      assert.deepEqual(paramHeaders(c.headers), expected);
      assert.equal(c.headers['mcp-method'], 'tools/call');
      assert.equal(c.headers['mcp-name'], 'query');
    }
  });

  it('a call made without listing first (the CLI) lists the tools once to learn the headers', async () => {
    await callWithRoundTrips(conn, 'tools/call', { name: 'query', arguments: args }, { provider });
    await callWithRoundTrips(conn, 'tools/call', { name: 'query', arguments: { region: 'us' } }, { provider });
    assert.deepEqual(
      srv.posts.map((p) => p.method),
      ['server/discover', 'tools/list', 'tools/call', 'tools/call', 'tools/call', 'tools/call'],
    );
    const calls = srv.posts.filter((p) => p.method === 'tools/call');
    assert.deepEqual(paramHeaders(calls[0].headers), expected);
    assert.deepEqual(paramHeaders(calls[3].headers), { 'mcp-param-region': 'us' });
  });
});
