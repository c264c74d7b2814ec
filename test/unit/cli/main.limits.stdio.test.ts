/**
 * A hostile stdio server against the CLI (the same core as the extension): every line it writes is
 * bounded before it is buffered, and an answer the host cannot read fails the call at once, with one
 * sentence saying what was wrong (test/fixtures/hostile/stdioServer.mjs).
 */
import assert from 'node:assert/strict';
import { MAX_INPUT_REQUESTS_PER_ROUND, MAX_JSON_DEPTH, MAX_MESSAGE_BYTES, MAX_STDERR_LINE_BYTES } from '../../../src/core/limits';
import { INTERNAL_ERROR_TEXT, hostileStdio, runHostCli } from '../../support/hostile';

const call = (mode: string, arg?: string, extra: string[] = []) =>
  runHostCli(['--stdio', hostileStdio(mode, arg), '--era', 'modern', 'call', 't', ...extra]);

describe('CLI: a hostile stdio server', function () {
  this.timeout(60_000);

  it(`a stderr line of 64 MiB without a newline is kept cut at ${MAX_STDERR_LINE_BYTES} bytes, saying so; the call completes`, async () => {
    const r = await call('stderr-line', '64', ['--verbose']);
    assert.equal(r.code, 0, r.err.slice(0, 2000));
    assert.equal(r.out, 'ok after a long stderr line\n');
    const line = r.err.split('\n').find((l) => l.includes('stderr: xxx'));
    assert.ok(line, r.err.slice(0, 2000));
    assert.match(line, /line cut at 4096 bytes, MAX_STDERR_LINE_BYTES\)$/);
    assert.ok(line.length < MAX_STDERR_LINE_BYTES + 200, `${line.length} chars`);
  });

  it('a flood of stderr lines reaches the log at a bounded rate, with a line counting what was dropped', async () => {
    const r = await call('stderr-flood', '20000', ['--verbose']);
    assert.equal(r.code, 0, r.err.slice(0, 2000));
    const logged = r.err.split('\n').filter((l) => l.includes('stderr: flood line')).length;
    const dropped = [...r.err.matchAll(/(\d+) more stderr lines not logged \(more than 100 in 1\.0 s/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    assert.ok(logged <= 100 * Math.ceil(r.ms / 1000 + 1), `${logged} lines logged in ${r.ms} ms`);
    assert.ok(dropped > 0, r.err.slice(-2000));
    assert.equal(logged + dropped, 20_000, 'every line is logged or counted');
  });

  it('stderr lines of 32 MiB, then the server dies while connecting: the error quotes the kept tail, cut', async () => {
    const r = await runHostCli(['--stdio', hostileStdio('stderr-tail', '32'), '--era', 'modern', 'call', 't']);
    assert.equal(r.code, 1, r.err.slice(0, 2000));
    assert.match(r.err, /could not connect to stdioServer: .*\(server stderr: .*line 4 ended/);
    assert.ok(r.err.length < 10_000, `${r.err.length} chars printed`);
    assert.doesNotMatch(r.err, INTERNAL_ERROR_TEXT);
  });

  it(`an answer line over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB is not read: its call fails at once naming the limit`, async () => {
    const r = await call('stdout-line', '12');
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /stdioServer sent an answer to tools\/call t that the host cannot read: a line on stdout is longer than 10 MiB \(MAX_MESSAGE_BYTES\); it was not read/,
    );
  });

  it('a line over the limit that names no request closes the connection: the call fails at once, naming the limit', async () => {
    const r = await call('stdout-noid', '12');
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /closed the connection during tools\/call t.*longer than 10 MiB \(MAX_MESSAGE_BYTES\).*which request it answers cannot be told/,
    );
  });

  describe('an answer the host cannot read fails the call at once (exit 1, not the time limit), in one sentence', () => {
    const cases: [string, string, string, RegExp][] = [
      ['a string result', 'result', '"done"', /its result is a string, not an object/],
      ['a null result', 'result', 'null', /its result is null, not an object/],
      ['an array result', 'result', '[1,2]', /its result is an array, not an object/],
      ['a number result', 'result', '42', /its result is a number, not an object/],
      [
        'an error code that is a string',
        'raw',
        '{"jsonrpc":"2.0","id":@ID,"error":{"code":"E42","message":"no"}}',
        /its error code is a string, not a number/,
      ],
      ['an answer line that is not JSON', 'raw', '{"jsonrpc":"2.0","id":@ID,"result":{"content":[', /it is not valid JSON/],
      [
        'an unknown member',
        'raw',
        '{"jsonrpc":"2.0","id":@ID,"result":{},"extra":1}',
        /it has a member "extra" that JSON-RPC does not define/,
      ],
    ];
    for (const [name, mode, arg, reason] of cases) {
      it(name, async () => {
        const r = await call(mode, arg);
        assert.equal(r.code, 1, r.err);
        assert.match(
          r.err,
          /✖ \[stdioServer\] tools\/call t failed in round 0: stdioServer sent an answer to tools\/call t that the host cannot read: /,
        );
        assert.match(r.err, reason);
        assert.doesNotMatch(r.err, INTERNAL_ERROR_TEXT);
        // The leg limit is 60 s: an answer read at once ends long before it.
        assert.ok(r.ms < 30_000, `${r.ms} ms`);
      });
    }
  });

  it('a response id of another JSON type ("0" for 0) is matched as the SDK matches it: the call completes', async () => {
    const r = await call('raw', '{"jsonrpc":"2.0","id":"@NUM","result":{"resultType":"complete","content":[{"type":"text","text":"ok"}]}}');
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'ok\n');
  });

  it(`structuredContent nested 10 000 deep is refused as nested deeper than ${MAX_JSON_DEPTH} levels, also with --json`, async () => {
    for (const extra of [[], ['--json']]) {
      const r = await call('deep', '10000', extra);
      assert.equal(r.code, 1, r.err);
      assert.match(r.err, /cannot read: it is nested deeper than 64 levels \(MAX_JSON_DEPTH\)/);
      assert.doesNotMatch(r.err + r.out, INTERNAL_ERROR_TEXT);
      assert.equal(r.out, '');
    }
    const fine = await call('deep', String(MAX_JSON_DEPTH - 6), ['--json']);
    assert.equal(fine.code, 0, fine.err);
  });

  it(`a round of more than ${MAX_INPUT_REQUESTS_PER_ROUND} inputRequests is refused before any is answered`, async () => {
    const r = await call('many-inputs', '5000');
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /stdioServer asked for 5000 inputs in one round of tools\/call t; the host answers at most 32 \(MAX_INPUT_REQUESTS_PER_ROUND\)/,
    );
    assert.doesNotMatch(r.err, /↳/, 'no input was answered');
    // Its inputs are roots/list: offered only when given.
    const fine = await call('many-inputs', String(MAX_INPUT_REQUESTS_PER_ROUND), ['--roots', '.']);
    assert.equal(fine.code, 0, fine.err);
  });

  it(`a 2025-era server pushing 20 000 requests at once: at most ${MAX_INPUT_REQUESTS_PER_ROUND} are taken at a time, the rest refused; the call keeps its limit`, async () => {
    const r = await runHostCli([
      '--stdio',
      hostileStdio('push-flood', '20000'),
      '--era',
      'legacy',
      '--verbose',
      'call',
      't',
      '--timeout-ms',
      '3000',
    ]);
    // Without --answers, the first push without an answer ends the call (exit 3), as in an MRTR round.
    assert.equal(r.code, 3, r.err.slice(-2000));
    assert.match(r.err, /✖ \[stdioServer\] tools\/call t failed in round 0: no answer for input "push-\d+" \(elicitation\/create\)/);
    assert.match(r.err, /stdioServer sent more than 32 requests at once \(MAX_INPUT_REQUESTS_PER_ROUND\): elicitation\/create refused/);
    const taken = r.err.split('\n').filter((l) => l.includes('pushed by a 2025-era server')).length;
    assert.ok(taken < 20_000 / 2, `${taken} requests reached the provider`);
    assert.ok(r.ms < 20_000, `${r.ms} ms`);
  });
});
