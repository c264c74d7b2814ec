/**
 * The CLI with its stderr closed early (`2>&1 | head -1`): the log is lost, never the call; with its
 * stdout closed (`| true`): no crash, and exit 130, the output lost. Either way the server does not outlive the CLI. Before, the
 * EPIPE crashed the CLI (exit 1, a stack trace) and left the server running without a parent.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive } from '../../support/processes';
import { DIST, ensureBuilt } from '../../support/build';

describe('CLI: stderr or stdout closed by its reader', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('the listing is printed whole, the exit code is 0, and the server is stopped', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcp-roundtrip-stderr-')), 'server.pid');
    // The shell writes its pid, then becomes the demo server (exec keeps the pid).
    const server = `sh -c 'echo $$ > "${pidFile}"; exec "${process.execPath}" "${join(DIST, 'demo-server.js')}"'`;
    const cli = spawn(process.execPath, [join(DIST, 'cli.js'), '--stdio', server, '--verbose', 'tools'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cli.stderr.destroy();
    let out = '';
    cli.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => cli.on('close', (c) => resolve(c)));
    assert.equal(code, 0, out);
    assert.match(out, /^plan_trip\t/m);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    assert.ok(pid > 0);
    assert.equal(alive(pid), false, `the server ${pid} is still running after the CLI exited`);
  });

  it('with stdout closed: no stack trace, and the server is stopped', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcp-roundtrip-stdout-')), 'server.pid');
    const server = `sh -c 'echo $$ > "${pidFile}"; exec "${process.execPath}" "${join(DIST, 'demo-server.js')}"'`;
    const cli = spawn(process.execPath, [join(DIST, 'cli.js'), '--stdio', server, 'tools'], { stdio: ['ignore', 'pipe', 'pipe'] });
    cli.stdout.destroy();
    let err = '';
    cli.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => cli.on('close', (c) => resolve(c)));
    assert.doesNotMatch(err, /EPIPE|at .*cli-main\.js/, err);
    // The listing was not taken: the run ends as cancelled, not as a success, and quietly (the reader closed it).
    assert.equal(code, 130, err);
    assert.equal(err, '');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    assert.equal(alive(pid), false, `the server ${pid} is still running after the CLI exited`);
  });
  it('with stdout on a full disk: exit 1 and a line saying so, not the quiet 130 of a closed pipe', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcp-roundtrip-full-')), 'server.pid');
    const server = `sh -c 'echo $$ > "${pidFile}"; exec "${process.execPath}" "${join(DIST, 'demo-server.js')}"'`;
    // Linux's /dev/full: every write fails with ENOSPC.
    const full = openSync('/dev/full', 'w');
    const cli = spawn(process.execPath, [join(DIST, 'cli.js'), '--stdio', server, 'tools'], { stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let err = '';
    cli.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => cli.on('close', (c) => resolve(c)));
    assert.equal(code, 1, err);
    assert.equal(err, 'mcp-roundtrip: the output could not be written: ENOSPC: no space left on device, write\n');
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    assert.equal(alive(pid), false, `the server ${pid} is still running after the CLI exited`);
  });
});
