/**
 * The host's own memory stays bounded whatever a server sends: the built CLI (the same core as the
 * extension) as its own process against each hostile server, its peak resident set (VmHWM) read as
 * it exits. Each server sends far more than the bound (hundreds of MiB); the CLI must stay under
 * 300 MiB, say what happened without an internal JavaScript error, and end well within its limits.
 * Not timing based: the figures are memory and exit codes.
 */
import assert from 'node:assert/strict';
import { startHostileHttp, type HostileHttp, type HttpMode } from '../../fixtures/hostile/httpServer';
import { ensureBuilt } from '../../support/build';
import { INTERNAL_ERROR_TEXT, hostileStdio, runMeasuredCli, type MeasuredRun } from '../../support/hostile';

const PEAK_MIB = 300;

function bounded(r: MeasuredRun, code: number, said: RegExp): void {
  const tail = r.err.slice(-1500);
  assert.equal(r.code, code, tail);
  assert.match(r.err, said);
  assert.doesNotMatch(r.err + r.out.slice(0, 10_000), INTERNAL_ERROR_TEXT);
  assert.ok(r.peakMiB < PEAK_MIB, `peak resident set ${r.peakMiB.toFixed(0)} MiB`);
  if (process.env.SHOW_PEAK) console.log(`      peak ${r.peakMiB.toFixed(0)} MiB, ${r.ms} ms`);
}

describe('CLI: peak memory under hostile servers', function () {
  this.timeout(120_000);
  before(() => ensureBuilt());

  describe('stdio', () => {
    const run = (mode: string, arg: string, extra: string[] = []) =>
      runMeasuredCli(['--stdio', hostileStdio(mode, arg), '--era', 'modern', 'call', 't', ...extra]);

    it('one 600 MiB stderr line with no newline (once an uncaught RangeError): the call completes', async () => {
      bounded(await run('stderr-line', '600', ['--verbose']), 0, /line cut at 4096 bytes/);
    });

    it('five 100 MiB stderr lines, then the server dies: the connection error quotes what is kept', async () => {
      bounded(await run('stderr-tail', '100'), 1, /could not connect to stdioServer: .*server stderr: /);
    });

    it('a 400 MiB answer line', async () => {
      bounded(await run('stdout-line', '400'), 1, /longer than 10 MiB \(MAX_MESSAGE_BYTES\)/);
    });

    it('a 400 MiB stdout line that names no request', async () => {
      bounded(await run('stdout-noid', '400'), 1, /longer than 10 MiB \(MAX_MESSAGE_BYTES\)/);
    });

    it('structuredContent nested 1 000 000 deep', async () => {
      bounded(await run('deep', '1000000'), 1, /nested deeper than 64 levels \(MAX_JSON_DEPTH\)/);
    });

    it('a message just under 10 MiB of arrays nested 5 000 000 deep', async () => {
      bounded(await run('deep-arrays', '5000000'), 1, /nested deeper than 64 levels \(MAX_JSON_DEPTH\)/);
    });

    it('a 2025-era server pushing 300 000 requests at once (once 470 MiB)', async () => {
      // Without --answers, the first push without an answer ends the call (exit 3), as in an MRTR round.
      bounded(
        await runMeasuredCli(['--stdio', hostileStdio('push-flood', '300000'), '--era', 'legacy', 'call', 't', '--timeout-ms', '3000']),
        3,
        /pushed by a 2025-era server: no answer for input "push-\d+"/,
      );
    });

    it('100 000 inputRequests in one round', async () => {
      bounded(await run('many-inputs', '100000'), 1, /the host answers at most 32 \(MAX_INPUT_REQUESTS_PER_ROUND\)/);
    });
  });

  describe('listing', () => {
    const list = (mode: string, arg: string) => runMeasuredCli(['--stdio', hostileStdio(mode, arg), '--era', 'modern', 'tools']);

    it("pages of 9 MiB that never end (once 880 MiB, up to the SDK's 64 pages)", async () => {
      bounded(await list('list-pages', '9'), 1, /stdioServer listed more than 10000 tools in tools\/list \(MAX_LIST_ITEMS\)/);
    });

    it('one page of 200 000 tools (once 350 MiB spent checking them)', async () => {
      bounded(await list('list-wide', '200000'), 1, /listed more than 10000 tools in tools\/list \(MAX_LIST_ITEMS\)/);
    });

    it('pages of nine 1 MiB tools that never end', async () => {
      bounded(await list('list-big', '9'), 1, /stdioServer sent more than 32 MiB for tools\/list \(MAX_LIST_BYTES\)/);
    });
  });

  describe('Streamable HTTP', () => {
    let server: HostileHttp | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });
    const run = async (mode: HttpMode) => {
      server = await startHostileHttp(mode);
      return runMeasuredCli(['--http', server.url, '--era', 'modern', 'call', 't']);
    };

    it('a 1 GiB JSON body (once 2.1 GB, then a failure to build the string)', async () => {
      bounded(await run({ kind: 'json-body', mib: 1024 }), 1, /its body is longer than 10 MiB \(MAX_MESSAGE_BYTES\)/);
    });

    it('an SSE event that never ends, 1 GiB of it', async () => {
      bounded(await run({ kind: 'sse-endless', mib: 1024 }), 1, /an event of its stream is longer than 10 MiB/);
    });

    it('a 500 with a 1 GiB body (once 2.1 GB and "…: null")', async () => {
      bounded(
        await run({ kind: 'status', status: 500, mib: 1024, text: 'boom ' }),
        1,
        /HTTP 500 Internal Server Error: the server failed; the server said: boom x+…/,
      );
    });
  });
});
