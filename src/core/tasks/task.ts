/**
 * One model of a task for both eras: a tool call the server runs in the background, which the host
 * follows by its id until a terminal status. Its life: created → working → input_required ⇄ working →
 * completed | failed | cancelled. Also which tools are called as tasks (`execution.taskSupport` and the
 * setting `mcpRoundtrip.tasks.use`).
 *
 * Spec: MCP 2025-11-25 "Tasks" (`CreateTaskResult.task`, `tasks/get`: `ttl`, `pollInterval`) and the
 * 2026-07-28 `io.modelcontextprotocol/tasks` extension (`resultType: "task"`, `ttlMs`, `pollIntervalMs`).
 */
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';

/** The name of the 2026-07-28 tasks extension, declared per request. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A status the server gives a task (both eras name the same five). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** Every status the spec names. */
export const TASK_STATUSES: readonly TaskStatus[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

/** The statuses a task never leaves. */
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** The longest status message kept, characters (a server's text, shown on one line). */
export const MAX_STATUS_MESSAGE_CHARS = 500;

/** A task as the host knows it. */
export interface Task {
  /** The server's id of the task. */
  id: string;
  /** The display name of the server that runs it. */
  server: string;
  /** Which wire the task speaks: `modern` (2026-07-28 extension) or `legacy` (2025-11-25). */
  era: 'modern' | 'legacy';
  /** `created` until the first status read after creation; then the server's. */
  status: TaskStatus | 'created';
  /** The server's word on what the task is doing, cut to {@link MAX_STATUS_MESSAGE_CHARS}. */
  statusMessage?: string;
  /** How often the server wants to be polled, ms (it may change on each read). */
  pollIntervalMs?: number;
  /** How long the server keeps the task after its creation, ms; `null` for no limit. */
  ttlMs?: number | null;
  /** When the server created it (ISO 8601), when it says. */
  createdAt?: string;
}

/** True for a status the task never leaves. */
export function isTerminal(status: Task['status']): boolean {
  return TERMINAL.has(status);
}

/**
 * Read a task from a server's answer: a created task (2026: the `tools/call` result itself; 2025: its
 * `task` member) or a `tasks/get` result (the task's fields at the top in both eras).
 * @param raw the raw result
 * @param previous the task as known before this read (its id must match; `created` stays until a status comes)
 * @throws HostError `protocol` naming the fault: no task id, a status the spec does not name, a poll
 *   interval or time to live that is not a number ≥ 0, another task's id
 */
export function readTask(raw: Record<string, unknown>, era: Task['era'], server: string, previous?: Task): Task {
  const fields = era === 'legacy' && isPlainObject(raw.task) ? raw.task : raw;
  const bad = (why: string) => new HostError('protocol', `${server} sent an invalid task${previous ? ` for ${previous.id}` : ''}: ${why}`);
  const id = fields.taskId;
  if (typeof id !== 'string' || id === '') throw bad('taskId must be a non-empty string');
  if (previous && id !== previous.id) throw bad(`it names task ${JSON.stringify(id.slice(0, 80))} instead`);
  const status = fields.status;
  if (typeof status !== 'string' || !(TASK_STATUSES as readonly string[]).includes(status))
    throw bad(`status ${JSON.stringify(status)} is none the spec names (${TASK_STATUSES.join(', ')})`);
  const poll = era === 'modern' ? fields.pollIntervalMs : (fields.pollIntervalMs ?? fields.pollInterval);
  if (poll !== undefined && poll !== null && (typeof poll !== 'number' || !Number.isFinite(poll) || poll < 0))
    throw bad(`the poll interval must be a number of ms ≥ 0, got ${JSON.stringify(poll)}`);
  const ttl = era === 'modern' ? fields.ttlMs : (fields.ttlMs ?? fields.ttl);
  if (ttl !== undefined && ttl !== null && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0))
    throw bad(`the time to live must be a number of ms ≥ 0 or null, got ${JSON.stringify(ttl)}`);
  const message = typeof fields.statusMessage === 'string' ? fields.statusMessage.slice(0, MAX_STATUS_MESSAGE_CHARS) : undefined;
  const createdAt = typeof fields.createdAt === 'string' ? fields.createdAt.slice(0, 64) : previous?.createdAt;
  return {
    id,
    server,
    era,
    status: status as TaskStatus,
    ...(message !== undefined ? { statusMessage: message } : {}),
    ...(typeof poll === 'number'
      ? { pollIntervalMs: poll }
      : previous?.pollIntervalMs !== undefined
        ? { pollIntervalMs: previous.pollIntervalMs }
        : {}),
    ...(ttl === null || typeof ttl === 'number' ? { ttlMs: ttl } : previous?.ttlMs !== undefined ? { ttlMs: previous.ttlMs } : {}),
    ...(createdAt !== undefined ? { createdAt } : {}),
  };
}

/** A tool's `execution.taskSupport`: `required`, `optional`, or `forbidden` (also when absent). */
export type TaskSupport = 'required' | 'optional' | 'forbidden';

/** The `execution.taskSupport` a listed tool declares (`forbidden` when it declares none or another value). */
export function taskSupportOf(tool: unknown): TaskSupport {
  const execution = isPlainObject(tool) ? tool.execution : undefined;
  const support = isPlainObject(execution) ? execution.taskSupport : undefined;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}

/** The setting `mcpRoundtrip.tasks.use`: when a tool that accepts tasks is called as one. */
export type TaskUse = 'whenRequired' | 'whenSupported' | 'never';

/** Every value of {@link TaskUse}, the default first. */
export const TASK_USES: readonly TaskUse[] = ['whenRequired', 'whenSupported', 'never'];

/**
 * Whether a tool is called as a task: always when it requires it; when it accepts it and `use` is
 * `whenSupported`; never otherwise (`use: "never"` leaves a required one to fail as the server says).
 * On a 2026-07-28 connection the server decides instead: the host declares the extension unless `use` is `never`.
 */
export function callsAsTask(support: TaskSupport, use: TaskUse = 'whenRequired'): boolean {
  if (use === 'never' || support === 'forbidden') return false;
  return support === 'required' || use === 'whenSupported';
}

/** The listing's mark of a tool that needs or accepts tasks (`[task: required]`), `''` for one that does not. */
export function taskMark(tool: unknown): string {
  const support = taskSupportOf(tool);
  return support === 'forbidden' ? '' : `[task: ${support}]`;
}
