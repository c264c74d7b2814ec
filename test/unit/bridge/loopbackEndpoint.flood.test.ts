/**
 * A local process flooding the bridge's port with connections that never authenticate: each is
 * dropped within the grace, the waiting ones are bounded, VS Code's own client is still served
 * meanwhile, and the drops are logged (bounded). Before, 64 idle connections took every slot for
 * 30–45 s, with nothing logged.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { LoopbackEndpoint, MAX_CONNECTIONS } from '../../../src/core/bridge/loopbackEndpoint';
import { MAX_UNAUTHENTICATED } from '../../../src/core/bridge/connectionGate';

/** An `initialize` with the window's token; resolves with the HTTP status. */
function initialize(port: number, token: string): Promise<number> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'vscode', version: '1' } },
  });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp/demo',
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A connection that sends nothing, and a promise of its close. */
function idle(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

describe('bridge loopback endpoint: a flood of connections that never authenticate', function () {
  this.timeout(20_000);
  const warnings: string[] = [];
  let endpoint: LoopbackEndpoint;

  before(async () => {
    endpoint = await LoopbackEndpoint.start({
      version: '1',
      target: (id) => (id === 'demo' ? { name: 'demo', listTools: async () => [], callTool: async () => ({ content: [] }) } : undefined),
      onWarning: (m) => warnings.push(m),
      unauthenticatedMs: 500,
    });
  });
  after(() => endpoint.close());

  it('every slot taken by idle connections: VS Code is still served, each idle one is dropped, the drops logged (bounded)', async () => {
    const token = endpoint.mintToken();
    const flood = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) flood.push(await idle(endpoint.port));
    assert.equal(await initialize(endpoint.port, token), 200);
    await Promise.all(flood.map((f) => f.closed));
    assert.ok(
      warnings.some((w) => w === `dropped a connection: more than ${MAX_UNAUTHENTICATED} connections waiting to authenticate`),
      warnings.join('\n'),
    );
    assert.equal(warnings.length, 20, 'the drops are logged, at most 20 lines a minute (the rest counted)');
  });

  it('an idle connection is dropped at its grace; an authenticated one is kept past it (keep-alive)', async () => {
    const token = endpoint.mintToken();
    const { socket, closed } = await idle(endpoint.port);
    let open = true;
    void closed.then(() => (open = false));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    socket.write(
      `POST /mcp/demo HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    // An idle one opened after it is dropped at its grace; the authenticated one is still open then.
    const later = await idle(endpoint.port);
    await later.closed;
    assert.equal(open, true);
    socket.destroy();
  });
});
