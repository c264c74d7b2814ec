/**
 * The tasks this CLI started, on disk so a later process can list them (`tasks list`) and fetch their
 * results (`tasks result <id>`): `tasks.json` in the CLI's config directory (`configDir`), mode 0600,
 * written atomically (a temporary file renamed over it), bounded and expired as `core/tasks/taskRecords.ts` says.
 * A file that is too large or not the JSON the CLI writes is read as empty (it holds no secret).
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { TaskRecords, type TaskRecord } from '../core/tasks/taskRecords';
import { configDir } from './oauthFileStore';

/** The largest task file read, bytes (100 records take far less). */
const MAX_TASK_FILE_BYTES = 1024 * 1024;

/** The file of the CLI's tasks. */
export function taskFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'tasks.json');
}

/** The CLI's task records, read from `file` now and written back whole on each change. */
export function cliTaskRecords(file: string = taskFile(), now?: () => number): TaskRecords {
  return new TaskRecords(
    {
      read() {
        try {
          if (statSync(file).size > MAX_TASK_FILE_BYTES) return undefined;
          const doc = JSON.parse(readFileSync(file, 'utf8')) as { tasks?: unknown };
          return doc?.tasks;
        } catch {
          return undefined;
        }
      },
      write(records: TaskRecord[]) {
        try {
          mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
          const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
          const fd = openSync(tmp, 'wx', 0o600);
          try {
            writeSync(fd, JSON.stringify({ version: 1, tasks: records }, null, 2) + '\n');
          } finally {
            closeSync(fd);
          }
          renameSync(tmp, file);
        } catch {
          // A task list that cannot be kept never fails the call that started the task.
        }
      },
    },
    now,
  );
}
