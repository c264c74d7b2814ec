// A full MRTR call with one form round (the demo's book_table) by our CLI and by the MCP Inspector's
// `mcpdo`, alternated (run by test/bench/run.mjs, or alone). mcpdo answers an elicitation without a
// terminal: from a non-terminal shell its `tools/call` returns at once with an `elicitationPending`
// payload while its daemon keeps the call parked, and `mcpdo elicitation/respond <id> field:=value ...`
// answers the round and prints the result. So each of its calls is two processes, on a connection its
// daemon holds; ours is one cold process with the answer in an `--answers` file.
//
//   - ours, cold: node dist/cli.js --stdio "node dist/demo-server.js" call book_table --answers <file>
//   - mcpdo, warm: the connection made once (not timed), then `tools/call` + `elicitation/respond`
//   - mcpdo, cold: `connect` + `tools/call` + `elicitation/respond` + `disconnect`
//
// mcpdo runs with a HOME of its own (a temporary directory: its catalog, secrets and daemon socket
// never touch the user's) and its secrets in memory; its daemon is stopped at the end.
//
//   node test/bench/mcpdoPeer.mjs [--runs 6]   (after npm run build; prints JSON)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLD_ENV } from './peers.mjs';
import { median, medianCI, r1, r3 } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const DEMO = path.join(root, 'dist', 'demo-server.js');
const CONTENT = {
  date: '2027-01-05',
  email: 'guest@example.com',
  partySize: 2,
  outdoor: false,
  seating: 'window',
  time: '19:00',
  dietary: ['none'],
};
const BOOKED = /Table booked at Trattoria Demo for 2 on 2027-01-05/;

/** mcpdo's launcher and version, from its package (undefined when not installed). */
function mcpdoBin() {
  try {
    const require = createRequire(import.meta.url);
    const pkgPath = require.resolve('@modelcontextprotocol/inspector/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
    if (!pkg.bin?.mcpdo) return undefined;
    return { file: path.join(path.dirname(pkgPath), pkg.bin.mcpdo), version: pkg.version };
  } catch {
    return undefined;
  }
}

/** Runs one process to its exit; resolves to { ms, out }; rejects on a non-zero exit. */
function timed(argv, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0)
        reject(new Error(`${argv.slice(1, 3).join(' ')} exited ${code}: ${(err || out).trim().split('\n').slice(-2).join(' | ')}`));
      else resolve({ ms, out });
    });
  });
}

export async function mcpdoPeer({ runs = 6, say = () => {} } = {}) {
  const bin = mcpdoBin();
  if (!bin) return { reason: 'mcpdo is not installed (@modelcontextprotocol/inspector, npm ci)' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-mcpdo-'));
  const env = { ...COLD_ENV, HOME: dir, XDG_CONFIG_HOME: path.join(dir, '.config'), MCP_INSPECTOR_SECRET_STORE: 'memory' };
  const mcpdo = (...args) => timed([bin.file, ...args], env);
  const answers = path.join(dir, 'answers.json');
  writeFileSync(answers, JSON.stringify({ booking: { action: 'accept', content: CONTENT } }));
  const ours = () =>
    timed(
      [path.join(root, 'dist', 'cli.js'), '--stdio', `"${process.execPath}" "${DEMO}"`, 'call', 'book_table', '--answers', answers],
      COLD_ENV,
    );
  const fields = Object.entries(CONTENT).map(([k, v]) => `${k}:=${JSON.stringify(v)}`);
  const NAME = 'bench';
  const connect = () => mcpdo('connect', '--era', 'modern', '--server', NAME, '--', process.execPath, DEMO);
  /** tools/call (parked at its form round) then elicitation/respond: the result's text checked. */
  const call = async () => {
    const pending = await mcpdo(`@${NAME}`, 'tools/call', 'book_table', '--format', 'json');
    const id = JSON.parse(pending.out).elicitationPending?.elicitationId;
    if (!id) throw new Error(`mcpdo tools/call did not park at the form round: ${pending.out.slice(0, 200)}`);
    const done = await mcpdo('elicitation/respond', id, ...fields, '--format', 'json');
    if (!BOOKED.test(done.out)) throw new Error(`mcpdo's answer is not the booking: ${done.out.slice(0, 200)}`);
    return pending.ms + done.ms;
  };
  try {
    say(`MRTR call with one form round (book_table): ours and mcpdo ${bin.version}, ${runs} runs each, alternated`);
    const check = await ours();
    if (!BOOKED.test(check.out)) throw new Error(`our CLI's answer is not the booking: ${check.out.slice(0, 200)}`);
    await connect();
    await call(); // warm-up, not counted
    const wall = { ours: [], mcpdoWarm: [], mcpdoCold: [] };
    for (let i = 0; i < runs; i++) {
      wall.ours.push(r1((await ours()).ms));
      wall.mcpdoWarm.push(r1(await call()));
      await mcpdo('disconnect', NAME);
      const c = await connect();
      wall.mcpdoCold.push(r1(c.ms + (await call())));
    }
    const ratio = (a, b) => a.map((x, i) => r3(x / b[i]));
    const warm = ratio(wall.ours, wall.mcpdoWarm);
    const cold = ratio(wall.ours, wall.mcpdoCold);
    return {
      mcpdo: bin.version,
      runs,
      loadAvg: os.loadavg().map((l) => r1(l)),
      wallMs: Object.fromEntries(Object.entries(wall).map(([k, v]) => [k, { median: r1(median(v)), samples: v }])),
      oursOverMcpdoWarm: { median: r3(median(warm)), ci95: medianCI(warm) },
      oursOverMcpdoCold: { median: r3(median(cold)), ci95: medianCI(cold) },
    };
  } finally {
    await mcpdo('daemon', 'stop').catch(() => {});
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 6;
  mcpdoPeer({ runs, say: (t) => process.stderr.write(`[bench] ${t}\n`) }).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(`[bench] mcpdo peer failed: ${e.stack ?? e}`);
      process.exit(1);
    },
  );
}
