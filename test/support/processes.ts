/** Whether a process still exists, for tests that check a server does not outlive its host. */

/** True while process `pid` exists (signal 0 probes without touching it). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
