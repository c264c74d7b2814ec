/**
 * The CLI stopping its server, as a real process: the first Ctrl-C cancels the call and asks the
 * server to stop, the second stops it at once; at a time limit the server gets SERVER_STOP_GRACE_MS
 * to stop by itself. A server that ignores EOF and SIGTERM cannot outlive the CLI, nor hold it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { alive } from '../../support/processes';
import { DIST, ensureBuilt } from '../../support/build';
import { SERVER_STOP_GRACE_MS } from '../../../src/core/limits';
import { hostileStdio } from '../../support/hostile';

describe('CLI: stopping a server that ignores EOF and SIGTERM', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('a second Ctrl-C stops it at once: it does not outlive the CLI', async () => {
    // The server stops by itself after 30 s whatever happens here.
    const cli = spawn(process.execPath, [join(DIST, 'cli.js'), '--stdio', hostileStdio('stubborn'), '--verbose', 'call', 't'], {
      env: { ...process.env, HOSTILE_LIFETIME_MS: '30000' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    let pid: number | undefined;
    let interrupts = 0;
    const exited = new Promise<number | null>((resolve) => cli.on('exit', (code) => resolve(code)));
    cli.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      pid ??= Number(/stubborn pid (\d+)/.exec(err)?.[1]) || undefined;
      // First Ctrl-C once the call is under way, the second once the CLI said the call was cancelled.
      if (interrupts === 0 && pid && /→ \[stdioServer\] tools\/call t id=/.test(err)) {
        interrupts++;
        cli.kill('SIGINT');
      } else if (interrupts === 1 && /✖ .*cancelled/.test(err)) {
        interrupts++;
        cli.kill('SIGINT');
      }
    });
    const code = await exited;
    assert.equal(interrupts, 2, err);
    assert.equal(code, 130, err);
    assert.ok(pid, err);
    assert.equal(alive(pid), false, `the server ${pid} is still running after the CLI exited`);
    // Stopped by the second Ctrl-C, not by the end of the polite sequence (SIGTERM comes 2 s after EOF).
    assert.doesNotMatch(err, /ignoring SIGTERM/);
  });

  it(`a 3 s --timeout-ms call: the CLI exits within ${SERVER_STOP_GRACE_MS} ms of the limit (+ a margin), and the server is stopped`, async () => {
    const cli = spawn(
      process.execPath,
      [join(DIST, 'cli.js'), '--stdio', hostileStdio('stubborn'), '--verbose', 'call', 't', '--timeout-ms', '3000'],
      { env: { ...process.env, HOSTILE_LIFETIME_MS: '30000' }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    let sent: number | undefined;
    cli.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (sent === undefined && /→ \[stdioServer\] tools\/call t id=/.test(err)) sent = Date.now();
    });
    const code = await new Promise<number | null>((resolve) => cli.on('exit', (c) => resolve(c)));
    const afterSent = Date.now() - sent!;
    const pid = Number(/stubborn pid (\d+)/.exec(err)?.[1]);
    assert.equal(code, 4, err);
    assert.match(err, /exceeded its time limit of 3000 ms/);
    assert.ok(afterSent < 3000 + 2000, `exited ${afterSent} ms after the request was sent`);
    assert.equal(alive(pid), false, `the server ${pid} is still running after the CLI exited`);
  });
});
