// Cold end-to-end calls of the demo's where_am_i and busy_report over stdio, from process start to
// exit, by our CLI and by its peers in the same run (run by test/bench/run.mjs, or alone):
//
//   - our CLI: node dist/cli.js --stdio "node dist/demo-server.js" call <tool> --roots <dir>
//   - the MCP Inspector CLI (@modelcontextprotocol/inspector, a devDependency at an exact version):
//     node <its launcher> --cli node dist/demo-server.js --protocol-era modern --method tools/call --tool-name <tool>
//   - a floor: the least any Node client can do (rawClient.mjs: spawn, three hand-written JSON-RPC
//     lines, exit), which tells how much of each wall time is the server's own start.
//
// Runs alternate in ABBA order so the machine's load falls on all alike; per pair the ratio
// ours/Inspector; the median of those ratios with its 95% interval. Peak RSS of each client's own
// process tree (the demo server's process apart, the same for all) from a --require hook that
// records process.resourceUsage().maxRSS at exit, in separate runs (the hook is not in the timed ones).
//
//   node test/bench/peers.mjs [--runs 12] [--rss-runs 3]   (after npm run build; prints JSON)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, medianCI, r1, r3 } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const DEMO = path.join(root, 'dist', 'demo-server.js');
const TOOLS = ['where_am_i', 'busy_report'];
/** What each tool's answer must contain, whoever printed it (our text, the Inspector's JSON). */
const EXPECTED = { where_am_i: /workspace root/, busy_report: /Report on weekly sales is ready/ };

/**
 * The environment of every cold run: this one without NODE_EXTRA_CA_CERTS. Set on some machines (on the
 * bench's, to the system's whole CA bundle), it makes each Node process read and parse that bundle as it
 * starts (60 ms of an 80 ms `node -e 0` there), and these calls use no TLS. The clients start servers
 * differently: ours passes its environment to the server, as VS Code does; the Inspector passes the
 * SDK's short list of safe variables, which drops it. Removed for all, each client's processes start as
 * on a machine without it, and the comparison is of the clients, not of that variable.
 */
export const COLD_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
/** What COLD_ENV left out of this environment (named in the report). */
const REMOVED_FROM_ENV = Object.keys(process.env).filter((k) => !(k in COLD_ENV));

/** The Inspector's launcher script, from its package.json `bin` (undefined when not installed). */
function inspectorBin() {
  try {
    const require = createRequire(import.meta.url);
    const pkgPath = require.resolve('@modelcontextprotocol/inspector/package.json');
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
    return { file: path.join(path.dirname(pkgPath), pkg.bin['mcp-inspector']), version: pkg.version };
  } catch {
    return undefined;
  }
}

/** The clients compared, as [name, argv builder]. */
function clients(rootsDir) {
  const insp = inspectorBin();
  const list = [
    {
      name: 'ours',
      version: JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version,
      argv: (tool) => [path.join(root, 'dist', 'cli.js'), '--stdio', `"${process.execPath}" "${DEMO}"`, 'call', tool, '--roots', rootsDir],
    },
    { name: 'floor', version: '-', argv: (tool) => [path.join(here, 'rawClient.mjs'), DEMO, tool, rootsDir] },
  ];
  if (insp)
    list.splice(1, 0, {
      name: 'inspector',
      version: insp.version,
      argv: (tool) => [
        insp.file,
        '--cli',
        process.execPath,
        DEMO,
        '--protocol-era',
        'modern',
        '--method',
        'tools/call',
        '--tool-name',
        tool,
      ],
    });
  return list;
}

/** One cold run: wall ms from spawn to exit; throws when it fails or prints no answer. */
function once(argv, tool, env = COLD_ENV) {
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
      if (code !== 0 || !EXPECTED[tool].test(out))
        reject(new Error(`${path.basename(argv[0])} ${tool} exited ${code}: ${(err || out).trim().split('\n').slice(-2).join(' | ')}`));
      else resolve(ms);
    });
  });
}

/** The stamps of test/bench/coldStamps.cjs, in the order a cold call passes them (ms since the CLI process started). */
const STAMPS = ['hookLoaded', 'serverSpawned', 'bundleLoaded', 'configurationRead', 'firstByteWritten', 'resultPrinted', 'exit'];

/** One run of our CLI with the stamps hook (not a timed run): where its time went. */
async function stampsOf(c, tool, dir, i) {
  const file = path.join(dir, `stamps-${tool}-${i}.jsonl`);
  const hook = path.join(here, 'coldStamps.cjs');
  const env = {
    ...COLD_ENV,
    NODE_OPTIONS: `${COLD_ENV.NODE_OPTIONS ?? ''} --require ${JSON.stringify(hook)}`.trim(),
    MCP_ROUNDTRIP_BENCH_STAMPS_FILE: file,
  };
  await once(c.argv(tool), tool, env);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) : {};
}

