/**
 * The bridge's loopback endpoint under attack: what reaches it without the window's token, with a
 * wrong one, with a foreign Host or Origin, with bodies too large to buffer, from another interface;
 * and that nothing there hands a browser a CORS grant.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { LoopbackEndpoint } from '../../../src/core/bridge/loopbackEndpoint';
import { jsonDepth } from '../../../src/core/bridge/requestChecks';
import type { BridgeTarget } from '../../../src/core/bridge/bridgeServer';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
};

/** A target that records whether anything reached it. */
function recordingTarget(): BridgeTarget & { reached: string[] } {
  const reached: string[] = [];
  return {
    name: 'demo',
    reached,
    listTools: async () => (reached.push('tools/list'), [{ name: 'plan_trip', inputSchema: { type: 'object' } }]),
    callTool: async () => (reached.push('tools/call'), { content: [{ type: 'text', text: 'ok' }] }),
  };
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to the endpoint (headers exactly as given, plus the defaults unless overridden). */
function raw(
  port: number,
  o: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer; chunks?: Iterable<Buffer> },
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const body = o.body ?? (o.chunks ? undefined : JSON.stringify(INITIALIZE));
    const headers: Record<string, string | number> = {
      host: `127.0.0.1:${port}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}),
      ...o.headers,
    };
    const req = httpRequest(
      { host: '127.0.0.1', port, path: o.path ?? '/mcp/demo', method: o.method ?? 'POST', headers, setHost: false },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    // The endpoint may answer and close while a huge body is still being written: the answer counts.
    req.on('error', (e) => reject(e));
    if (o.chunks) {
      for (const c of o.chunks) req.write(c);
      req.end();
    } else req.end(body);
  });
}

describe('bridge loopback endpoint: refusals', function () {
  this.timeout(20_000);
  let endpoint: LoopbackEndpoint;
  let target: ReturnType<typeof recordingTarget>;
  let token: string;
  const warnings: string[] = [];

  before(async () => {
    target = recordingTarget();
    endpoint = await LoopbackEndpoint.start({
      version: '1',
      target: (id) => (id === 'demo' ? target : undefined),
      onWarning: (m) => warnings.push(m),
      maxBodyBytes: 64 * 1024,
    });
  });
  after(() => endpoint.close());

  it('refuses everything before a token was minted (401), then serves the right one', async () => {
    const before = await raw(endpoint.port, { headers: { authorization: 'Bearer anything' } });
    assert.equal(before.status, 401);
    token = endpoint.mintToken();
    assert.equal(endpoint.mintToken(), token, 'one token per window');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
    const ok = await raw(endpoint.port, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200, ok.body);
    assert.match(ok.body, /"protocolVersion":"2025-11-25"/);
  });

  it('refuses a request without the token, or with a wrong one (401), and reaches nothing', async () => {
    const none = await raw(endpoint.port, {});
    const wrong = await raw(endpoint.port, { headers: { authorization: `Bearer ${token.slice(0, -1)}x` } });
    const prefix = await raw(endpoint.port, { headers: { authorization: `Bearer ${token.slice(0, 10)}` } });
    const basic = await raw(endpoint.port, { headers: { authorization: `Basic ${Buffer.from(`u:${token}`).toString('base64')}` } });
    assert.deepEqual([none.status, wrong.status, prefix.status, basic.status], [401, 401, 401, 401]);
    assert.match(none.body, /missing bearer token/);
    assert.match(wrong.body, /wrong bearer token/);
    assert.deepEqual(target.reached, []);
    assert.ok(!warnings.some((w) => w.includes(token)), 'the token is never logged');
  });

  it('refuses a foreign Host (DNS rebinding) even with the token (403)', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const evil = await raw(endpoint.port, { headers: { ...auth, host: `evil.example:${endpoint.port}` } });
    const otherPort = await raw(endpoint.port, { headers: { ...auth, host: `127.0.0.1:${endpoint.port + 1}` } });
    const noPort = await raw(endpoint.port, { headers: { ...auth, host: '127.0.0.1' } });
    const localhost = await raw(endpoint.port, { headers: { ...auth, host: `localhost:${endpoint.port}` } });
    assert.deepEqual([evil.status, otherPort.status, noPort.status], [403, 403, 403]);
    assert.equal(localhost.status, 200, 'localhost:<port> is this endpoint too');
  });

  it('refuses a foreign Origin (a web page) even with the token (403), and never sends a CORS grant', async () => {
    const auth = { authorization: `Bearer ${token}` };
    for (const origin of ['https://evil.example', 'http://127.0.0.1:1', 'null', `http://127.0.0.1:${endpoint.port}.evil.example`]) {
      const r = await raw(endpoint.port, { headers: { ...auth, origin } });
      assert.equal(r.status, 403, origin);
      assert.equal(r.headers['access-control-allow-origin'], undefined);
    }
    const preflight = await raw(endpoint.port, {
      method: 'OPTIONS',
      body: '',
      headers: { ...auth, origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    const own = await raw(endpoint.port, { headers: { ...auth, origin: `http://127.0.0.1:${endpoint.port}` } });
    assert.equal(own.status, 200);
    assert.equal(own.headers['access-control-allow-origin'], undefined);
  });

  it('refuses a body over the bound by its Content-Length at once, and a chunked one once it passes the bound (413)', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const declared = await raw(endpoint.port, {
      headers: { ...auth, 'content-length': String(50 * 1024 * 1024) },
      chunks: [Buffer.alloc(1024, 0x20)],
    }).catch((e: Error) => e);
    // Answered before the 50 MB arrive: the status is read although the request is cut short.
    assert.ok(!(declared instanceof Error), `the 413 arrives (${declared instanceof Error ? declared.message : ''})`);
    assert.equal(declared.status, 413);
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const streamed = await raw(endpoint.port, {
      headers: { ...auth, 'transfer-encoding': 'chunked' },
      chunks: Array.from({ length: 8 }, () => chunk),
    }).catch((e: Error) => e);
    assert.ok(!(streamed instanceof Error), `the 413 arrives (${streamed instanceof Error ? streamed.message : ''})`);
    assert.equal(streamed.status, 413);
    assert.deepEqual(target.reached, []);
  });

  it('answers a body that is not JSON, or a batch, with 400, an unknown path with 404, another method with 405', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const bad = await raw(endpoint.port, { headers: auth, body: '{"jsonrpc":' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /-32700/);
    const batch = await raw(endpoint.port, {
      headers: auth,
      body: JSON.stringify([{ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'plan_trip' } }]),
    });
    assert.equal(batch.status, 400, 'a batch could carry calls nobody can cancel');
    assert.match(batch.body, /batches are not supported/);
    const nested = (n: number) =>
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"plan_trip","arguments":{"a":${'['.repeat(n)}${']'.repeat(n)}}}}`;
    const deep = await raw(endpoint.port, { headers: auth, body: nested(20_000) });
    assert.equal(deep.status, 400, 'deep nesting is refused before any validator recurses into it');
    assert.match(deep.body, /nests deeper than 100 levels/);
    assert.equal(jsonDepth('{"a":"[[[[{{{{\\"","b":[[1]]}'), 3, 'brackets inside strings do not count');
    assert.deepEqual(target.reached, []);
    assert.equal((await raw(endpoint.port, { headers: auth, path: '/mcp/other' })).status, 404);
    assert.equal((await raw(endpoint.port, { headers: auth, path: '/mcp/%E0%A4%A' })).status, 404);
    assert.equal((await raw(endpoint.port, { headers: auth, method: 'PUT' })).status, 405);
    // Without the token an unknown path says nothing about which servers exist.
    assert.equal((await raw(endpoint.port, { path: '/mcp/other' })).status, 401);
  });

  it('logs at most 20 refusals a minute: a process hammering the port does not flood the log', async () => {
    const before = warnings.length;
    await Promise.all(Array.from({ length: 40 }, () => raw(endpoint.port, {})));
    const logged = warnings.slice(before).filter((w) => w.startsWith('refused'));
    assert.ok(logged.length <= 20, `${logged.length} refusals logged`);
    assert.ok(warnings.filter((w) => w.startsWith('refused')).length <= 20, 'in this minute, over the whole test');
  });

  it('listens on 127.0.0.1 only', async () => {
    assert.equal(endpoint.address, '127.0.0.1');
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => i!.address);
    for (const host of [...others, '::1']) {
      const outcome = await new Promise<string>((resolve) => {
        const s = connect({ host, port: endpoint.port });
        s.once('connect', () => (s.destroy(), resolve('connected')));
        s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      assert.notEqual(outcome, 'connected', `reachable on ${host}`);
    }
  });
});
