/**
 * The CLI and tasks, against the tasks fixture (test/fixtures/tasksServer.ts, both eras, over stdio):
 * `call` follows a task to its result (status lines on stderr, inputs by key from --answers, polls no
 * faster than the server's pollIntervalMs), Ctrl-C sends tasks/cancel (exit 130), `--no-wait` prints the
 * id, `tasks get` of an unknown id says so, and the listing marks task tools.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { parseCli } from '../../../src/cli/args';
import { processStart } from '../../../src/cli/cliTasks';
import { runHostCli } from '../../support/hostile';
import { startTasksHttpFixture } from '../../support/tasksFixture';

const ROOT = join(__dirname, '..', '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'tasksServer.ts');

/** The fixture's command line, its wire recorded; `env` for the fixture (POLL_MS, NEVER_ENDS). */
function fixture(legacy: boolean, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-'));
  const record = join(dir, 'wire.log');
  const vars = Object.entries({ RECORD_FILE: record, ...env }).map(([k, v]) => `${k}=${v}`);
  const command = quote(['env', ...vars, TSX, FIXTURE, ...(legacy ? ['--legacy'] : [])]);
  const sent = () =>
    readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const i = l.indexOf(' ');
        return { at: Number(l.slice(0, i)), msg: JSON.parse(l.slice(i + 1)) };
      });
  const answers = join(dir, 'answers.json');
  writeFileSync(
    answers,
    JSON.stringify({
      who: { action: 'accept', content: { name: 'Ada' } },
      q1: { action: 'accept', content: { ok: true } },
      q2: { action: 'accept', content: { ok: false } },
    }),
  );
  return { command, sent, answers };
}

