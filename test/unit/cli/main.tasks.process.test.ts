/**
 * The CLI's kept task list after the process that followed a task was stopped, as real processes (the
 * built CLI, the tasks fixture with NEVER_ENDS=1): Ctrl-C (SIGINT) while following a stdio server's task
 * (the task ends with that server), Ctrl-C while following an HTTP server's task that the server does not
 * cancel (it runs on, not followed), and a CLI killed outright (it could say nothing: `tasks list` finds
 * its process gone). Each waits for the CLI's `task task-1: working` line, never for time.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { DIST, ROOT, ensureBuilt } from '../../support/build';
import { startTasksHttpFixture } from '../../support/tasksFixture';

const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'tasksServer.ts');
const STDIO_FIXTURE = quote(['env', 'POLL_MS=20', 'NEVER_ENDS=1', TSX, FIXTURE]);

/**
 * Run the built CLI with `args` in the config directory `configDir`; once stderr matches `when`, send it
 * `signal`. Resolves with its exit code (or the signal that ended it) and its stderr.
 */
function cli(
  configDir: string,
  args: string[],
  stopWith?: { when: RegExp; signal: NodeJS.Signals },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }> {
  const child = spawn(process.execPath, [join(DIST, 'cli.js'), ...args], {
    env: { ...process.env, MCP_ROUNDTRIP_CONFIG_DIR: configDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  let sent = false;
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
    if (stopWith && !sent && stopWith.when.test(err)) {
      sent = true;
      child.kill(stopWith.signal);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err }));
  });
}

/** A fresh config directory, with an answers file for the fixture's MRTR round (`who`). */
function workDir(): { config: string; answers: string } {
  const config = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-proc-'));
  const answers = join(config, 'answers.json');
  writeFileSync(answers, JSON.stringify({ who: { action: 'accept', content: { name: 'Ada' } } }));
  return { config, answers };
}

describe('CLI: the kept task list after the following process was stopped (real processes)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it("Ctrl-C while following a stdio server's task: exit 130, and tasks list says it ended with its server", async () => {
    const { config, answers } = workDir();
    const r = await cli(config, ['--stdio', STDIO_FIXTURE, '--name', 'fx', '--answers', answers, 'call', 'research'], {
      when: /task task-1: working/,
      signal: 'SIGINT',
    });
    assert.equal(r.code, 130, r.err);
    assert.match(r.err, /task task-1: ended with its stdio server, which the CLI stops as it exits/);
    const listed = await cli(config, ['tasks', 'list']);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^task-1 {2}fx {2}research {2}ended: its stdio server exited \(last read: working[^)]*\)\n$/);
  });

  it("a CLI killed outright while following a stdio server's task: tasks list finds its process gone and does not say working", async () => {
    const { config, answers } = workDir();
    const r = await cli(config, ['--stdio', STDIO_FIXTURE, '--name', 'fx', '--answers', answers, 'call', 'research'], {
      when: /task task-1: working/,
      signal: 'SIGKILL',
    });
    assert.equal(r.signal, 'SIGKILL', r.err);
    const listed = await cli(config, ['tasks', 'list']);
    assert.equal(listed.code, 0, listed.err);
    assert.match(listed.out, /^task-1 {2}fx {2}research {2}ended: its stdio server exited \(last read: working[^)]*\)\n$/);
  });

  it("Ctrl-C while following an HTTP server's task the server does not cancel: tasks list keeps it working, not followed, with how to resume it", async () => {
    const { config, answers } = workDir();
    const record = join(config, 'wire.log');
    const { url, child } = await startTasksHttpFixture(record, { POLL_MS: '20', NEVER_ENDS: '1', IGNORES_CANCEL: '1' });
    try {
      const r = await cli(config, ['--http', url, '--name', 'fxh', '--answers', answers, 'call', 'research'], {
        when: /task task-1: working — still going/,
        signal: 'SIGINT',
      });
      assert.equal(r.code, 130, r.err);
      const listed = await cli(config, ['tasks', 'list']);
      assert.equal(
        listed.out,
        'task-1  fxh  research  working — still going (not followed: the CLI was interrupted; tasks/cancel was sent — the server may still run it: tasks get task-1 re-checks it, tasks result task-1 resumes it, against the same server)\n',
        listed.err,
      );
    } finally {
      child.kill();
    }
  });
});
