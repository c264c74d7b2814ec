/**
 * The CLI's side of tasks: the status lines it writes on stderr. Whether `call` asks for a task is the
 * core's (`core/tasks/toolTasks.ts`).
 */
import type { Task } from '../core/tasks/task';
import { oneLine } from '../core/util/shownText';

/** A task's status as one stderr line: `task <id>: working — <message>` (server text on one line). */
export function taskLine(task: Task): string {
  const message = task.statusMessage ? ` — ${oneLine(task.statusMessage, 500)}` : '';
  return `task ${oneLine(task.id, 200)}: ${task.status}${message}`;
}