describe('CLI: tasks', function () {
  this.timeout(30_000);
  // The tasks the CLI starts are kept in its config directory: a fresh one for these tests.
  let configBefore: string | undefined;
  before(() => {
    configBefore = process.env.MCP_ROUNDTRIP_CONFIG_DIR;
    process.env.MCP_ROUNDTRIP_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-config-'));
  });
  after(() => {
    if (configBefore === undefined) delete process.env.MCP_ROUNDTRIP_CONFIG_DIR;
    else process.env.MCP_ROUNDTRIP_CONFIG_DIR = configBefore;
  });

  it('2026-07-28: an MRTR round, then a task that asks twice through tasks/update, to its result; polls no faster than pollIntervalMs', async () => {
    const f = fixture(false, { POLL_MS: '150' });
    const r = await runHostCli([
      '--stdio',
      f.command,
      '--name',
      'fx',
      '--answers',
      f.answers,
      'call',
      'research',
      '--args',
      '{"topic":"x"}',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'researched with {"who":{"name":"Ada"},"q1":{"ok":true},"q2":{"ok":false}}\n');
    assert.match(r.err, /task task-1: working\n/);
    assert.match(r.err, /task task-1: input_required\n/);
    assert.match(r.err, /task task-1: completed\n/);
    const sent = f.sent();
    const updates = sent.filter((s) => s.msg.method === 'tasks/update').map((s) => Object.keys(s.msg.params.inputResponses));
    assert.deepEqual(updates, [['q1'], ['q2']]);
    const polls = sent.filter((s) => s.msg.method === 'tasks/get').map((s) => s.at);
    assert.ok(polls.length >= 3, `${polls.length} polls`);
    for (let i = 1; i < polls.length; i++)
      assert.ok(polls[i] - polls[i - 1] >= 140, `poll ${i} came ${polls[i] - polls[i - 1]} ms after the one before`);
  });

  it('2025-11-25: the listing marks the tool, and call sends the task param the tool requires and prints the result of tasks/result', async () => {
    const f = fixture(true, { POLL_MS: '20' });
    const listed = await runHostCli(['--stdio', f.command, 'tools']);
    assert.equal(listed.code, 0, listed.err);
    assert.equal(listed.out, 'research\t[task: required] — Researches a topic as a task\n');
    const r = await runHostCli(['--stdio', f.command, 'call', 'research']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'researched with {}\n');
    // Before the era is known the call goes as it is; the server's refusal (-32601) sends it again as a task, out of the log.
    const calls = f.sent().filter((s) => s.msg.method === 'tools/call');
    assert.deepEqual(
      calls.map((c) => c.msg.params.task),
      [undefined, {}],
    );
    assert.doesNotMatch(r.err, /-32601|requires task augmentation/);
    assert.equal(f.sent().filter((s) => s.msg.method === 'tasks/result').length, 1);
  });

  for (const legacy of [false, true]) {
    it(`${legacy ? '2025-11-25' : '2026-07-28'}: Ctrl-C while the task works sends tasks/cancel and exits 130; the kept list says the task ended with its stdio server`, async () => {
      process.env.MCP_ROUNDTRIP_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-config-'));
      const f = fixture(legacy, { POLL_MS: '20', NEVER_ENDS: '1' });
      const r = await runHostCli(['--stdio', f.command, '--name', 'fx', '--answers', f.answers, 'call', 'research'], {
        cancelWhen: /task task-1: working/,
      });
      assert.equal(r.code, 130, r.err);
      assert.match(r.err, /task task-1 of research was cancelled; tasks\/cancel was sent/);
      assert.match(r.err, /task task-1: ended with its stdio server, which the CLI stops as it exits\n/);
      const listed = await runHostCli(['tasks', 'list']);
      assert.match(listed.out, /^task-1 {2}fx {2}research {2}ended: its stdio server exited \(last read: working[^)]*\)\n$/);
      const json = JSON.parse((await runHostCli(['--json', 'tasks', 'list'])).out) as Record<string, unknown>[];
      assert.deepEqual(
        json.map((t) => [t.status, t.note, t.transport]),
        [['working', 'serverExited', 'stdio']],
      );
      assert.deepEqual(
        f
          .sent()
          .filter((s) => s.msg.method === 'tasks/cancel')
          .map((s) => s.msg.params.taskId),
        ['task-1'],
      );
    });
  }

  it('--no-wait prints the task id and exits 0 without polling', async () => {
    const f = fixture(false);
    const r = await runHostCli(['--stdio', f.command, '--answers', f.answers, '--no-wait', 'call', 'research']);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, 'task-1\n');
    assert.equal(f.sent().filter((s) => s.msg.method === 'tasks/get').length, 0);
  });

  it('tasks list: the tasks this CLI started, from its config directory, of every server or of the one given', async () => {
    process.env.MCP_ROUNDTRIP_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-config-'));
    const f = fixture(false);
    const started = await runHostCli(['--stdio', f.command, '--name', 'fx', '--answers', f.answers, '--no-wait', 'call', 'research']);
    assert.equal(started.code, 0, started.err);
    // Its stdio server is stopped as the CLI exits: the task went with it, and neither says it works.
    assert.match(started.err, /task task-1: ended with its stdio server, which the CLI stops as it exits/);
    const all = await runHostCli(['tasks', 'list']);
    assert.equal(all.code, 0, all.err);
    assert.equal(all.out, 'task-1  fx  research  ended: its stdio server exited (last read: working)\n');
    const json = await runHostCli(['--json', 'tasks', 'list']);
    assert.deepEqual(
      (JSON.parse(json.out) as { id: string; server: string; ttlMs: number }[]).map((t) => [t.id, t.server, t.ttlMs]),
      [['task-1', 'fx', 60_000]],
    );
    const other = await runHostCli(['--stdio', 'never-started', '--name', 'other', 'tasks', 'list']);
    assert.equal(other.code, 0, other.err);
    assert.equal(other.out, '');
    assert.match(other.err, /no task started by this CLI is kept for other/);
    const file = JSON.parse(readFileSync(join(process.env.MCP_ROUNDTRIP_CONFIG_DIR, 'tasks.json'), 'utf8')) as { tasks: unknown[] };
    assert.equal(file.tasks.length, 1);
  });

  it("over HTTP: --no-wait, then tasks result from a new process asks the task's inputs and prints its result (Mcp-Method and Mcp-Name checked, polls no faster than pollIntervalMs)", async () => {
    const f = fixture(false);
    const record = join(mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-http-')), 'wire.log');
    const { url, child, sent: sentOf } = await startTasksHttpFixture(record, { POLL_MS: '150' });
    try {
      const started = await runHostCli(['--http', url, '--name', 'fxh', '--answers', f.answers, '--no-wait', 'call', 'research']);
      assert.equal(started.code, 0, started.err);
      assert.equal(started.out, 'task-1\n');
      const r = await runHostCli(['--http', url, '--name', 'fxh', '--answers', f.answers, 'tasks', 'result', 'task-1']);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.out, 'researched with {"who":{"name":"Ada"},"q1":{"ok":true},"q2":{"ok":false}}\n');
      const sent = sentOf();
      // The fixture refuses (400) a request whose Mcp-Method or Mcp-Name does not match its body: none was.
      assert.deepEqual(
        sent.filter((s) => s.msg.method === 'tasks/update').map((s) => Object.keys(s.msg.params.inputResponses)),
        [['q1'], ['q2']],
      );
      const polls = sent.filter((s) => s.msg.method === 'tasks/get').map((s) => s.at);
      assert.ok(polls.length >= 3, `${polls.length} polls`);
      for (let i = 1; i < polls.length; i++)
        assert.ok(polls[i] - polls[i - 1] >= 140, `poll ${i} came ${polls[i] - polls[i - 1]} ms after the one before`);
      // Once more, the task long completed: its result is in the first tasks/get answer.
      const again = await runHostCli(['--http', url, '--name', 'fxh', 'tasks', 'result', 'task-1']);
      assert.equal(again.code, 0, again.err);
      assert.equal(again.out, r.out);
    } finally {
      child.kill();
    }
  });

  it('over HTTP: Ctrl-C leaves a task the server does not cancel working but not followed; tasks get re-checks it and tasks result resumes it, the list following', async () => {
    process.env.MCP_ROUNDTRIP_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-config-'));
    const f = fixture(false);
    const record = join(mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-http-')), 'wire.log');
    const { url, child, sent } = await startTasksHttpFixture(record, { POLL_MS: '20', NEVER_ENDS: '1', IGNORES_CANCEL: '1' });
    const server = ['--http', url, '--name', 'fxh'];
    try {
      const r = await runHostCli([...server, '--answers', f.answers, 'call', 'research'], {
        cancelWhen: /task task-1: working — still going/,
      });
      assert.equal(r.code, 130, r.err);
      assert.match(r.err, /task task-1: working, not followed any more \(the CLI was interrupted; tasks\/cancel was sent\)/);
      // tasks/cancel, then one more read to learn what the server made of it.
      const after = sent().map((s) => s.msg.method);
      assert.deepEqual(after.slice(after.lastIndexOf('tasks/cancel')), ['tasks/cancel', 'tasks/get']);
      const hint = 'the server may still run it: tasks get task-1 re-checks it, tasks result task-1 resumes it, against the same server';
      const line = (status: string) =>
        `task-1  fxh  research  ${status} (not followed: the CLI was interrupted; tasks/cancel was sent — ${hint})\n`;
      assert.equal((await runHostCli(['tasks', 'list'])).out, line('working — still going'));
      // The record keeps why in no language of its own: each run says it in its own.
      assert.match((await runHostCli(['--lang', 'zh-cn', 'tasks', 'list'])).out, /（未再跟进：CLI 被中断；已发送 tasks\/cancel — /);
      // The task moves on (it now asks q1): a re-check says so, and the list with it.
      const finish = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'mcp-method': 'fixture/finish' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'fixture/finish' }),
      });
      assert.equal(finish.status, 200);
      const got = await runHostCli([...server, 'tasks', 'get', 'task-1']);
      assert.equal(got.out, 'task task-1: input_required\n', got.err);
      assert.equal((await runHostCli(['tasks', 'list'])).out, line('input_required'));
      const resumed = await runHostCli([...server, '--answers', f.answers, 'tasks', 'result', 'task-1']);
      assert.equal(resumed.code, 0, resumed.err);
      assert.equal((await runHostCli(['tasks', 'list'])).out, 'task-1  fxh  research  completed\n');
    } finally {
      child.kill();
    }
  });

  it('over HTTP: Ctrl-C, and the server cancels the task: the kept list says cancelled', async () => {
    process.env.MCP_ROUNDTRIP_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-config-'));
    const f = fixture(false);
    const record = join(mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-http-')), 'wire.log');
    const { url, child } = await startTasksHttpFixture(record, { POLL_MS: '20', NEVER_ENDS: '1' });
    try {
      const r = await runHostCli(['--http', url, '--name', 'fxh', '--answers', f.answers, 'call', 'research'], {
        cancelWhen: /task task-1: working/,
      });
      assert.equal(r.code, 130, r.err);
      assert.match(r.err, /task task-1: cancelled\n/);
      assert.doesNotMatch(r.err, /not followed/);
      assert.equal((await runHostCli(['tasks', 'list'])).out, 'task-1  fxh  research  cancelled\n');
    } finally {
      child.kill();
    }
  });

  it('over HTTP: an answer missing from --answers (exit 3) cancels the task, and the kept list says cancelled, not "resume it"', async () => {
    process.env.MCP_ROUNDTRIP_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-config-'));
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-answers-'));
    const onlyWho = join(dir, 'answers.json');
    writeFileSync(onlyWho, JSON.stringify({ who: { action: 'accept', content: { name: 'Ada' } } }));
    const record = join(mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-http-')), 'wire.log');
    const { url, child, sent } = await startTasksHttpFixture(record, { POLL_MS: '20' });
    try {
      const r = await runHostCli(['--http', url, '--name', 'fxh', '--answers', onlyWho, 'call', 'research']);
      assert.equal(r.code, 3, r.err);
      const after = sent().map((s) => s.msg.method);
      assert.deepEqual(after.slice(after.lastIndexOf('tasks/cancel')), ['tasks/cancel', 'tasks/get'], 'read once more after the cancel');
      assert.doesNotMatch(r.err, /not followed|missingAnswer/);
      assert.equal((await runHostCli(['tasks', 'list'])).out, 'task-1  fxh  research  cancelled\n');
    } finally {
      child.kill();
    }
  });

  it('tasks list: a stdio task whose CLI process is gone (killed before it could say) is not shown as working', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-tasks-config-'));
    process.env.MCP_ROUNDTRIP_CONFIG_DIR = dir;
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    const base = {
      server: 'fx',
      tool: 'research',
      era: 'modern',
      status: 'working',
      statusMessage: 'still going',
      createdAt: Date.now(),
      updatedAt: Date.now(),
    };
    const tasks = [
      { ...base, id: 'dead', transport: 'stdio', hostPid: deadPid },
      { ...base, id: 'live', transport: 'stdio', hostPid: process.pid, hostStart: processStart(process.pid) },
      // This test's process has that id now, but it started after the process that kept this record.
      { ...base, id: 'reused', transport: 'stdio', hostPid: process.pid, hostStart: '1' },
      { ...base, id: 'web', server: 'fxh', transport: 'http' },
    ];
    writeFileSync(join(dir, 'tasks.json'), JSON.stringify({ version: 1, tasks }));
    const listed = await runHostCli(['tasks', 'list']);
    assert.equal(
      listed.out,
      [
        'dead  fx  research  ended: its stdio server exited (last read: working — still going)',
        'live  fx  research  working — still going',
        'reused  fx  research  ended: its stdio server exited (last read: working — still going)',
        'web  fxh  research  working — still going',
      ].join('\n') + '\n',
    );
    // The file says so too, and a new server process asked for it says where it went.
    const kept = JSON.parse(readFileSync(join(dir, 'tasks.json'), 'utf8')) as { tasks: { id: string; note?: string }[] };
    assert.deepEqual(
      kept.tasks.map((t) => [t.id, t.note]),
      [
        ['dead', 'serverExited'],
        ['live', undefined],
        ['reused', 'serverExited'],
        ['web', undefined],
      ],
    );
    const asked = await runHostCli(['--stdio', fixture(false).command, '--name', 'fx', 'tasks', 'get', 'dead']);
    assert.equal(asked.code, 1, asked.err);
    assert.match(
      asked.err,
      /does not know task dead \(unknown or expired\).*the stdio server that ran it exited with the CLI process that started it/,
    );
  });

  it('tasks get of an id the server does not know is exit 1 with a clear message', async () => {
    const f = fixture(false);
    const r = await runHostCli(['--stdio', f.command, 'tasks', 'get', 'nope']);
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /does not know task nope \(unknown or expired\)/);
  });

  it('parses tasks get|cancel|result <id> and --no-wait, refusing them where they do not apply', () => {
    const base = ['--stdio', 'srv'];
    assert.deepEqual(parseCli([...base, 'tasks', 'result', 't1']).command, { kind: 'tasks', action: 'result', id: 't1' });
    assert.equal(parseCli([...base, '--no-wait', 'call', 'x']).noWait, true);
    assert.throws(() => parseCli([...base, '--no-wait', 'tools']), /--no-wait applies to call and run only/);
    assert.throws(() => parseCli([...base, 'tasks', 'pause', 't1']), /unknown tasks subcommand "pause"/);
    assert.throws(() => parseCli([...base, 'tasks', 'get']), /tasks get needs a task id/);
    assert.deepEqual(parseCli(['tasks', 'list']).command, { kind: 'tasksList' });
    assert.throws(() => parseCli(['tasks', 'list', 'x']), /tasks list takes no argument/);
    assert.throws(() => parseCli(['tasks', 'get', 'x']), /give exactly one of --stdio/);
  });
});
