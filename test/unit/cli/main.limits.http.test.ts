/**
 * A hostile Streamable HTTP server against the CLI (the same core as the extension): bodies and
 * events are bounded before they are buffered, an answer that cannot be read (or never comes on its
 * stream) fails the call at once, and HTTP errors say their status, what it means and what the
 * server said, cut (test/fixtures/hostile/httpServer.ts).
 */
import assert from 'node:assert/strict';
import { MAX_HTTP_ERROR_BODY_BYTES, MAX_SSE_RESUMPTIONS } from '../../../src/core/limits';
import { startHostileHttp, type HostileHttp, type HttpMode } from '../../fixtures/hostile/httpServer';
import { INTERNAL_ERROR_TEXT, runHostCli } from '../../support/hostile';

describe('CLI: a hostile HTTP server', function () {
  this.timeout(60_000);
  let server: HostileHttp | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const call = async (mode: HttpMode, extra: string[] = []) => {
    server = await startHostileHttp(mode);
    return runHostCli(['--http', server.url, '--era', 'modern', 'call', 't', ...extra]);
  };
  const failsAtOnce = (r: { code: number; err: string; ms: number }, reason: RegExp) => {
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, reason);
    assert.doesNotMatch(r.err, INTERNAL_ERROR_TEXT);
    // The leg limit is 60 s: an answer read at once ends long before it.
    assert.ok(r.ms < 30_000, `${r.ms} ms`);
  };

  it('a JSON body of 64 MiB is not read past 10 MiB: the call fails at once naming the limit', async () => {
    failsAtOnce(
      await call({ kind: 'json-body', mib: 64 }),
      /sent an answer to tools\/call t that the host cannot read: its body is longer than 10 MiB \(MAX_MESSAGE_BYTES\); it was not read/,
    );
  });

  it('an SSE event that never ends is not read past 10 MiB: the call fails at once naming the limit', async () => {
    failsAtOnce(
      await call({ kind: 'sse-endless', mib: 64 }),
      /cannot read: an event of its stream is longer than 10 MiB \(MAX_MESSAGE_BYTES\); the stream was not read further/,
    );
  });

  it('an SSE stream that ends without the answer fails the call at once', async () => {
    failsAtOnce(await call({ kind: 'sse-end' }), /cannot read: the event stream ended without the answer/);
  });

  it('an answer in an SSE event whose result is not an object fails the call at once', async () => {
    failsAtOnce(
      await call({ kind: 'raw-sse', data: '{"jsonrpc":"2.0","id":@ID,"result":"done"}' }),
      /cannot read: its result is a string, not an object/,
    );
  });

  it('a JSON answer whose error code is not a number fails the call at once, without a schema dump', async () => {
    failsAtOnce(
      await call({ kind: 'raw-json', body: '{"jsonrpc":"2.0","id":@ID,"error":{"code":"E1","message":"no"}}' }),
      /cannot read: its error code is a string, not a number/,
    );
  });

  it('a JSON body that is not JSON fails the call at once', async () => {
    failsAtOnce(await call({ kind: 'raw-json', body: '{"jsonrpc":"2.0","id":@ID,' }), /cannot read: its body is not valid JSON/);
  });

  it('a 401 names the status, its meaning and what to do, and quotes the server, cleaned', async () => {
    // A credential of its own: no OAuth sign-in is attempted, the refusal is the error.
    const r = await call(
      { kind: 'status', status: 401, mib: 0, text: '<html><body><h1>Login\n\n  required</h1></body></html>', html: true },
      ['--header', 'Authorization=Bearer stale'],
    );
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /tools\/call t on 127\.0\.0\.1:\d+ failed: HTTP 401 Unauthorized: the server needs credentials \(give an Authorization header: --header, or "headers" in mcp\.json\); the server said: Login required;/,
    );
    assert.doesNotMatch(r.err, /CLIENT_HTTP_NOT_IMPLEMENTED|Error POSTing|<h1>/);
  });

  it(`a 500 with a 256 MiB body: the status is named and the body is read no further than ${MAX_HTTP_ERROR_BODY_BYTES / 1024} KiB`, async () => {
    const r = await call({ kind: 'status', status: 500, mib: 256, text: 'database down ' });
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /failed: HTTP 500 Internal Server Error: the server failed; the server said: database down x+…/);
    assert.ok(r.err.length < 5000, `${r.err.length} chars`);
    assert.doesNotMatch(r.err, /: null/);
  });

  it('a 2026-07-28 stream that ends after a priming event fails the call at once: that revision resumes nothing', async () => {
    const r = await call({ kind: 'sse-primed-end' });
    failsAtOnce(r, /cannot read: the event stream ended without the answer/);
    assert.deepEqual(
      server!.methods.filter((m) => m === 'GET'),
      [],
      'no stream was resumed',
    );
  });

  it(`a 2025-era stream that always ends with a new event id (retry: 0) is resumed at most ${MAX_SSE_RESUMPTIONS} times in a row`, async () => {
    server = await startHostileHttp({ kind: 'sse-primed-end' });
    const r = await runHostCli(['--http', server.url, '--era', 'legacy', 'call', 't', '--timeout-ms', '3000']);
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /resumed 3 times in a row without bringing a message \(MAX_SSE_RESUMPTIONS\)/);
    // Once: thousands of reconnections a second until the call's limit, and on after it.
    const gets = server.methods.filter((m) => m === 'GET').length;
    assert.ok(gets <= 3 * (MAX_SSE_RESUMPTIONS + 1), `${gets} GETs`);
  });

  it('a JSON answer trickling one byte every 300 ms (about 30 s in all): the call ends at its 3 s limit', async () => {
    const r = await call({ kind: 'trickle', everyMs: 300 }, ['--timeout-ms', '3000']);
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /exceeded its time limit of 3000 ms/);
    assert.ok(r.ms < 20_000, `${r.ms} ms (the whole answer takes about 30 s)`);
  });
});
