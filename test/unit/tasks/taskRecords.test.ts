/**
 * The kept tasks (core/tasks/taskRecords.ts): newest first, updated in place, bounded, expired by their
 * time to live from their creation, and stored text that is not a record dropped.
 */
import assert from 'node:assert/strict';
import { MAX_TASK_RECORDS, TaskRecords, UNBOUNDED_TASK_KEPT_MS, type TaskRecord } from '../../../src/core/tasks/taskRecords';
import type { Task } from '../../../src/core/tasks/task';

const task = (id: string, extra: Partial<Task> = {}): Task => ({ id, server: 'fx', era: 'modern', status: 'working', ...extra });

function storage(initial?: unknown) {
  let kept: unknown = initial;
  let writes = 0;
  return {
    read: () => kept,
    write: (r: TaskRecord[]) => {
      kept = JSON.parse(JSON.stringify(r));
      writes++;
    },
    get kept() {
      return kept as TaskRecord[];
    },
    get writes() {
      return writes;
    },
  };
}

describe('tasks: kept task records', () => {
  it('keeps a new task first, updates a known one in place (its tool and creation time kept), and survives a new reader', () => {
    let now = 1000;
    const s = storage();
    const records = new TaskRecords(s, () => now);
    records.record(task('a', { ttlMs: 60_000 }), 'research');
    now = 2000;
    records.record(task('b'), 'other');
    now = 3000;
    records.record(task('a', { status: 'completed', statusMessage: 'done' }), 'ignored');
    assert.deepEqual(
      records.list().map((r) => [r.id, r.tool, r.status, r.createdAt, r.updatedAt, r.ttlMs]),
      [
        ['b', 'other', 'working', 2000, 2000, undefined],
        ['a', 'research', 'completed', 1000, 3000, 60_000],
      ],
    );
    const again = new TaskRecords(s, () => now);
    assert.equal(again.get('fx', 'a')?.statusMessage, 'done');
    assert.equal(again.get('other server', 'a'), undefined);
  });

  it('drops a task once its ttlMs from creation is over (and one without a ttl after 7 days), from storage too', () => {
    let now = 0;
    const s = storage();
    const records = new TaskRecords(s, () => now);
    records.record(task('short', { ttlMs: 1000 }), 't');
    records.record(task('none'), 't');
    now = 999;
    assert.equal(records.list().length, 2);
    now = 1000;
    assert.deepEqual(
      records.list().map((r) => r.id),
      ['none'],
    );
    assert.deepEqual(
      s.kept.map((r) => r.id),
      ['none'],
    );
    now = UNBOUNDED_TASK_KEPT_MS;
    assert.deepEqual(records.list(), []);
  });

  it(`keeps at most ${MAX_TASK_RECORDS}, the newest`, () => {
    const records = new TaskRecords(storage(), () => 0);
    for (let i = 0; i < MAX_TASK_RECORDS + 5; i++) records.record(task(`t${i}`), 'x');
    const listed = records.list();
    assert.equal(listed.length, MAX_TASK_RECORDS);
    assert.equal(listed[0].id, `t${MAX_TASK_RECORDS + 4}`);
    assert.equal(listed.at(-1)!.id, 't5');
  });

  it('drops stored entries that are not records (a hand-edited or foreign file)', () => {
    const good = { id: 'ok', server: 's', tool: 't', era: 'legacy', status: 'input_required', createdAt: 0, updatedAt: 0 };
    const records = new TaskRecords(
      storage([good, { ...good, id: 1 }, { ...good, status: 'paused' }, { ...good, era: 'x' }, 'text', null]),
      () => 0,
    );
    assert.deepEqual(
      records.list().map((r) => r.id),
      ['ok'],
    );
    assert.deepEqual(new TaskRecords(storage({ not: 'a list' }), () => 0).list(), []);
  });

  it('tells its listeners of each change, and remove forgets a task', () => {
    const records = new TaskRecords(storage(), () => 0);
    let told = 0;
    records.onChange(() => told++);
    records.record(task('a'), 't');
    records.remove('fx', 'a');
    records.remove('fx', 'a');
    assert.equal(told, 2);
    assert.deepEqual(records.list(), []);
  });

  it("notes beside the server's status: unfollowed kept through a re-read while the task runs, dropped when it ends; nothing noted of an ended task", () => {
    let now = 0;
    const records = new TaskRecords(storage(), () => now);
    records.record(task('a'), 't', { transport: 'http' });
    records.note('fx', 'a', 'unfollowed', 'the CLI was interrupted');
    now = 5;
    records.record(task('a', { status: 'input_required' }), 't');
    assert.deepEqual(
      (({ status, note, noteDetail, transport, updatedAt }) => ({ status, note, noteDetail, transport, updatedAt }))(
        records.get('fx', 'a')!,
      ),
      { status: 'input_required', note: 'unfollowed', noteDetail: 'the CLI was interrupted', transport: 'http', updatedAt: 5 },
    );
    records.record(task('a', { status: 'completed' }), 't');
    assert.equal(records.get('fx', 'a')?.note, undefined);
    records.note('fx', 'a', 'unfollowed');
    assert.equal(records.get('fx', 'a')?.note, undefined);
    records.note('fx', 'nope', 'serverExited');
    assert.equal(records.get('fx', 'nope'), undefined);
  });

  it('settle marks serverExited the unended stdio tasks whose host process is gone, and only those; a task its server answers for again loses the mark', () => {
    const s = storage();
    const records = new TaskRecords(s, () => 0);
    records.record(task('gone'), 't', { transport: 'stdio', hostPid: 11 });
    records.record(task('ours'), 't', { transport: 'stdio', hostPid: 22, hostStart: '500' });
    // Process 22 runs, but it started later: the id was given again, the CLI that ran this one is gone.
    records.record(task('reused'), 't', { transport: 'stdio', hostPid: 22, hostStart: '400' });
    records.record(task('done', { status: 'completed' }), 't', { transport: 'stdio', hostPid: 11 });
    records.record(task('web'), 't', { transport: 'http' });
    records.settle((pid, start) => pid === 22 && start === '500');
    assert.deepEqual(
      records.list().map((r) => [r.id, r.note]),
      [
        ['web', undefined],
        ['done', undefined],
        ['reused', 'serverExited'],
        ['ours', undefined],
        ['gone', 'serverExited'],
      ],
    );
    assert.equal(records.get('fx', 'ours')?.hostStart, '500', 'kept as the record was made');
    assert.equal(s.kept.find((r) => r.id === 'gone')?.note, 'serverExited');
    records.record(task('gone', { statusMessage: 'persisted' }), 't');
    assert.equal(records.get('fx', 'gone')?.note, undefined);
  });

  it('a created task replaces a record of the same id (a new stdio server process numbers its tasks again), first in the list', () => {
    let now = 0;
    const records = new TaskRecords(storage(), () => now);
    records.record(task('task-1'), 'old', { transport: 'stdio', hostPid: 11 });
    records.note('fx', 'task-1', 'serverExited');
    records.record(task('other'), 't');
    now = 9;
    records.record(task('task-1'), 'new', { transport: 'stdio', hostPid: 22, created: true });
    const [first, second] = records.list();
    assert.deepEqual([first.id, first.tool, first.createdAt, first.hostPid, first.note], ['task-1', 'new', 9, 22, undefined]);
    assert.equal(second.id, 'other');
    assert.equal(records.list().length, 2);
  });

  it('reads back its notes and places, dropping values it never writes', () => {
    const base = { id: 'a', server: 's', tool: 't', era: 'modern', status: 'working', createdAt: 0, updatedAt: 0 };
    const kept = new TaskRecords(
      storage([
        { ...base, transport: 'stdio', hostPid: 42, note: 'unfollowed', noteDetail: 'x'.repeat(300) },
        { ...base, id: 'b', transport: 'pipe', hostPid: -1, note: 'ended', noteDetail: 7 },
      ]),
      () => 0,
    ).list();
    assert.deepEqual(
      kept.map((r) => [r.id, r.transport, r.hostPid, r.note, r.noteDetail?.length]),
      [
        ['a', 'stdio', 42, 'unfollowed', 200],
        ['b', undefined, undefined, undefined, undefined],
      ],
    );
  });

  it("two processes at once keep each other's records: each change and each listing reads the storage first", () => {
    const s = storage();
    const a = new TaskRecords(s);
    const b = new TaskRecords(s);
    a.record(task('from-a'), 'research');
    b.record(task('from-b'), 'research');
    a.note('fx', 'from-a', 'unfollowed', 'interrupted');
    assert.deepEqual(
      s.kept.map((r) => [r.id, r.note]),
      [
        ['from-b', undefined],
        ['from-a', 'unfollowed'],
      ],
    );
    assert.deepEqual(
      b.list().map((r) => r.id),
      ['from-b', 'from-a'],
    );
  });

  it('a record is kept bounded as it is read back: an id the storage could not give back is not kept, a long message is cut', () => {
    const s = storage();
    const records = new TaskRecords(s);
    records.record(task('ok'), 'research');
    records.record(task('x'.repeat(600)), 'research');
    records.record(task('long', { statusMessage: 'm'.repeat(1_000_000) }), 't'.repeat(10_000));
    assert.deepEqual(
      s.kept.map((r) => [r.id, r.tool.length, r.statusMessage?.length]),
      [
        ['long', 200, 500],
        ['ok', 'research'.length, undefined],
      ],
    );
    assert.ok(JSON.stringify(s.kept).length < 2000);
  });
});
