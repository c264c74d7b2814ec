// A task waiting on its server (`taskIdleCpuMsPerMinute`): our CLI follows a task of the tasks
// fixture (test/fixtures/tasksServer.ts, NEVER_ENDS=1: it stays `working`) with a poll interval of
// POLL_MS, and the bench reads how much CPU the CLI's process spends over an idle window, and how many
// `tasks/get` requests it wrote meanwhile (the fixture's RECORD_FILE): one per poll interval, and no
// CPU between. The CPU is read by the process itself on SIGUSR2 (cpuOnSignal.cjs), at the window's
// two ends only. Run by test/bench/run.mjs, or alone:
//
//   node test/bench/taskIdle.mjs [--seconds 60] [--poll-ms 1000]   (after npm run build; prints JSON)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { COLD_ENV } from './peers.mjs';
import { r1, r3 } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');

const lines = (file) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
const taskGets = (file) => lines(file).filter((l) => l.includes('"method":"tasks/get"')).length;

/** Polls `check` every 50 ms until it holds or `ms` pass; throws then. */
async function until(check, ms, what) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms / 1000} s`);
    await sleep(50);
  }
}

export async function taskIdle({ seconds = 60, pollMs = 1000, say = () => {} } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-task-idle-'));
  const record = path.join(dir, 'record.txt');
  const cpuFile = path.join(dir, 'cpu.jsonl');
  const answers = path.join(dir, 'answers.json');
  writeFileSync(answers, JSON.stringify({ who: { action: 'accept', content: { name: 'bench' } } }));
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const server = `"${tsx}" "${path.join(root, 'test', 'fixtures', 'tasksServer.ts')}"`;
  const env = {
    ...COLD_ENV,
    NEVER_ENDS: '1',
    POLL_MS: String(pollMs),
    RECORD_FILE: record,
    NODE_OPTIONS: `${COLD_ENV.NODE_OPTIONS ?? ''} --require ${JSON.stringify(path.join(here, 'cpuOnSignal.cjs'))}`.trim(),
    MCP_ROUNDTRIP_BENCH_CPU_FILE: cpuFile,
  };
  say(`a task waiting on its server: ${seconds} s idle, poll interval ${pollMs} ms`);
  const child = spawn(process.execPath, [path.join(root, 'dist', 'cli.js'), '--stdio', server, 'call', 'research', '--answers', answers], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const sample = async () => {
    const before = lines(cpuFile).length;
    child.kill('SIGUSR2');
    await until(() => lines(cpuFile).length > before, 10_000, 'a CPU sample');
    return { ...JSON.parse(lines(cpuFile)[before]), gets: taskGets(record) };
  };
  try {
    // Idle from the second tasks/get on: the call, its round and the task's creation are behind it.
    await until(() => taskGets(record) >= 2, 60_000, `the task's second tasks/get (stderr: ${err.slice(-300)})`);
    const a = await sample();
    await sleep(seconds * 1000);
    const b = await sample();
    const minutes = (b.at - a.at) / 60_000;
    const cpuMs = (b.user + b.system - a.user - a.system) / 1000;
    const gets = b.gets - a.gets;
    const intervals = (b.at - a.at) / pollMs;
    return {
      seconds: r1((b.at - a.at) / 1000),
      pollMs,
      cpuMs: r1(cpuMs),
      cpuMsPerMinute: r1(cpuMs / minutes),
      taskGets: gets,
      requestsPerPollInterval: r3(gets / intervals),
      cpuMsPerRequest: gets ? r3(cpuMs / gets) : null,
      loadAvg: os.loadavg().map((l) => r1(l)),
    };
  } finally {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
  taskIdle({ seconds: arg('--seconds', 60), pollMs: arg('--poll-ms', 1000), say: (t) => process.stderr.write(`[bench] ${t}\n`) }).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(`[bench] task idle failed: ${e.stack ?? e}`);
      process.exit(1);
    },
  );
}
