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
});
