/**
 * The executable's early server (src/cli/bin.ts): the `--stdio` server is started before the host
 * loads and handed to it; the call speaks to that very process, and a run that never connects
 * does not leave it behind.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { EXIT } from '../../../src/cli/exitCodes';
import { DIST, ensureBuilt } from '../../support/build';

function demo(): ChildProcess {
  return spawn(process.execPath, [join(DIST, 'demo-server.js')], { stdio: ['pipe', 'pipe', 'pipe'] });
}

function io(prestarted: ChildProcess) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return { io: { stdout, stderr, stdinIsTTY: false, prestarted }, out: () => out, err: () => err };
}

describe('CLI: the early --stdio server', function () {
  this.timeout(30_000);
  before(() => ensureBuilt());

  it('the call speaks to the process the executable started (the command line is never started again)', async () => {
    const child = demo();
    const exited = once(child, 'exit');
    // A command that cannot start: the call only completes over the early process.
    const t = io(child);
    const code = await runCli(['--stdio', '/nonexistent/mcp-server', 'call', 'where_am_i', '--roots', DIST], t.io);
    assert.equal(code, EXIT.ok, t.err());
    assert.match(t.out(), /Your host shares 1 workspace root/);
    await exited;
    assert.notEqual(child.exitCode ?? child.signalCode, null, 'the host closed it at the end');
  });

  it('a run that fails before connecting kills the early process', async () => {
    const child = demo();
    const exited = once(child, 'exit');
    const t = io(child);
    const code = await runCli(['--stdio', 'node server.js', 'call', 'where_am_i', '--answers', join(DIST, 'no-such-answers.json')], t.io);
    assert.notEqual(code, EXIT.ok);
    await exited;
    assert.equal(child.signalCode, 'SIGTERM');
  });
});
