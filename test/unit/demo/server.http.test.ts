// The built demo server over Streamable HTTP (--http 0): every flow on 2026-07-28, 2025 clients,
// Host/Origin validation, and one flow whose legs alternate between two processes sharing a key.
import * as assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  connectDemo,
  ensureDemoBuilt,
  firstText,
  rejection,
  runDemoToExit,
  sendLeg,
  startHttpDemo,
  type DemoConnection,
  type HttpDemo,
} from '../../support/demoHarness';
import { flowTests } from '../../support/demoFlows';

/** A raw POST to the demo endpoint with the given headers; resolves with status and body. */
function rawPost(port: number, path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('demo server over HTTP (--http 0)', function () {
  this.timeout(30_000);
  let server: HttpDemo | undefined;

  before(async () => {
    await ensureDemoBuilt();
    server = await startHttpDemo();
  });
  after(async () => server?.stop());

  it('picks a free port and prints the endpoint URL on stderr', () => {
    assert.ok(server!.port > 0);
    assert.equal(server!.url, `http://127.0.0.1:${server!.port}/mcp`);
    assert.match(server!.stderr(), /listening on http:\/\/127\.0\.0\.1:\d+\/mcp \(requestState: random per-process key, TTL 600 s\)/);
  });

  describe('2026-07-28 client', () => {
    let conn: DemoConnection | undefined;
    before(async () => {
      conn = await connectDemo({ era: 'modern', where: { kind: 'http', url: server!.url } });
    });
    after(async () => conn?.close());

    flowTests(() => conn!);
  });

  describe('2025 client (stateless fallback)', () => {
    let conn: DemoConnection | undefined;
    before(async () => {
      conn = await connectDemo({ era: 'legacy', where: { kind: 'http', url: server!.url } });
    });
    after(async () => conn?.close());

    it('cannot be asked anything, so tools that ask answer -32021 and say why', async () => {
      const error = await rejection(() => conn!.client.callTool({ name: 'book_table', arguments: {} }));
      assert.equal(error.code, -32021);
      assert.deepEqual((error.data as { requiredCapabilities: unknown }).requiredCapabilities, { elicitation: { form: {} } });
      assert.match(error.message, /served statelessly/);
    });

    it('still completes a state-only flow (busy_report) through the SDK shim', async () => {
      const result = await conn!.client.callTool({ name: 'busy_report', arguments: {} });
      assert.match(firstText(result), /^Report on weekly sales is ready/);
    });
  });

  describe('Host and Origin validation', () => {
    it('serves localhost Host and Origin', async () => {
      const res = await rawPost(
        server!.port,
        '/mcp',
        { host: `localhost:${server!.port}`, origin: `http://localhost:${server!.port}` },
        INITIALIZE,
      );
      assert.equal(res.status, 200, res.body);
      assert.match(res.body, /"serverInfo":\{"name":"mcp-roundtrip-demo"/);
    });

    it('refuses another Host with 403 (DNS rebinding)', async () => {
      const res = await rawPost(server!.port, '/mcp', { host: `evil.example:${server!.port}` }, INITIALIZE);
      assert.equal(res.status, 403);
      assert.match(res.body, /evil\.example/);
      assert.doesNotMatch(res.body, /serverInfo/);
    });

    it('refuses another Origin with 403', async () => {
      const res = await rawPost(server!.port, '/mcp', { host: `127.0.0.1:${server!.port}`, origin: 'https://evil.example' }, INITIALIZE);
      assert.equal(res.status, 403);
      assert.doesNotMatch(res.body, /serverInfo/);
    });

    it('answers 404 off the /mcp path', async () => {
      const res = await rawPost(server!.port, '/other', { host: `127.0.0.1:${server!.port}` }, INITIALIZE);
      assert.equal(res.status, 404);
      assert.match(res.body, /the MCP endpoint is \/mcp/);
    });
  });
});

describe('demo server: two processes sharing MCP_ROUNDTRIP_DEMO_KEY serve one flow', function () {
  this.timeout(30_000);
  const key = randomBytes(32).toString('hex');
  const servers: HttpDemo[] = [];
  const conns: DemoConnection[] = [];
  let a: DemoConnection;
  let b: DemoConnection;
  let stranger: DemoConnection;

  before(async () => {
    await ensureDemoBuilt();
    const [sa, sb, sc] = await Promise.all([
      startHttpDemo({ MCP_ROUNDTRIP_DEMO_KEY: key }),
      startHttpDemo({ MCP_ROUNDTRIP_DEMO_KEY: key }),
      startHttpDemo({ MCP_ROUNDTRIP_DEMO_KEY: randomBytes(32).toString('hex') }),
    ]);
    servers.push(sa, sb, sc);
    [a, b, stranger] = await Promise.all(
      servers.map((s) => connectDemo({ era: 'modern', where: { kind: 'http', url: s.url }, autoFulfill: false })),
    );
    conns.push(a, b, stranger);
  });
  after(async () => {
    await Promise.all(conns.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('says on stderr that the key is shared', () => {
    assert.match(servers[0].stderr(), /shared key from MCP_ROUNDTRIP_DEMO_KEY/);
  });

  it('plan_trip legs alternate A, B, A, B and complete; a process with another key refuses the state as tampered', async () => {
    const call = (conn: DemoConnection, extra: Parameters<typeof sendLeg>[2] = {}) =>
      sendLeg(conn.client, 'tools/call', { name: 'plan_trip', arguments: {}, ...extra });

    const leg1 = await call(a);
    assert.deepEqual(Object.keys(leg1.inputRequests ?? {}), ['trip']);
    const leg2 = await call(b, {
      inputResponses: { trip: { action: 'accept', content: { destination: 'Kyoto', startDate: '2026-04-01', endDate: '2026-04-05' } } },
    });
    assert.deepEqual(Object.keys(leg2.inputRequests ?? {}), ['itinerary']);

    const samplingAnswer = {
      itinerary: { role: 'assistant', model: 'shared-key-model', content: { type: 'text', text: 'Day 1: temples' } },
    };
    const refused = await rejection(() => call(stranger, { inputResponses: samplingAnswer, requestState: leg2.requestState }));
    assert.equal(refused.code, -32602);
    assert.deepEqual(refused.data, { reason: 'tampered' });

    const leg3 = await call(a, { inputResponses: samplingAnswer, requestState: leg2.requestState });
    assert.deepEqual(Object.keys(leg3.inputRequests ?? {}), ['roots']);
    const leg4 = await call(b, { inputResponses: { roots: { roots: [{ uri: 'file:///work/kyoto' }] } }, requestState: leg3.requestState });
    const text = firstText(leg4);
    assert.match(text, /^Trip to Kyoto: 2026-04-01 to 2026-04-05 \(4 nights\)\./);
    assert.ok(text.includes('model "shared-key-model"') && text.includes('Day 1: temples') && text.includes('file:///work/kyoto/'));
  });

  it('echo_state minted by A comes back byte for byte from B', async () => {
    const first = await sendLeg(a.client, 'tools/call', { name: 'echo_state', arguments: {} });
    const done = await sendLeg(b.client, 'tools/call', {
      name: 'echo_state',
      arguments: {},
      inputResponses: { continue: { action: 'accept', content: { ok: true } } },
      requestState: first.requestState,
    });
    assert.equal(firstText(done), first.requestState);
  });
});

describe('demo server command line', function () {
  this.timeout(30_000);
  before(() => ensureDemoBuilt());

  it('exits with code 2 and the usage on a bad port, a short key or a bad TTL', async () => {
    const badPort = await runDemoToExit(['--http', 'eighty']);
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /--http needs a port number between 0 and 65535 \(got "eighty"\)/);
    assert.match(badPort.stderr, /Usage: demo-server \[--http <port>\]/);
    const shortKey = await runDemoToExit(['--http', '0'], { MCP_ROUNDTRIP_DEMO_KEY: 'too-short' });
    assert.equal(shortKey.code, 2);
    assert.match(shortKey.stderr, /MCP_ROUNDTRIP_DEMO_KEY must be at least 32 bytes/);
    const badTtl = await runDemoToExit([], { MCP_ROUNDTRIP_DEMO_TTL_SECONDS: '0' });
    assert.equal(badTtl.code, 2);
    assert.match(badTtl.stderr, /MCP_ROUNDTRIP_DEMO_TTL_SECONDS must be a positive whole number/);
  });
});
