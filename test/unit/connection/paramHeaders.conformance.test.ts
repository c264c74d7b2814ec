// SEP-2243 on Streamable HTTP (found by the official conformance suite, scenarios http-custom-headers and
// http-invalid-tool-headers): tools with invalid `x-mcp-header` declarations are excluded from tools/list,
// and every tools/call leg mirrors the declared arguments into `Mcp-Param-{Name}` headers, encoded.
// Spec: MCP 2026-07-28, Streamable HTTP "Custom Headers from Tool Parameters", "Value Encoding".
import * as assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { buildParamHeaders, encodeHeaderValue, scanHeaderDeclarations } from '../../../src/core/connection/mcpParamHeaders';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { WireTap } from '../../../src/core/connection/wireTap';
import { scriptedProvider } from '../../support/providers';

const REGION_TOOL = {
  name: 'query',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      where: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
      sql: { type: 'string' },
    },
  },
};

const INVALID_TOOLS = [
  { name: 'bad_number', inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } },
  { name: 'bad_space', inputSchema: { type: 'object', properties: { v: { type: 'string', 'x-mcp-header': 'My Region' } } } },
  { name: 'bad_dup', inputSchema: { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } } } },
];

describe('x-mcp-header declarations (SEP-2243)', () => {
  it('collects declarations reached through properties keys, nested objects included', () => {
    const scan = scanHeaderDeclarations(REGION_TOOL.inputSchema);
    assert.ok(scan.ok);
    assert.deepEqual(
      scan.declarations.map((d) => [d.path.join('.'), d.name, d.type]),
      [
        ['region', 'Region', 'string'],
        ['priority', 'Priority', 'integer'],
        ['verbose', 'Verbose', 'boolean'],
        ['where.zone', 'Zone', 'string'],
      ],
    );
    assert.deepEqual(scanHeaderDeclarations({ type: 'object', properties: { q: { type: 'string' } } }), { ok: true, declarations: [] });
  });

  it('refuses every broken constraint, naming the property', () => {
    const bad = (prop: unknown, extra: Record<string, unknown> = {}) => scanHeaderDeclarations({ type: 'object', properties: { p: prop }, ...extra });
    const cases: [ReturnType<typeof scanHeaderDeclarations>, RegExp][] = [
      [bad({ type: 'string', 'x-mcp-header': '' }), /p: x-mcp-header must be a non-empty string/],
      [bad({ type: 'string', 'x-mcp-header': 7 }), /non-empty string/],
      [bad({ type: 'string', 'x-mcp-header': 'Region:Primary' }), /not an HTTP header name token/],
      [bad({ type: 'string', 'x-mcp-header': 'Région' }), /not an HTTP header name token/],
      [bad({ type: 'string', 'x-mcp-header': 'Region\t1' }), /not an HTTP header name token/],
      [bad({ type: 'number', 'x-mcp-header': 'N' }), /string, integer or boolean properties, not "number"/],
      [bad({ type: 'array', items: { type: 'string' }, 'x-mcp-header': 'A' }), /not "array"/],
      [bad({ type: 'null', 'x-mcp-header': 'N' }), /not "null"/],
      [bad({ 'x-mcp-header': 'N' }), /not null/],
      [bad({ type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } }), /reached through "properties" keys alone/],
      [bad({ anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] }), /reached through "properties" keys alone/],
      [bad({ $ref: '#/$defs/r' }, { $defs: { r: { type: 'string', 'x-mcp-header': 'R' } } }), /reached through "properties" keys alone/],
      [scanHeaderDeclarations({ type: 'object', 'x-mcp-header': 'Root' }), /<root>/],
      [scanHeaderDeclarations(INVALID_TOOLS[2].inputSchema), /declared twice/],
    ];
    for (const [scan, reason] of cases) {
      assert.equal(scan.ok, false, `${reason} should be refused`);
      assert.match((scan as { reason: string }).reason, reason);
    }
  });

  it('a property named x-mcp-header, or the word inside a default, is no declaration', () => {
    const scan = scanHeaderDeclarations({ type: 'object', properties: { 'x-mcp-header': { type: 'object', default: { 'x-mcp-header': 1 } } } });
    assert.deepEqual(scan, { ok: true, declarations: [] });
  });
});

describe('Mcp-Param header values (SEP-2243 value encoding)', () => {
  it('encodes exactly as the spec table shows', () => {
    assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
    assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
    assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
    assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
    assert.equal(encodeHeaderValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
    assert.equal(encodeHeaderValue('us west 1'), 'us west 1');
    assert.equal(encodeHeaderValue('\tindented'), '=?base64?CWluZGVudGVk?=');
    assert.equal(encodeHeaderValue(''), '');
  });

  it('mirrors present primitives, omits null and absent values and unannotated parameters', () => {
    const scan = scanHeaderDeclarations(REGION_TOOL.inputSchema);
    assert.ok(scan.ok);
    assert.deepEqual(buildParamHeaders(scan.declarations, { region: 'eu', priority: 42, verbose: false, where: { zone: 'b' }, sql: 'SELECT 1' }), {
      'Mcp-Param-Region': 'eu',
      'Mcp-Param-Priority': '42',
      'Mcp-Param-Verbose': 'false',
      'Mcp-Param-Zone': 'b',
    });
    assert.deepEqual(buildParamHeaders(scan.declarations, { region: 'eu', verbose: null }), { 'Mcp-Param-Region': 'eu' });
    assert.deepEqual(buildParamHeaders(scan.declarations, { priority: 2 ** 53 }), {}, 'an unsafe integer cannot be mirrored');
  });
});

describe('WireTap keeps the transport kind the SDK sees', () => {
  it('an HTTP transport has no stderr/pid (else the SDK treats it as stdio)', () => {
    const tap = new WireTap(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:9/mcp')), { fillResultType: () => true });
    assert.equal('stderr' in tap, false);
    assert.equal('pid' in tap, false);
  });

  it('a stdio-like transport keeps them, read live from the inner transport', () => {
    const inner = { stderr: null as unknown, pid: 1 as number | null, start: async () => {}, close: async () => {}, send: async () => {} } as unknown as Transport & { pid: number | null };
    const tap = new WireTap(inner, { fillResultType: () => true }) as unknown as { pid: unknown; stderr: unknown };
    assert.equal('stderr' in tap, true);
    inner.pid = 4242;
    assert.equal(tap.pid, 4242);
  });
});

/** A minimal 2026-07-28 Streamable HTTP server: discover, tools/list, and a tools/call that asks once. */
async function startServer(): Promise<{ url: string; posts: { method: string; id: unknown; headers: IncomingHttpHeaders; params: any }[]; close: () => Promise<void> }> {
  const posts: { method: string; id: unknown; headers: IncomingHttpHeaders; params: any }[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const msg = JSON.parse(body);
      posts.push({ method: msg.method, id: msg.id, headers: req.headers, params: msg.params });
      if (msg.id === undefined) return void res.writeHead(202).end();
      const reply = (result: object) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      switch (msg.method) {
        case 'server/discover':
          return reply({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'headers', version: '1' } });
        case 'tools/list':
          return reply({ resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: [REGION_TOOL, ...INVALID_TOOLS] });
        case 'tools/call':
          if (!msg.params.inputResponses) {
            return reply({ resultType: 'input_required', inputRequests: { ok: { method: 'elicitation/create', params: { message: 'sure?', requestedSchema: { type: 'object', properties: {} } } } } });
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
  const expected = { 'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=', 'mcp-param-priority': '7', 'mcp-param-zone': '=?base64?IHog?=' };
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
