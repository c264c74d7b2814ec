/**
 * The CLI's side of tasks: the status lines it writes on stderr, the lines of `tasks list`, and what its
 * task file says of the tasks one run followed once the run lets go of them. Whether `call` asks for a
 * task is the core's (`core/tasks/toolTasks.ts`).
 */
import { readFileSync } from 'node:fs';
import type { ServerConnection } from '../core/connection/serverConnection';
import type { ServerSpec } from '../core/connection/serverSpec';
import { isTerminal, type Task } from '../core/tasks/task';
import { CANCEL_GRACE_MS, fetchTask } from '../core/tasks/taskCall';
import { HOST_START_PATTERN, type TaskRecord, type TaskRecords } from '../core/tasks/taskRecords';
import { errorMessage, isHostError } from '../core/util/errors';
import { oneLine } from '../core/util/shownText';
import { cliText, NOTE_TEXTS, noteDetail, noteText } from './messages';

/** A task's status as one stderr line: `task <id>: working — <message>` (server text on one line). */
export function taskLine(task: Task): string {
  const message = task.statusMessage ? ` — ${oneLine(task.statusMessage, 500)}` : '';
  return `task ${oneLine(task.id, 200)}: ${task.status}${message}`;
}

/**
 * One kept task as a line of `tasks list`: `<id>  <server>  <tool>  <status>[ — message]`, server text on
 * one line; a task whose stdio server exited `ended: its stdio server exited (last read: <status>)`, one
 * no process follows any more `<status> (not followed: <why> — …how to re-check it)`.
 */
export function taskListLine(r: TaskRecord): string {
  const id = oneLine(r.id, 200);
  const head = `${id}  ${oneLine(r.server, 100)}  ${oneLine(r.tool, 100)}  `;
  const status = `${r.status}${r.statusMessage ? ` — ${oneLine(r.statusMessage, 200)}` : ''}`;
  if (r.note === 'serverExited') return head + cliText('ended: its stdio server exited (last read: {0})', status);
  if (r.note === 'unfollowed')
    return (
      head +
      (r.noteDetail
        ? cliText(
            '{0} (not followed: {1} — the server may still run it: tasks get {2} re-checks it, tasks result {2} resumes it, against the same server)',
            status,
            oneLine(noteText(r.noteDetail), 200),
            id,
          )
        : cliText(
            '{0} (not followed — the server may still run it: tasks get {1} re-checks it, tasks result {1} resumes it, against the same server)',
            status,
            id,
          ))
    );
  return `${head}${status}`;
}

/**
 * When process `pid` started, as Linux counts it (field 22 of `/proc/<pid>/stat`, clock ticks since
 * boot); `undefined` where the system does not say (no `/proc`) or the process is gone.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')'.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
    return HOST_START_PATTERN.test(start) ? start : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True while process `pid` exists (signal 0 probes it; a process of another user exists too) and, when
 * `start` is given and the system tells, started then: the id of a process that is gone may be given again.
 */
export function processAlive(pid: number, start?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = start === undefined ? undefined : processStart(pid);
  return now === undefined || now === start;
}

/**
 * The tasks one CLI run follows (`call`, `tasks get|result`), kept in the task file with where their
 * server runs, and what the file says of them once the run lets go: a stdio server's task ends with the
 * server the CLI stops as it exits (`serverExited`); an HTTP server's task whose follow stopped before it
 * ended (Ctrl-C, the time limit, a failure) is read once more and, still running, kept `unfollowed`.
 */
export class FollowedTasks {
  private readonly seen = new Map<string, { task: Task; tool: string }>();

  /**
   * @param records the task file's records
   * @param transport how the CLI reaches the server (a stdio server runs as this process's child)
   */
  constructor(
    private readonly records: TaskRecords,
    private readonly transport: ServerSpec['transport'],
  ) {}

  /**
   * Keep a task as read now.
   * @param created this run's `call` created it (a record of the same id, left by another server process, is replaced)
   */
  keep(task: Task, tool: string, created = false): void {
    const first = !this.seen.has(task.id);
    this.seen.set(task.id, { task, tool });
    const place =
      this.transport === 'stdio'
        ? { transport: 'stdio' as const, hostPid: process.pid, hostStart: processStart(process.pid) }
        : this.transport === 'http'
          ? { transport: 'http' as const }
          : {};
    this.records.record(task, tool, { ...place, created: created && first });
  }

  /** This run follows a kept task again (`tasks result`): nothing more to say of it than its status. */
  follows(task: Task): void {
    this.records.note(task.server, task.id, undefined);
  }

  /**
   * The run's follow ended with `error` before its task did. An HTTP server's task is read once more
   * (a second try when the first read fails: a Ctrl-C can cut the poll in flight), each within
   * {@link CANCEL_GRACE_MS}: the follow may have sent `tasks/cancel` (Ctrl-C, the time limit, an answer
   * missing), and the server may have cancelled or finished it; one still running is kept `unfollowed`.
   * A stdio server's task is left to {@link serverStopped}. Never throws.
   * @param killSignal a second Ctrl-C: no more reading
   * @returns the lines for stderr
   */
  async stoppedFollowing(conn: ServerConnection, error: unknown, killSignal?: AbortSignal): Promise<string[]> {
    if (this.transport !== 'http') return [];
    const lines: string[] = [];
    const why = isHostError(error, 'cancelled')
      ? noteDetail(NOTE_TEXTS.interrupted)
      : isHostError(error, 'timeLimit')
        ? noteDetail(NOTE_TEXTS.timeLimit)
        : noteDetail(NOTE_TEXTS.callEnded, oneLine(errorMessage(error), 200));
    const readAgain = (id: string) => fetchTask(conn, id, { signal: killSignal, timeoutMs: CANCEL_GRACE_MS });
    for (const { task, tool } of this.seen.values()) {
      if (isTerminal(task.status)) continue;
      let now = task;
      if (!killSignal?.aborted) {
        const read = await readAgain(task.id).catch(() => (killSignal?.aborted ? undefined : readAgain(task.id).catch(() => undefined)));
        if (read) {
          now = read.task;
          this.keep(now, tool);
          if (now.status !== task.status) lines.push(taskLine(now));
        }
      }
      if (isTerminal(now.status)) continue;
      this.records.note(now.server, now.id, 'unfollowed', why);
      lines.push(
        cliText(
          'task {0}: {1}, not followed any more ({2}); the server may still run it: tasks get or tasks result {0} against the same server',
          oneLine(now.id, 200),
          now.status,
          noteText(why),
        ),
      );
    }
    return lines;
  }

  /**
   * The run stopped its stdio server (it does as it exits): each task of it that had not ended went with
   * it, and is kept `serverExited`.
   * @returns the lines for stderr
   */
  serverStopped(): string[] {
    if (this.transport !== 'stdio') return [];
    const lines: string[] = [];
    for (const { task } of this.seen.values()) {
      if (isTerminal(task.status)) continue;
      this.records.note(task.server, task.id, 'serverExited');
      lines.push(cliText('task {0}: ended with its stdio server, which the CLI stops as it exits', oneLine(task.id, 200)));
    }
    return lines;
  }
}
