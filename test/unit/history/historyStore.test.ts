/**
 * The call history's store: newest first, at most `limit` calls (0 keeps none and empties the
 * storage), what is read back is checked (a corrupt or edited storage loses only its bad entries).
 */
import assert from 'node:assert/strict';
import type { CallRecord } from '../../../src/core/history/callRecord';
import { newHistoryId } from '../../../src/core/history/callRecord';
import {
  DEFAULT_HISTORY_SIZE,
  HistoryStore,
  MAX_HISTORY_SIZE,
  historySize,
  isCallRecord,
  readRecords,
} from '../../../src/core/history/historyStore';

const call = (id: string, extra: Partial<CallRecord> = {}): CallRecord => ({
  id,
  server: 'demo',
  method: 'tools/call',
  target: 'book_table',
  startedAt: 1,
  totalMs: 2,
  waitingMs: 1,
  status: 'complete',
  rounds: [],
  ...extra,
});

function memory(initial?: unknown) {
  const box = { value: initial, writes: 0 };
  return { box, storage: { get: () => box.value, set: async (v: unknown) => void ((box.value = v), box.writes++) } };
}

describe('history: the store (HistoryStore)', () => {
  it('keeps the newest calls first, at most the limit, in the storage too', async () => {
    const { box, storage } = memory();
    const store = new HistoryStore(storage, () => 3);
    for (const id of ['a', 'b', 'c', 'd', 'e']) await store.add(call(id));
    assert.deepEqual(
      store.list().map((r) => r.id),
      ['e', 'd', 'c'],
    );
    assert.deepEqual(
      readRecords(box.value).records.map((r) => r.id),
      ['e', 'd', 'c'],
    );
    assert.equal(store.get('a'), undefined);
    assert.equal(store.get('d')!.id, 'd');
  });

  it('a limit lowered later trims at once; a limit of 0 keeps nothing and empties the storage', async () => {
    const { box, storage } = memory();
    let limit = 5;
    const store = new HistoryStore(storage, () => limit);
    for (const id of ['a', 'b', 'c', 'd']) await store.add(call(id));
    limit = 2;
    await store.applyLimit();
    assert.deepEqual(
      store.list().map((r) => r.id),
      ['d', 'c'],
    );
    limit = 0;
    await store.add(call('e'));
    assert.deepEqual(store.list(), []);
    assert.equal(box.value, undefined);
  });

  it('a limit lowered (or 0) while the workspace was closed, or malformed entries, are cleaned out of the storage at once', async () => {
    const { box, storage } = memory({ version: 1, calls: [call('a'), call('b'), call('c'), { bad: true }] });
    new HistoryStore(storage, () => 2);
    await Promise.resolve();
    assert.deepEqual(
      readRecords(box.value).records.map((r) => r.id),
      ['a', 'b'],
    );
    assert.equal(readRecords(box.value).dropped, 0);
    new HistoryStore(storage, () => 0);
    await Promise.resolve();
    assert.equal(box.value, undefined, 'a history size of 0 keeps nothing, not even what was stored before');
    const untouched = memory({ version: 1, calls: [call('a')] });
    new HistoryStore(untouched.storage, () => 5);
    assert.equal(untouched.box.writes, 0, 'a clean storage is not rewritten');
  });

  it('reads back what it wrote across instances (a reload), and tells listeners of every change', async () => {
    const { storage } = memory();
    const first = new HistoryStore(storage, () => 10);
    let changes = 0;
    first.onChange(() => changes++);
    await first.add(call('a'));
    await first.add(call('b'));
    await first.remove('a');
    assert.equal(changes, 3);
    const again = new HistoryStore(storage, () => 10);
    assert.deepEqual(
      again.list().map((r) => r.id),
      ['b'],
    );
    await again.clear();
    assert.deepEqual(new HistoryStore(storage, () => 10).list(), []);
  });

  it('a corrupt storage loses only its malformed entries, and says how many', () => {
    for (const junk of ['a string', 42, { calls: 'x' }, { calls: null }]) {
      const store = new HistoryStore(memory(junk).storage, () => 10);
      assert.deepEqual(store.list(), []);
      assert.equal(store.dropped, 1, JSON.stringify(junk));
    }
    const mixed = {
      version: 1,
      calls: [
        call('ok'),
        { id: 'no-method', server: 's', target: 't' },
        call('bad-rounds', { rounds: 'x' as never }),
        call('bad-input', { rounds: [{ round: 1, legMs: 1, state: {}, inputs: [{ key: 7 }] }] as never }),
        call('ok'),
        null,
        call('ok2', { status: 'weird' as never }),
      ],
    };
    const store = new HistoryStore(memory(mixed).storage, () => 10);
    assert.deepEqual(
      store.list().map((r) => r.id),
      ['ok'],
    );
    assert.equal(store.dropped, 6);
    assert.equal(new HistoryStore(memory(undefined).storage, () => 10).dropped, 0);
  });

  it('isCallRecord wants the members the view reads, with their types', () => {
    assert.ok(isCallRecord(call('a')));
    assert.ok(!isCallRecord(call('a', { method: 'tools/list' as never })));
    assert.ok(!isCallRecord(call('a', { arguments: [] as never })));
    assert.ok(!isCallRecord(call('a', { error: 3 as never })));
    assert.ok(!isCallRecord(call('', {})));
  });

  it('the size setting: a whole number in 0..1000, else the default', () => {
    assert.equal(historySize(undefined), DEFAULT_HISTORY_SIZE);
    assert.equal(historySize('10'), DEFAULT_HISTORY_SIZE);
    assert.equal(historySize(Number.NaN), DEFAULT_HISTORY_SIZE);
    assert.equal(historySize(0), 0);
    assert.equal(historySize(-3), 0);
    assert.equal(historySize(2.7), 2);
    assert.equal(historySize(1e9), MAX_HISTORY_SIZE);
  });

  it('history ids are short, distinct and carry no meaning', () => {
    const ids = new Set(Array.from({ length: 200 }, (_, i) => newHistoryId(1_700_000_000_000 + i)));
    assert.equal(ids.size, 200);
    for (const id of ids) assert.match(id, /^h[0-9a-z]{8,12}$/);
  });
});
