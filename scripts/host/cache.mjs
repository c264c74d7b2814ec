// The project's install cache, shared by every script that installs something outside node_modules
// (Node 24, code-server, the conformance suite): where it is, how a finished install is marked, and the lock
// that keeps two processes (say two test runs) from installing into the same folder at once.
//
// Cache: $MCP_ROUNDTRIP_CACHE, else ~/.cache/mcp-roundtrip/. Each install lives in its own folder with a
// `.complete.json` marker written only after the install (and a check of its result) succeeded, so that a
// folder left behind by a killed or failed install is removed and done again on the next run.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const MARKER = '.complete.json';

/** The cache folder: $MCP_ROUNDTRIP_CACHE, else ~/.cache/mcp-roundtrip (absolute). */
export function cacheDir() {
  return path.resolve(process.env.MCP_ROUNDTRIP_CACHE || path.join(os.homedir(), '.cache', 'mcp-roundtrip'));
}

/** The marker of a finished install in `dir`, or undefined when there is none (or it is unreadable). */
export function readMarker(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, MARKER), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Marks `dir` as a finished install; write-then-rename, so a marker is either absent or complete. */
export function writeMarker(dir, data) {
  const tmp = path.join(dir, `${MARKER}.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify({ ...data, installedAt: new Date().toISOString() }, null, 2));
  renameSync(tmp, path.join(dir, MARKER));
}

/** Whether a process (or, with a negative id, a process group) exists. */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The lock file holds JSON { pid, groups: [process group ids of the install commands started under it] }.
// A lock whose owner died (say it was SIGKILLed) is taken over, and the install commands it had started, which
// run in their own process groups and so outlive it, are killed first so that they can't write into a folder
// that the new owner is about to remove and install again.
let currentLock;

function readLock(lock) {
  try {
    const data = JSON.parse(readFileSync(lock, 'utf8'));
    return { pid: Number(data.pid) || 0, groups: Array.isArray(data.groups) ? data.groups.map(Number) : [] };
  } catch {
    return undefined;
  }
}

/** Records a process group started under the lock this process holds (a no-op without one). */
export function recordGroup(pgid) {
  if (!currentLock || !Number.isInteger(pgid) || pgid <= 1) return;
  const data = readLock(currentLock) ?? { pid: process.pid, groups: [] };
  data.groups.push(pgid);
  writeFileSync(currentLock, JSON.stringify(data));
}

async function killGroups(all, log) {
  const groups = all.filter((g) => Number.isInteger(g) && g > 1); // never -0 or -1: that would be us, or everyone
  for (const g of groups) {
    try {
      process.kill(-g, 'SIGKILL');
      log(`killed install commands left running by a killed install (process group ${g})`);
    } catch {}
  }
  const deadline = Date.now() + 10_000;
  while (groups.some((g) => alive(-g)) && Date.now() < deadline) await sleep(100);
}

/**
 * Runs `fn` holding the lock file `lock` (created with its folder). A lock whose owner is dead is taken
 * over after killing the install commands it had recorded.
 * @template T
 * @param {string} lock path of the lock file
 * @param {() => Promise<T>} fn
 * @param {{ waitMs?: number, log?: (msg: string) => void }} [options] waitMs: how long to wait for a live
 *   owner (default 15 min); log: progress lines
 * @returns {Promise<T>}
 * @throws Error when the lock cannot be created, or a live owner holds it past `waitMs`
 */
export async function withLock(lock, fn, { waitMs = 15 * 60_000, log = () => {} } = {}) {
  mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + waitMs;
  let announced = false;
  for (;;) {
    try {
      writeFileSync(lock, JSON.stringify({ pid: process.pid, groups: [] }), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw new Error(`cannot create ${lock}: ${e.message}`);
      const held = readLock(lock);
      if (!held) {
        // Being written this very moment, or left empty by a crash: give it a moment before taking it over.
        let age = 0;
        try {
          age = Date.now() - statSync(lock).mtimeMs;
        } catch {}
        if (age > 5000) rmSync(lock, { force: true });
        else await sleep(200);
        continue;
      }
      if (held.pid <= 0 || (held.pid !== process.pid && !alive(held.pid))) {
        await killGroups(held.groups, log);
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lock} is still held by process ${held.pid}`);
      if (!announced) {
        log(`waiting for another install (process ${held.pid}) to finish...`);
        announced = true;
      }
      await sleep(500);
    }
  }
  const outer = currentLock;
  currentLock = lock;
  try {
    return await fn();
  } finally {
    currentLock = outer;
    rmSync(lock, { force: true });
  }
}
