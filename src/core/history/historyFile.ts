/**
 * The call history kept in a file of JSON lines (one {@link CallRecord} a line, oldest first), so that
 * adding a call appends one line instead of writing the whole history again; the file is written whole
 * (to a temporary file, then renamed) only to drop calls: a removal, a clear, a lower limit, or once
 * the lines past the kept ones reach the history's own size (compaction). Read back bounded: a file
 * larger than {@link MAX_HISTORY_FILE_BYTES} is not read (the history starts empty, said by `dropped`).
 */
import { appendFileSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { isPlainObject } from '../util/json';
import type { CallRecord } from './callRecord';
import { MAX_HISTORY_CHARS, type HistoryStorage } from './historyStore';

/** Largest history file read back (bytes): the stored bound, twice over (a file may hold dropped lines until compaction), in UTF-8. */
export const MAX_HISTORY_FILE_BYTES = MAX_HISTORY_CHARS * 2 * 3;

/**
 * A {@link HistoryStorage} over the JSON lines file at `path` (its folder must exist).
 * `get()` gives `{ version: 1, calls }` newest first, as the store reads it; a line that is not JSON is
 * left out (the store drops malformed records the same way).
 */
export function historyFile(path: string): HistoryStorage & { append(record: CallRecord): Promise<void> } {
  return {
    get() {
      let size: number;
      try {
        size = statSync(path).size;
      } catch {
        return undefined;
      }
      if (size > MAX_HISTORY_FILE_BYTES) return { version: 1, calls: [null] };
      const calls: unknown[] = [];
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          calls.push(JSON.parse(line));
        } catch {
          calls.push(null);
        }
      }
      return { version: 1, calls: calls.reverse() };
    },
    set(value) {
      const calls = isPlainObject(value) && Array.isArray(value.calls) ? (value.calls as unknown[]) : [];
      if (!calls.length) {
        try {
          unlinkSync(path);
        } catch {
          /* nothing stored */
        }
        return Promise.resolve();
      }
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(
        tmp,
        [...calls]
          .reverse()
          .map((c) => `${JSON.stringify(c)}\n`)
          .join(''),
      );
      renameSync(tmp, path);
      return Promise.resolve();
    },
    append(record) {
      appendFileSync(path, `${JSON.stringify(record)}\n`);
      return Promise.resolve();
    },
  };
}

/**
 * Move a history kept whole in `from` (the workspace state of earlier versions) to `to` (the file),
 * once: only when `to` holds none; `from` is emptied after. The store checks the records as it reads them.
 */
export async function migrateHistory(from: HistoryStorage, to: HistoryStorage): Promise<void> {
  const old = from.get();
  if (old === undefined || old === null) return;
  if (to.get() === undefined) await to.set(old);
  await from.set(undefined);
}
