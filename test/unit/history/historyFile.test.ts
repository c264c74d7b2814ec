/**
 * The call history in a JSON lines file: adding a call appends one line (what was written stays as it
 * was), the file is written whole only to drop calls (compaction past the kept ones' number), a
 * history of earlier versions is moved from the workspace state once, and a file too large is not read.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallRecord } from '../../../src/core/history/callRecord';
import { historyFile, migrateHistory } from '../../../src/core/history/historyFile';
import { HistoryStore } from '../../../src/core/history/historyStore';

const call = (id: string): CallRecord => ({
  id,
  server: 'demo',
  method: 'tools/call',
  target: 'book_table',
  startedAt: 1,
  totalMs: 2,
  waitingMs: 1,
  status: 'complete',
  rounds: [],
});

describe('history: the JSON lines file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-rt-history-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends one line per call, never rewriting what is there, and reads back newest first', async () => {
    const path = join(dir, 'h.jsonl');
    const store = new HistoryStore(historyFile(path), () => 10);
    await store.add(call('a'));
    const afterOne = readFileSync(path, 'utf8');
    await store.add(call('b'));
    await store.add(call('c'));
    const text = readFileSync(path, 'utf8');
    assert.ok(text.startsWith(afterOne), 'the first line is as it was written');
    assert.equal(text.split('\n').filter(Boolean).length, 3);
    assert.deepEqual(
      new HistoryStore(historyFile(path), () => 10).list().map((r) => r.id),
      ['c', 'b', 'a'],
    );
  });

  it('compacts once the lines past the kept calls reach their number; a removal or a clear rewrites', async () => {
    const path = join(dir, 'h.jsonl');
    const store = new HistoryStore(historyFile(path), () => 2);
    for (const id of ['a', 'b', 'c', 'd']) await store.add(call(id));
    const lines = () =>
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as CallRecord).id);
    assert.ok(lines().length <= 4);
    await store.add(call('e'));
    assert.deepEqual(
      store.list().map((r) => r.id),
      ['e', 'd'],
    );
    assert.deepEqual(
      new HistoryStore(historyFile(path), () => 2).list().map((r) => r.id),
      ['e', 'd'],
    );
    await store.remove('e');
    assert.deepEqual(lines(), ['d']);
    await store.clear();
    assert.equal(existsSync(path), false);
  });

  it('moves the history of the workspace state to the file once, and empties the state', async () => {
    const path = join(dir, 'h.jsonl');
    const state = { value: { version: 1, calls: [call('new'), call('old')] } as unknown };
    const from = { get: () => state.value, set: (v: unknown) => ((state.value = v), Promise.resolve()) };
    await migrateHistory(from, historyFile(path));
    assert.equal(state.value, undefined);
    assert.deepEqual(
      new HistoryStore(historyFile(path), () => 10).list().map((r) => r.id),
      ['new', 'old'],
    );
  });

  it('a line that is not JSON is dropped alone; the others are kept', () => {
    const path = join(dir, 'h.jsonl');
    writeFileSync(path, `${JSON.stringify(call('a'))}\n{broken\n${JSON.stringify(call('b'))}\n`);
    const store = new HistoryStore(historyFile(path), () => 10);
    assert.deepEqual(
      store.list().map((r) => r.id),
      ['b', 'a'],
    );
    assert.equal(store.dropped, 1);
  });
});
