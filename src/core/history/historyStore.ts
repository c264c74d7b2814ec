/**
 * The call history: the most recent calls, newest first, at most `limit` of them and at most
 * {@link MAX_HISTORY_CHARS} of JSON (the oldest dropped first), kept in a storage
 * the host provides (the workspace's storage in VS Code). What is read back is checked: an entry
 * that is not a well-formed record (storage edited or corrupt, an older format) is dropped, never
 * shown half. A limit of 0 keeps nothing and empties the storage.
 */
import { MRTR_METHODS } from '../inputs/inputProvider';
import { isPlainObject, jsonSize } from '../util/json';
import { CALL_ORIGINS, type CallRecord } from './callRecord';

/** Where the history is kept: one JSON value, read once and written whole. */
export interface HistoryStorage {
  get(): unknown;
  set(value: unknown): Promise<void> | Thenable<void>;
  /**
   * Optional: keep one more call (the newest) without writing the others again (`historyFile.ts`).
   * The store still calls {@link set} to drop calls, and once the calls appended past those kept
   * reach the kept ones' number or size (compaction).
   */
  append?(record: CallRecord): Promise<void>;
}

/** Default number of calls kept. */
export const DEFAULT_HISTORY_SIZE = 50;
/** Most calls that can be kept, whatever the setting says. */
export const MAX_HISTORY_SIZE = 1000;

/** Largest stored history (JSON text, UTF-16 code units): past it the oldest calls are dropped first. */
export const MAX_HISTORY_CHARS = 10_000_000;

/** The size of each record's JSON text, measured once. */
const sizes = new WeakMap<CallRecord, number>();
const sizeOf = (r: CallRecord): number => {
  let n = sizes.get(r);
  if (n === undefined) sizes.set(r, (n = jsonSize(r)));
  return n;
};

/** The newest of `records` (newest first) whose JSON text together stays within {@link MAX_HISTORY_CHARS}. */
export function withinHistoryBytes(records: readonly CallRecord[]): CallRecord[] {
  let total = 0;
  const kept: CallRecord[] = [];
  for (const r of records) {
    const n = sizeOf(r);
    // One larger than the whole bound (kept before the records were bounded) goes alone.
    if (n > MAX_HISTORY_CHARS) continue;
    if ((total += n) > MAX_HISTORY_CHARS) break;
    kept.push(r);
  }
  return kept;
}

/** A history size from a setting: a whole number in 0..{@link MAX_HISTORY_SIZE}, else the default. */
export function historySize(setting: unknown): number {
  if (typeof setting !== 'number' || !Number.isFinite(setting)) return DEFAULT_HISTORY_SIZE;
  return Math.min(MAX_HISTORY_SIZE, Math.max(0, Math.floor(setting)));
}

const STATUSES = new Set(['complete', 'toolError', 'error', 'cancelled']);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Whether a stored value is a well-formed {@link CallRecord} (the members the host reads, with their types). */
export function isCallRecord(v: unknown): v is CallRecord {
  if (!isPlainObject(v)) return false;
  if (typeof v.id !== 'string' || !v.id || typeof v.server !== 'string' || typeof v.target !== 'string') return false;
  if (!(MRTR_METHODS as readonly unknown[]).includes(v.method) || !STATUSES.has(v.status as string)) return false;
  if (!isNum(v.startedAt) || !isNum(v.totalMs) || !isNum(v.waitingMs)) return false;
  if (v.arguments !== undefined && !isPlainObject(v.arguments)) return false;
  if (v.result !== undefined && !isPlainObject(v.result)) return false;
  if (v.omittedArguments !== undefined && !(Array.isArray(v.omittedArguments) && v.omittedArguments.every((k) => typeof k === 'string')))
    return false;
  if (v.from !== undefined && !(CALL_ORIGINS as readonly unknown[]).includes(v.from)) return false;
  for (const k of ['error', 'resultNote', 'era'] as const) if (v[k] !== undefined && typeof v[k] !== 'string') return false;
  if (!Array.isArray(v.rounds)) return false;
  return v.rounds.every(
    (r) =>
      isPlainObject(r) &&
      isNum(r.round) &&
      isNum(r.legMs) &&
      isPlainObject(r.state) &&
      Array.isArray(r.inputs) &&
      r.inputs.every(
        (i) =>
          isPlainObject(i) &&
          typeof i.key === 'string' &&
          typeof i.method === 'string' &&
          (i.answer === undefined || (isPlainObject(i.answer) && typeof i.answer.action === 'string' && typeof i.answer.by === 'string')) &&
          (i.fields === undefined ||
            (Array.isArray(i.fields) &&
              i.fields.every((f) => isPlainObject(f) && typeof f.key === 'string' && typeof f.label === 'string'))),
      ),
  );
}

