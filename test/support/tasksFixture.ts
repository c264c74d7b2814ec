/**
 * The tasks fixture (test/fixtures/tasksServer.ts) over Streamable HTTP, for tests whose server must
 * outlive the client (the CLI's `tasks result` from a new process, a VS Code window reloaded).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'tasksServer.ts');

/** A running HTTP tasks fixture. */
export interface TasksHttpFixture {
  /** Its MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  child: ChildProcess;
  /** What the host sent, in order: each message with the time it came (ms since the epoch). */
  sent(): { at: number; msg: any }[];
}

/**
 * Start the fixture over HTTP (2026-07-28, any free port), every message it gets appended to `record`.
 * @param env for the fixture (POLL_MS, NEVER_ENDS)
 * @returns once it listens; rejects if it exits first
 */
export function startTasksHttpFixture(record: string, env: Record<string, string> = {}): Promise<TasksHttpFixture> {
  const child = spawn(TSX, [FIXTURE, '--http', '0'], {
    env: { ...process.env, RECORD_FILE: record, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const sent = () =>
    readFileSync(record, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => ({ at: Number(l.slice(0, l.indexOf(' '))), msg: JSON.parse(l.slice(l.indexOf(' ') + 1)) }));
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (\d+)/.exec(err);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}/mcp`, child, sent });
    });
    child.on('exit', (code) => reject(new Error(`the tasks fixture exited (${code}): ${err}`)));
  });
}
