/**
 * The CLI's early `--stdio` server: started by the executable (`bin.ts`) before the host loads,
 * handed to the host's stdio transport (`core/transport/stdioTransport.ts`, `prestarted`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { OWN_PROCESS_GROUP } from '../core/transport/processGroup';
import type { PrestartedProcess } from '../core/transport/stdioTransport';
import { parseCli } from './args';

/**
 * The `--stdio` server of `argv`, spawned as the host's stdio transport would (the host's environment,
 * stdin/stdout/stderr piped); `undefined` for `--http`, `run` (its saved call names its server),
 * `tasks list` and `auth logout` (no server needed), a bad command line, a command whose start threw, or Windows (where the host resolves `.cmd` launchers itself and starts the server as usual).
 */
export function startStdioServer(argv: string[]): PrestartedProcess | undefined {
  if (process.platform === 'win32') return undefined;
  let parsed;
  try {
    parsed = parseCli(argv);
  } catch {
    return undefined;
  }
  // Commands that read only what this CLI keeps never start the server.
  const { server, command } = parsed;
  if (server?.transport !== 'stdio' || command.kind === 'tasksList' || command.kind === 'logout') return undefined;
  let child: ChildProcess;
  try {
    child = spawn(server.command, server.args ?? [], {
      env: { ...process.env, ...(server.env ?? {}) },
      cwd: server.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      detached: OWN_PROCESS_GROUP,
    });
  } catch {
    // Some failures (ENOTDIR, E2BIG) are thrown rather than emitted: the host starts the server
    // itself then, and its transport reports the failure.
    return undefined;
  }
  return prestarted(child);
}

/**
 * `child` as the host takes it: its start (or its spawn error) listened to at once, since a command
 * that cannot start fails before the host has loaded.
 */
export function prestarted(child: ChildProcess): PrestartedProcess {
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
  });
  spawned.catch(() => {});
  return { child, spawned };
}