/** The records of a stored value, and how many entries were dropped as malformed. */
export function readRecords(stored: unknown): { records: CallRecord[]; dropped: number } {
  const list = isPlainObject(stored) && Array.isArray(stored.calls) ? stored.calls : Array.isArray(stored) ? stored : undefined;
  if (!list) return { records: [], dropped: stored === undefined || stored === null ? 0 : 1 };
  const records = list.filter(isCallRecord);
  const ids = new Set<string>();
  const unique = records.filter((r) => !ids.has(r.id) && (ids.add(r.id), true));
  return { records: unique, dropped: list.length - unique.length };
}

/** The history of one workspace. */
export class HistoryStore {
  private records: CallRecord[];
  private readonly listeners = new Set<() => void>();
  /** Calls appended since the storage was last written whole, and their JSON size (compaction). */
  private stale = 0;
  private staleChars = 0;
  /** How many stored entries were dropped when reading (malformed). */
  readonly dropped: number;

  /**
   * @param storage where the history is kept
   * @param limit how many calls to keep (read on each change: a setting may change it)
   */
  constructor(
    private readonly storage: HistoryStorage,
    private readonly limit: () => number,
  ) {
    const read = readRecords(storage.get());
    this.records = withinHistoryBytes(read.records.slice(0, Math.max(0, limit())));
    this.dropped = read.dropped;
    // What is stored beyond the limit (lowered, or 0, while the workspace was closed) or malformed goes now.
    if (this.records.length < read.records.length || read.dropped) this.save().catch(() => undefined);
  }

  /** The calls, newest first. */
  list(): readonly CallRecord[] {
    return this.records;
  }

  get(id: string): CallRecord | undefined {
    return this.records.find((r) => r.id === id);
  }

  /**
   * Add a call (newest); the oldest beyond the limit are dropped. With a limit of 0 nothing is kept.
   * A storage that appends gets the one call; it is written whole only once the calls it holds past
   * those kept reach their number or {@link MAX_HISTORY_CHARS} (compaction), or when the call replaces one.
   */
  add(record: CallRecord): Promise<void> {
    const replaces = this.records.some((r) => r.id === record.id);
    this.records = [record, ...this.records.filter((r) => r.id !== record.id)];
    if (!this.storage.append || replaces || this.limit() <= 0) return this.save();
    this.records = withinHistoryBytes(this.records.slice(0, this.limit()));
    this.stale += 1;
    this.staleChars += sizeOf(record);
    if (this.stale > Math.max(this.records.length, 1) || this.staleChars > MAX_HISTORY_CHARS) return this.save();
    this.changed();
    return this.storage.append(record);
  }

  /** Remove one call. */
  remove(id: string): Promise<void> {
    this.records = this.records.filter((r) => r.id !== id);
    return this.save();
  }

  /** Forget every call. */
  clear(): Promise<void> {
    this.records = [];
    return this.save();
  }

  /** Apply the current limit (after the setting changed). */
  applyLimit(): Promise<void> {
    return this.save();
  }

  /** Call `f` after each change; returns a function that stops it. */
  onChange(f: () => void): () => void {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }

  private async save(): Promise<void> {
    this.records = withinHistoryBytes(this.records.slice(0, Math.max(0, this.limit())));
    this.stale = 0;
    this.staleChars = 0;
    this.changed();
    await this.storage.set(this.records.length ? { version: 1, calls: this.records } : undefined);
  }

  private changed(): void {
    for (const f of this.listeners) {
      try {
        f();
      } catch {
        /* a broken listener never loses the history */
      }
    }
  }
}
