/**
 * A stdio server's processes: the server and what it starts, stopped together. Its own module so that
 * the CLI's small executable (`cli/bin.ts`) can start a server the same way without loading the host.
 */
import type { ChildProcess } from 'node:child_process';

/**
 * On POSIX a server gets a process group of its own, so that stopping it stops what it started too (a
 * `sh -c` or `npx` wrapper's child would otherwise outlive the host); the host's Ctrl-C is the host's to
 * handle (it cancels the call first). On Windows, where a detached child gets a console of its own, not.
 */
export const OWN_PROCESS_GROUP = process.platform !== 'win32';

/**
 * Send `signal` to the server and every process of its group ({@link OWN_PROCESS_GROUP}); to the
 * child alone where it has no group of its own (Windows, or a process started by someone else).
 */
export function signalProcessGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (OWN_PROCESS_GROUP && child.pid !== undefined) {
    try {
      process.kill(-child.pid, signal);
      return;
    } catch {
      // No such group (every process of it is gone, or the child leads none): the child alone.
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}