/** Peak RSS (KB) of each process of one run, by the hook's records: the client's tree and the server. */
async function peakRss(c, tool, dir, i) {
  const file = path.join(dir, `rss-${c.name}-${tool}-${i}.jsonl`);
  const hook = path.join(here, 'peakRss.cjs');
  const env = {
    ...COLD_ENV,
    NODE_OPTIONS: `${COLD_ENV.NODE_OPTIONS ?? ''} --require ${JSON.stringify(hook)}`.trim(),
    MCP_ROUNDTRIP_BENCH_RSS_FILE: file,
  };
  await once(c.argv(tool), tool, env);
  const records = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
  // The server is the process whose script is the demo (a client may name it among its arguments).
  const isServer = (r) => (r.argv[0] ?? '').endsWith('demo-server.js');
  return {
    clientKB: records.filter((r) => !isServer(r)).reduce((n, r) => n + r.maxRssKB, 0),
    serverKB: Math.max(0, ...records.filter(isServer).map((r) => r.maxRssKB)),
    processes: records.length,
  };
}

export async function peers({ runs = 12, rssRuns = 3, say = () => {} } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-peers-'));
  try {
    const list = clients(dir);
    const report = {
      clients: Object.fromEntries(list.map((c) => [c.name, { version: c.version }])),
      removedFromEnvironment: REMOVED_FROM_ENV,
      inspector: list.some((c) => c.name === 'inspector') ? 'present' : 'not installed (npm ci)',
      tools: {},
    };
    for (const tool of TOOLS) {
      say(`cold CLI calls: ${tool}, ${runs} runs per client, alternated`);
      // One warm-up run each (file cache), not counted.
      for (const c of list) await once(c.argv(tool), tool);
      const wall = Object.fromEntries(list.map((c) => [c.name, []]));
      const ratios = [];
      const floorRatios = [];
      const toFloor = [];
      const loadAvg = os.loadavg().map((l) => r1(l));
      for (let i = 0; i < runs; i++) {
        const order = i % 2 === 0 ? list : [...list].reverse();
        const got = {};
        for (const c of order) got[c.name] = await once(c.argv(tool), tool);
        for (const c of list) wall[c.name].push(r1(got[c.name]));
        if (got.inspector) ratios.push(r3(got.ours / got.inspector));
        toFloor.push(r3(got.ours / got.floor));
        // Time each client adds to the floor's (the server's own start and answers).
        if (got.inspector) floorRatios.push(r3((got.ours - got.floor) / (got.inspector - got.floor)));
      }
      const rss = {};
      for (const c of list) {
        const samples = [];
        for (let i = 0; i < rssRuns; i++) samples.push(await peakRss(c, tool, dir, i));
        rss[c.name] = {
          clientPeakKB: median(samples.map((s) => s.clientKB)),
          serverPeakKB: median(samples.map((s) => s.serverKB)),
          processes: samples[0].processes,
        };
      }
      // Where our call's time goes, from runs with the stamps hook (apart from the timed ones).
      const ours = list.find((c) => c.name === 'ours');
      const stamped = [];
      for (let i = 0; i < rssRuns; i++) stamped.push(await stampsOf(ours, tool, dir, i));
      const breakdownMs = Object.fromEntries(
        STAMPS.map((k) => [k, stamped.every((s) => typeof s[k] === 'number') ? r1(median(stamped.map((s) => s[k]))) : null]),
      );
      report.tools[tool] = {
        runs,
        loadAvg: { atStart: loadAvg, atEnd: os.loadavg().map((l) => r1(l)) },
        oursOverFloor: { median: r3(median(toFloor)), ci95: medianCI(toFloor), pairs: toFloor },
        breakdownMs,
        wallMs: Object.fromEntries(
          list.map((c) => [c.name, { median: r1(median(wall[c.name])), ci95: medianCI(wall[c.name]), samples: wall[c.name] }]),
        ),
        oursOverInspector: ratios.length ? { median: r3(median(ratios)), ci95: medianCI(ratios), pairs: ratios } : null,
        addedOverFloor: floorRatios.length ? { median: r3(median(floorRatios)), ci95: medianCI(floorRatios) } : null,
        peakRss: rss,
        rssRatio: rss.inspector ? r3(rss.ours.clientPeakKB / rss.inspector.clientPeakKB) : null,
      };
    }
    return report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name, dflt) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : dflt);
  peers({ runs: arg('--runs', 12), rssRuns: arg('--rss-runs', 3), say: (t) => process.stderr.write(`[bench] ${t}\n`) }).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(`[bench] peers failed: ${e.stack ?? e}`);
      process.exit(1);
    },
  );
}
