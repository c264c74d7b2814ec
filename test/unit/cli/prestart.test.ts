/**
 * The executable's early server (src/cli/bin.ts): the `--stdio` server is started before the host
 * loads and handed to it; the call speaks to that very process, and a run that never connects
 * does not leave it behind.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { EXIT } from '../../../src/cli/exitCodes';
import { prestarted, startStdioServer } from '../../../src/cli/prestart';
import type { PrestartedProcess } from '../../../src/core/transport/stdioTransport';
import { DIST, ensureBuilt } from '../../support/build';

function demo(): PrestartedProcess {
  return prestarted(spawn(process.execPath, [join(DIST, 'demo-server.js')], { stdio: ['pipe', 'pipe', 'pipe'] }));
}

function io(prestarted: PrestartedProcess) {
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
    const early = demo();
    const child = early.child;
    const exited = once(child, 'exit');
    // A command that cannot start: the call only completes over the early process.
    const t = io(early);
    const code = await runCli(['--stdio', '/nonexistent/mcp-server', 'call', 'where_am_i', '--roots', DIST], t.io);
    assert.equal(code, EXIT.ok, t.err());
    assert.match(t.out(), /Your host shares 1 workspace root/);
    await exited;
    assert.notEqual(child.exitCode ?? child.signalCode, null, 'the host closed it at the end');
  });

  it('a run that fails before connecting kills the early process', async () => {
    const early = demo();
    const child = early.child;
    const exited = once(child, 'exit');
    const t = io(early);
    const code = await runCli(['--stdio', 'node server.js', 'call', 'where_am_i', '--answers', join(DIST, 'no-such-answers.json')], t.io);
    assert.notEqual(code, EXIT.ok);
    await exited;
    assert.equal(child.signalCode, 'SIGTERM');
  });

  it('an early command that could not start fails the call as a connection error naming it, without waiting', async () => {
    const t = io(prestarted(spawn('/nonexistent/mcp-server', [], { stdio: ['pipe', 'pipe', 'pipe'] })));
    const code = await runCli(['--stdio', '/nonexistent/mcp-server', 'call', 'where_am_i'], t.io);
    assert.equal(code, EXIT.error, t.err());
    assert.match(t.err(), /ENOENT|not found|mcp-server/);
  });

  it('the executable starts only a --stdio server: not for --http, run, tasks list (which needs no server) or a bad command line', () => {
    assert.equal(startStdioServer(['--http', 'http://127.0.0.1:1/mcp', 'tools']), undefined);
    assert.equal(startStdioServer(['run', 'saved']), undefined);
    assert.equal(startStdioServer(['--stdio']), undefined);
    const server = `${process.execPath} -e "setTimeout(() => {}, 60000)"`;
    assert.equal(startStdioServer(['--stdio', server, 'tasks', 'list']), undefined);
    const started = startStdioServer(['--stdio', server, 'tools']);
    assert.ok(started, 'the same server is started for a listing of its tools');
    started.child.kill();
  });
});
