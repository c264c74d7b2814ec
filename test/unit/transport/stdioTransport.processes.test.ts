/**
 * Stopping a stdio server stops what it started: a server launched through a wrapper (`sh -c`) whose
 * own child ignores every polite request (stdin closed, SIGTERM, SIGINT) does not outlive the host;
 * and a server that closes its stdout but runs on is stopped, rather than left to the time limit.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { StdioTransport } from '../../../src/core/transport/stdioTransport';

/** A Node process that ignores SIGTERM, SIGINT and stdin's end, and says its pid on stderr. */
const STUBBORN = `process.on('SIGTERM', () => {}); process.on('SIGINT', () => {}); process.stdin.resume(); process.stdin.on('end', () => {}); console.error('pid ' + process.pid); setInterval(() => {}, 1000);`;

/** True while `pid` runs (a zombie waiting for its new parent to reap it counts as gone). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Wait until `pid` is gone: a SIGKILL is delivered, but not in the same instant (bounded by the test's timeout). */
async function gone(pid: number): Promise<boolean> {
  while (alive(pid)) await new Promise((r) => setImmediate(r));
  return true;
}

function transport(command: string, args: string[], onUnreadable: (reason: string) => void = () => {}) {
  const stderr: string[] = [];
  let sawPid: (pid: number) => void = () => {};
  const pid = new Promise<number>((resolve) => (sawPid = resolve));
  const t = new StdioTransport({
    server: 'stubborn',
    command,
    args,
    env: process.env as Record<string, string>,
    onStderr: (line) => {
      stderr.push(line);
      const m = /^pid (\d+)$/.exec(line);
      if (m) sawPid(Number(m[1]));
    },
    onUnreadable,
  });
  return { t, pid, stderr };
}

describe('stdio transport: the server and what it started', function () {
  this.timeout(30_000);
  if (process.platform === 'win32') return;

  it("close() stops a wrapper's child that ignores stdin's end, SIGTERM and SIGINT", async () => {
    const { t, pid } = transport('sh', ['-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(STUBBORN)}; echo done`]);
    await t.start();
    const child = await pid;
    assert.ok(alive(child));
    await t.close();
    assert.ok(await gone(child), `the wrapped server ${child} outlived close()`);
  });

  it('kill() stops it at once, wrapper and child', async () => {
    const { t, pid } = transport('sh', ['-c', `${JSON.stringify(process.execPath)} -e ${JSON.stringify(STUBBORN)}; echo done`]);
    await t.start();
    const child = await pid;
    await t.kill();
    assert.ok(await gone(child), `the wrapped server ${child} outlived kill()`);
  });

  it('a server that closes its stdout but keeps running is stopped, and the reason is told', async () => {
    const reasons: string[] = [];
    let closed: () => void = () => {};
    const ended = new Promise<void>((resolve) => (closed = resolve));
    const { t, pid } = transport(process.execPath, ['-e', `process.stdout.end(); ${STUBBORN}`], (r) => reasons.push(r));
    t.onclose = () => closed();
    await t.start();
    const child = await pid;
    await ended;
    assert.ok(await gone(child));
    assert.match(reasons.join('\n'), /closed its stdout but kept running/);
  });
});
