/**
 * The tasks a host started, kept so they outlive the window or the process that started them: VS Code
 * keeps them in workspace storage, the CLI in its config directory. Bounded ({@link MAX_TASK_RECORDS},
 * the newest kept) and expired by the task's time to live (`ttlMs`, counted from its creation; a task
 * without one is kept {@link UNBOUNDED_TASK_KEPT_MS}): after it the server may have dropped the task.
 *
 * Spec: the 2026-07-28 tasks extension (a client SHOULD persist task ids to resume after a restart;
 * `ttlMs` counts from `createdAt`) and MCP 2025-11-25 "Tasks" (`ttl`).
 */
import { isPlainObject } from '../util/json';
import { TASK_STATUSES, isTerminal, type Task } from './task';

/** How many tasks are kept, the newest first. */
export const MAX_TASK_RECORDS = 100;
/** How long a task without a time to live is kept after its creation, ms (7 days). */
export const UNBOUNDED_TASK_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * The host's own word on a kept task, beside the server's last-read status (never a status of its own:
 * the spec names five, all the server's). `unfollowed`: the process that followed it stopped before it
 * ended (Ctrl-C, the call's time limit, a failure); the server may still run it, and reading it again
 * (`tasks get`, `tasks result`) says. `serverExited`: its stdio server exited (a stdio server lives as
 * long as the process that started it): the task went with it and cannot be read again.
 */
export type TaskRecordNote = 'unfollowed' | 'serverExited';

/** What a {@link TaskRecord.hostStart} may be: the decimal count the system gives, bounded. */
export const HOST_START_PATTERN = /^\d{1,20}$/;

/** The longest {@link TaskRecord.noteDetail} kept, characters. */
const MAX_NOTE_DETAIL_CHARS = 200;

/** One task a host started, as last read. */
export interface TaskRecord {
  /** The server's id of the task. */
  id: string;
  /** The display name of the server that runs it (with `id`, the record's key). */
  server: string;
  /** The tool it runs. */
  tool: string;
  era: Task['era'];
  status: Task['status'];
  statusMessage?: string;
  /** The task's time to live, ms; `null` or absent: none given. */
  ttlMs?: number | null;
  /** When the host saw the task created, ms since the epoch (its time to live counts from it). */
  createdAt: number;
  /** When its status was last read, ms since the epoch. */
  updatedAt: number;
  /** How the host reaches its server, when known: a task of a `stdio` server lives only as long as that server's process. */
  transport?: 'stdio' | 'http';
  /** For a task of a `stdio` server: the id of the process that ran that server (once it is gone, so is the task). */
  hostPid?: number;
  /**
   * When that process started, as the system counts it (Linux: the start time of `/proc/<pid>/stat`,
   * in clock ticks since boot): a later process given the same id is not it. Absent where unknown.
   */
  hostStart?: string;
  /** The host's word beside {@link status}; absent while the status read is all there is to say. */
  note?: TaskRecordNote;
  /** What ended the follow, for `unfollowed` (host text, e.g. `Ctrl-C; tasks/cancel was sent`). */
  noteDetail?: string;
}

/** Where a task's server runs, as {@link TaskRecords.record} keeps it. */
export interface TaskRecordPlace {
  transport?: 'stdio' | 'http';
  /** The process that runs a stdio server (its tasks end with it). */
  hostPid?: number;
  /** When that process started ({@link TaskRecord.hostStart}). */
  hostStart?: string;
  /** The task was just created: a record of the same key (an id a new server process gave again) is replaced, not updated. */
  created?: boolean;
}

/**
 * Where the records are kept: read before each change and each listing (another process may have
 * written since: two CLIs at once keep each other's records), written whole on each change (at most
 * {@link MAX_TASK_RECORDS}).
 */
export interface TaskRecordStorage {
  /** What was last written, or `undefined` (anything else is dropped record by record). */
  read(): unknown;
  write(records: TaskRecord[]): void | PromiseLike<void>;
}

/** The stored text of a record, bounded (a stored file may hold anything). */
function readRecord(raw: unknown): TaskRecord | undefined {
  if (!isPlainObject(raw)) return undefined;
  const { id, server, tool, era, status, statusMessage, ttlMs, createdAt, updatedAt, transport, hostPid, hostStart, note, noteDetail } =
    raw;
  if (typeof id !== 'string' || !id || id.length > 500 || typeof server !== 'string' || typeof tool !== 'string') return undefined;
  if (era !== 'modern' && era !== 'legacy') return undefined;
  if (typeof status !== 'string' || (status !== 'created' && !(TASK_STATUSES as readonly string[]).includes(status))) return undefined;
  if (typeof createdAt !== 'number' || typeof updatedAt !== 'number') return undefined;
  return {
    id,
    server: server.slice(0, 200),
    tool: tool.slice(0, 200),
    era,
    status: status as Task['status'],
    ...(typeof statusMessage === 'string' ? { statusMessage: statusMessage.slice(0, 500) } : {}),
    ...(typeof ttlMs === 'number' && ttlMs >= 0 ? { ttlMs } : {}),
    createdAt,
    updatedAt,
    ...(transport === 'stdio' || transport === 'http' ? { transport } : {}),
    ...(typeof hostPid === 'number' && Number.isSafeInteger(hostPid) && hostPid > 0 ? { hostPid } : {}),
    ...(typeof hostStart === 'string' && HOST_START_PATTERN.test(hostStart) ? { hostStart } : {}),
    ...(note === 'unfollowed' || note === 'serverExited' ? { note } : {}),
    ...(typeof noteDetail === 'string' ? { noteDetail: noteDetail.slice(0, MAX_NOTE_DETAIL_CHARS) } : {}),
  };
}

/** True when a record's task may be gone from its server (its time to live is over) at `now`. */
export function isExpired(record: TaskRecord, now: number): boolean {
  const keep = typeof record.ttlMs === 'number' ? record.ttlMs : UNBOUNDED_TASK_KEPT_MS;
  return record.createdAt + keep <= now;
}

/** The tasks a host started, newest first, bounded and expired by their time to live. */
export class TaskRecords {
  private records: TaskRecord[];
  private readonly listeners = new Set<() => void>();

  /** @param now the clock, ms since the epoch (tests give their own) */
  constructor(
    private readonly storage: TaskRecordStorage,
    private readonly now: () => number = Date.now,
  ) {
    this.records = [];
    this.reload();
  }

  /** Take what the storage holds now; one it cannot read leaves the records as they are. */
  private reload(): void {
    const stored = this.storage.read();
    if (Array.isArray(stored))
      this.records = stored
        .slice(0, MAX_TASK_RECORDS)
        .map(readRecord)
        .filter((r) => !!r);
  }

  /** The records whose time to live is not over, newest first (expired ones are dropped from storage). */
  list(): TaskRecord[] {
    this.reload();
    const now = this.now();
    const live = this.records.filter((r) => !isExpired(r, now));
    if (live.length !== this.records.length) {
      this.records = live;
      this.save();
    }
    return [...live];
  }

  /** The record of task `id` on `server`, if kept and not expired. */
  get(server: string, id: string): TaskRecord | undefined {
    return this.list().find((r) => r.server === server && r.id === id);
  }

  /**
   * Keep a task as read now: a new one first in the list, a known one updated in place (an `unfollowed`
   * note kept while the task has not ended: a status read by `tasks get` does not follow it).
   * @param tool the tool it runs (a known record keeps its own)
   * @param place where its server runs (a known record keeps its own when not given)
   */
  record(task: Task, tool: string, place: TaskRecordPlace = {}): void {
    this.reload();
    const now = this.now();
    const found = this.records.find((r) => r.server === task.server && r.id === task.id);
    const known = place.created ? undefined : found;
    const transport = place.transport ?? known?.transport;
    const hostPid = place.hostPid ?? known?.hostPid;
    const hostStart = place.hostPid !== undefined ? place.hostStart : known?.hostStart;
    const next: TaskRecord = {
      id: task.id,
      server: task.server,
      tool: known?.tool ?? tool,
      era: task.era,
      status: task.status,
      ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
      ...(typeof task.ttlMs === 'number' ? { ttlMs: task.ttlMs } : known?.ttlMs != null ? { ttlMs: known.ttlMs } : {}),
      createdAt: known?.createdAt ?? now,
      updatedAt: now,
      ...(transport ? { transport } : {}),
      ...(hostPid !== undefined ? { hostPid } : {}),
      ...(hostStart !== undefined ? { hostStart } : {}),
      // A task its server just answered for did not go with a stdio server; one still running is still not followed.
      ...(known?.note === 'unfollowed' && !isTerminal(task.status)
        ? { note: known.note, ...(known.noteDetail ? { noteDetail: known.noteDetail } : {}) }
        : {}),
    };
    // Bounded as it would be read back: a record the storage could not give back (an id of over 500
    // characters) is not kept, and no text of it can make the storage too large to read.
    const bounded = readRecord(next);
    if (!bounded) return;
    this.records = known
      ? this.records.map((r) => (r === known ? bounded : r))
      : [bounded, ...this.records.filter((r) => r !== found)].slice(0, MAX_TASK_RECORDS);
    this.save();
  }

  /**
   * Say (or, with `undefined`, stop saying) something of a kept task beside its status: nothing for an
   * unknown task or one that has ended (its status says it all).
   * @param detail for `unfollowed`: what ended the follow (host text, cut to 200 characters)
   */
  note(server: string, id: string, note: TaskRecordNote | undefined, detail?: string): void {
    this.reload();
    const known = this.records.find((r) => r.server === server && r.id === id);
    if (!known || (note && isTerminal(known.status)) || (known.note === note && (!note || known.noteDetail === detail))) return;
    const { note: _note, noteDetail: _detail, ...rest } = known;
    const next: TaskRecord = {
      ...rest,
      ...(note ? { note, ...(detail ? { noteDetail: detail.slice(0, MAX_NOTE_DETAIL_CHARS) } : {}) } : {}),
    };
    this.records = this.records.map((r) => (r === known ? next : r));
    this.save();
  }

  /**
   * Mark `serverExited` each task of a stdio server that has not ended whose host process is gone: its
   * server went with that process, and the task with its server.
   * @param hostAlive whether process `pid` still runs and, when `start` is given, is the one that started then
   */
  settle(hostAlive: (pid: number, start?: string) => boolean): void {
    this.reload();
    let changed = false;
    this.records = this.records.map((r) => {
      if (r.transport !== 'stdio' || r.hostPid === undefined || r.note === 'serverExited' || isTerminal(r.status)) return r;
      if (hostAlive(r.hostPid, r.hostStart)) return r;
      changed = true;
      const { noteDetail: _detail, ...rest } = r;
      return { ...rest, note: 'serverExited' };
    });
    if (changed) this.save();
  }

  /** Forget a task (the person removed it). */
  remove(server: string, id: string): void {
    this.reload();
    const before = this.records.length;
    this.records = this.records.filter((r) => !(r.server === server && r.id === id));
    if (this.records.length !== before) this.save();
  }

  /** Told after each change. @returns a function that stops telling */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private save(): void {
    void Promise.resolve(this.storage.write([...this.records])).catch(() => {});
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        /* a broken listener never breaks a call */
      }
    }
  }
}
