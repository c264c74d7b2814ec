// `npm run bench` (after `npm run build`): MCP Roundtrip's performance figures in one run, each
// as a ratio against a reference measured in the same run, with its 95% interval where it has one.
//
//   1. MRTR overhead: our driver vs the SDK's automatic driver on the demo's where_am_i (one roots round),
//      over stdio and over Streamable HTTP, sequential and 8 in flight (test/bench/mrtr.ts);
//   2. host-added latency per round (input_required received → retry written), ours and the SDK's
//      driver in alternated blocks, same runs: per pair the ratio of p50 and of p99;
//   3. cold CLI calls (process start to exit) of where_am_i and busy_report: ours, the MCP Inspector
//      CLI and a hand-written floor client, alternated, with each client's peak RSS (peers.mjs);
//   4. scale: 1000 concurrent calls on one HTTP connection, 100 over stdio, every answer checked,
//      memory per in-flight call against the SDK's; soak: 100 000 rounds, heap and RSS slopes (scale.ts);
//   5. activation time in a real VS Code (code-server, test/bench/host.ts), else under Node with a stub
//      `vscode` (test/bench/activation.cjs), and the bundle sizes of dist/;
//   6. the round panel's time to its first field against a bare webview's first paint, in the real
//      host: book_table's first round in its arguments panel, plan_trip's in a new panel.
//
// Prints a table with PASS/MISS per target (a miss does not fail the process) and writes
// test/bench/results/latest.json. Options (environment):
//   MCP_ROUNDTRIP_BENCH_REPEATS   MRTR runs per transport (default 3; each is 2000 calls per driver and mode)
//   MCP_ROUNDTRIP_BENCH_HOST=0    skip the real host (activation falls back to the Node stub; no panel figure)
//   MCP_ROUNDTRIP_BENCH_CALLS     calls per driver and mode in one run (default 2000)
//   MCP_ROUNDTRIP_BENCH_COLD_RUNS cold CLI runs per client and tool (default 12)
//   MCP_ROUNDTRIP_BENCH_SOAK_ROUNDS rounds of the soak (default 100000)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { peers } from './peers.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const DEMO = path.join(root, 'dist', 'demo-server.js');
const RESULTS = path.join(here, 'results', 'latest.json');

/** Targets held by the benchmark (not by timed tests). Ratios: ours over the reference of the same run. */
export const TARGETS = {
  mrtrOverheadRatio: { max: 1.05, unit: '×', what: 'ours/SDK time per call, stdio (worse of sequential and 8 in flight)' },
  mrtrOverheadRatioHttp: { max: 1.05, unit: '×', what: 'the same over Streamable HTTP' },
  hostLatencyP50Ratio: { max: 1.0, unit: '×', what: 'per-round latency ours/SDK driver, p50, stdio, sequential (median of paired blocks)' },
  hostLatencyP99Ratio: { max: 1.0, unit: '×', what: 'the same at p99' },
  hostLatencyP50RatioHttp: { max: 1.0, unit: '×', what: 'per-round latency ours/SDK driver, p50, Streamable HTTP' },
  hostLatencyP99RatioHttp: { max: 1.0, unit: '×', what: 'the same at p99' },
  hostLatencyP99Us: { max: 1000, unit: 'µs', what: 'input_required received → retry written, p99, stdio, sequential' },
  coldCliRatioWhereAmI: { max: 0.5, unit: '×', what: 'cold CLI call, ours/Inspector wall time, where_am_i (median of alternated pairs)' },
  coldCliRatioBusyReport: { max: 0.5, unit: '×', what: 'the same for busy_report' },
  coldCliRssRatio: { max: 0.999, unit: '×', what: 'peak RSS of the client, ours/Inspector (worse of the two tools)' },
  scaleWrongAnswers: { max: 0, unit: '', what: 'answers of another call (1000 concurrent over HTTP, 100 over stdio)' },
  soakRssSlopeKB: { max: 1, unit: 'KB', what: 'RSS growth per 1000 rounds after warm-up (100 000 rounds, least squares)' },
  panelReusedToBareRatio: { max: 1.3, unit: '×', what: "book_table's first field (its arguments panel reused) / a bare webview's first paint" },
  panelReusedMs: { max: 50, unit: 'ms', what: 'book_table: input_required → first field interactive (target on an idle machine)' },
  activationMs: { max: 30, unit: 'ms', what: 'activate() entry → return' },
  extensionBundleKB: { max: 800, unit: 'KB', what: 'dist/extension.js, minified' },
};

const REPEATS = Math.max(1, Number(process.env.MCP_ROUNDTRIP_BENCH_REPEATS ?? 3));
const CALLS = Math.max(10, Number(process.env.MCP_ROUNDTRIP_BENCH_CALLS ?? 2000));
const WITH_HOST = process.env.MCP_ROUNDTRIP_BENCH_HOST !== '0';
const COLD_RUNS = Math.max(6, Number(process.env.MCP_ROUNDTRIP_BENCH_COLD_RUNS ?? 12));
const SOAK_ROUNDS = Math.max(20_000, Number(process.env.MCP_ROUNDTRIP_BENCH_SOAK_ROUNDS ?? 100_000));
const STUB_ACTIVATIONS = 9;
const HOST_TIMEOUT_MS = 5 * 60_000;

const say = (text) => process.stderr.write(`[bench] ${text}\n`);

/**
 * Runs a command, collecting stdout; rejects with stderr's tail on a non-zero exit or after `timeoutMs`.
 * @returns {Promise<string>} stdout
 */
function run(cmd, args, { timeoutMs = 5 * 60_000, env = process.env, echo = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      err += d;
      if (echo) process.stderr.write(d);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(args.find((a) => /\.(m?[jt]s|cjs)$/.test(a)) ?? cmd)} exited ${code ?? signal}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/** The median of numbers (null for none). */
export function median(values) {
  const s = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (!s.length) return null;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * An approximate 95% confidence interval of the median of `values` (distribution-free: the order
 * statistics at n/2 ± 0.98·√n), or null for fewer than 6 values.
 */
export function medianCI(values) {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = s.length;
  if (n < 6) return null;
  const lo = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)) - 1);
  const hi = Math.min(n - 1, Math.ceil(n / 2 + 0.98 * Math.sqrt(n)) - 1);
  return [s[lo], s[hi]];
}

const r3 = (n) => (n == null ? null : Math.round(n * 1000) / 1000);
const r1 = (n) => (n == null ? null : Math.round(n * 10) / 10);

/** Bundles test/bench/<name>.ts like the project's node entries (minified CJS, node20). */
async function bundleBench(dir, name) {
  const outfile = path.join(dir, `${name}.js`);
  await esbuild.build({
    entryPoints: [path.join(here, `${name}.ts`)],
    outfile,
    bundle: true,
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    mainFields: ['module', 'main'],
  });
  return outfile;
}

/** Sizes of the shipped bundles, and which packages fill dist/extension.js (from an esbuild metafile). */
async function bundleSizes() {
  const kb = (bytes) => r1(bytes / 1024);
  const file = (p) => {
    const buf = readFileSync(p);
    return { file: path.relative(root, p), kb: kb(buf.length), gzipKB: kb(gzipSync(buf).length) };
  };
  const extension = file(path.join(root, 'dist', 'extension.js'));
  const webDir = path.join(root, 'dist', 'webview');
  const webviews = existsSync(webDir) ? readdirSync(webDir).filter((f) => f.endsWith('.js')).map((f) => file(path.join(webDir, f))) : [];
  // The real build's metafile (scripts/build.mjs --metafile), to say where the bytes come from.
  let topInputs = [];
  try {
    const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--metafile'], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(built.stderr || 'build failed');
    const meta = JSON.parse(readFileSync(path.join(root, 'out', 'build-meta.json'), 'utf8'));
    const result = { metafile: { outputs: { ext: meta.outputs['dist/extension.js'] } } };
    const inputs = Object.values(result.metafile.outputs)[0].inputs;
    const groups = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const key = m ? m[1] : input.startsWith('src/') ? `src/${input.split('/')[1]}` : input;
      groups.set(key, (groups.get(key) ?? 0) + bytesInOutput);
    }
    topInputs = [...groups].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, bytes]) => ({ name, kb: kb(bytes) }));
  } catch (e) {
    topInputs = [{ name: `(metafile failed: ${e.message.split('\n')[0]})`, kb: null }];
  }
  return { extension, webviews, extensionTopInputs: topInputs };
}

/** Runs mrtr.js `REPEATS` times for one transport and aggregates the runs. */
async function mrtr(bundle, transport) {
  const runs = [];
  for (let i = 0; i < REPEATS; i++) {
    say(`MRTR over ${transport}: run ${i + 1} of ${REPEATS} (${CALLS} calls per driver, sequential and 8 in flight)`);
    const out = await run(process.execPath, [bundle, '--demo', DEMO, '--transport', transport, '--calls', String(CALLS)], { timeoutMs: 4 * 60_000 });
    runs.push(JSON.parse(out.trim().split('\n').pop()));
  }
  const mode = (key) => {
    const ratios = runs.flatMap((r) => r[key].pairRatios);
    const cpuRatios = runs.flatMap((r) => r[key].cpuPairRatios);
    const stat = (driver, field) => r1(median(runs.map((r) => r[key][driver][field])));
    const driver = (d) => ({ callsPerSec: stat(d, 'callsPerSec'), p50Us: stat(d, 'p50Us'), p99Us: stat(d, 'p99Us'), cpuUsPerCall: stat(d, 'cpuUsPerCall') });
    return {
      concurrency: runs[0][key].concurrency,
      pairs: ratios.length,
      medianRatio: r3(median(ratios)),
      ratioCI95: medianCI(ratios),
      medianCpuRatio: r3(median(cpuRatios)),
      ours: driver('ours'),
      sdk: driver('sdk'),
      pairRatios: ratios,
    };
  };
  const latency = (key) => ({
    p50Us: r1(median(runs.map((r) => r.hostLatency[key].p50Us))),
    p99Us: r1(median(runs.map((r) => r.hostLatency[key].p99Us))),
    worstRunP99Us: r1(Math.max(...runs.map((r) => r.hostLatency[key].p99Us))),
    rounds: runs.reduce((n, r) => n + r.hostLatency[key].rounds, 0),
  });
  const pairRatio = (key) => {
    const ratios = runs.flatMap((r) => r.hostLatency[key]);
    return { median: r3(median(ratios)), ci95: medianCI(ratios), pairs: ratios.length, pairRatios: ratios };
  };
  // Calibration: the SDK's driver in our driver's place, same harness; its ratios are the noise floor.
  say(`MRTR over ${transport}: calibration run (SDK against SDK)`);
  let noiseFloor;
  try {
    const aa = JSON.parse((await run(process.execPath, [bundle, '--demo', DEMO, '--transport', transport, '--calls', String(CALLS), '--aa', '--no-latency'], { timeoutMs: 4 * 60_000 })).trim().split('\n').pop());
    noiseFloor = { sequential: aa.sequential.medianRatio, concurrent: aa.concurrent.medianRatio, pairs: aa.sequential.pairRatios.length };
  } catch (e) {
    noiseFloor = { error: e.message };
  }
  return {
    transport,
    runs: runs.length,
    noiseFloor,
    callsPerRun: CALLS,
    sequential: mode('sequential'),
    concurrent: mode('concurrent'),
    hostLatency: { sequential: latency('sequential'), concurrent: latency('concurrent'), sdkSequential: latency('sdkSequential'), p50Ratio: pairRatio('p50PairRatios'), p99Ratio: pairRatio('p99PairRatios') },
  };
}

/** The scale runs (1000 concurrent calls over HTTP, 100 over stdio) and the soak, one process each. */
async function scaleAndSoak(bundle) {
  const out = {};
  for (const [key, args] of [
    ['http', ['--mode', 'scale', '--transport', 'http', '--calls', '1000', '--batches', '4']],
    ['stdio', ['--mode', 'scale', '--transport', 'stdio', '--calls', '100', '--batches', '8']],
    ['soak', ['--mode', 'soak', '--transport', 'stdio', '--rounds', String(SOAK_ROUNDS)]],
  ]) {
    say(key === 'soak' ? `soak: ${SOAK_ROUNDS} rounds over stdio` : `scale over ${key}: ${args[5]} concurrent calls`);
    try {
      const r = JSON.parse((await run(process.execPath, ['--expose-gc', bundle, '--demo', DEMO, ...args], { timeoutMs: 8 * 60_000 })).trim().split('\n').pop());
      if (r.timeRatios) r.timeRatio = { median: r3(median(r.timeRatios)), ci95: medianCI(r.timeRatios) };
      out[key] = r;
    } catch (e) {
      out[key] = { error: e.message };
    }
  }
  return out;
}

/** Activation under Node with the stub `vscode`, in fresh processes. */
async function stubActivation() {
  const samples = [];
  for (let i = 0; i < STUB_ACTIVATIONS; i++) samples.push(JSON.parse((await run(process.execPath, [path.join(here, 'activation.cjs')], { timeoutMs: 60_000 })).trim()));
  return {
    medianMs: r3(median(samples.map((s) => s.activationMs))),
    maxMs: r3(Math.max(...samples.map((s) => s.activationMs))),
    requireMedianMs: r1(median(samples.map((s) => s.requireMs))),
    samples: samples.length,
  };
}

/** The real-host part (code-server + Chromium), bounded in time. */
async function realHost(dir) {
  const out = path.join(dir, 'host.json');
  try {
    await run(process.execPath, ['--require', 'tsx/cjs', path.join(here, 'host.ts'), out], { timeoutMs: HOST_TIMEOUT_MS, echo: false });
  } catch (e) {
    if (!existsSync(out)) return { error: e.message };
  }
  return JSON.parse(readFileSync(out, 'utf8'));
}

function verdict(value, target) {
  if (value == null) return 'n/a ';
  return value <= target.max ? 'PASS' : 'MISS';
}

function fmt(n, digits = 1) {
  return n == null ? '—' : Number(n).toFixed(digits);
}

function table(report) {
  const lines = [];
  const d = report.details;
  lines.push('');
  lines.push(`MCP Roundtrip bench — ${report.environment.node}, ${report.environment.cpus} CPUs, load ${report.environment.loadAvg.join(' ')} (start), ${report.environment.minutes} min`);
  lines.push('');
  lines.push('MRTR, where_am_i (one roots round)     ours calls/s   SDK calls/s   ours p50/p99 µs     SDK p50/p99 µs    ours/SDK time, median [95% CI] (CPU)   SDK/SDK');
  for (const t of ['stdio', 'http']) {
    const m = d.mrtr[t];
    if (!m || m.error) {
      lines.push(`  ${t.padEnd(6)} ${m?.error ?? 'not run'}`);
      continue;
    }
    for (const key of ['sequential', 'concurrent']) {
      const x = m[key];
      const label = `  ${t} ${key === 'sequential' ? 'sequential' : `${x.concurrency} in flight`}`.padEnd(40);
      lines.push(
        `${label}${fmt(x.ours.callsPerSec, 0).padStart(13)}${fmt(x.sdk.callsPerSec, 0).padStart(14)}   ${`${fmt(x.ours.p50Us, 0)}/${fmt(x.ours.p99Us, 0)}`.padStart(15)}   ${`${fmt(x.sdk.p50Us, 0)}/${fmt(x.sdk.p99Us, 0)}`.padStart(15)}    ` +
          `${fmt(x.medianRatio, 3)} [${x.ratioCI95 ? x.ratioCI95.map((v) => fmt(v, 2)).join('–') : '—'}] (${fmt(x.medianCpuRatio, 2)}) ${x.pairs} pairs`.padEnd(37) +
          `${fmt(m.noiseFloor?.[key], 3)}`,
      );
    }
  }
  lines.push('');
  lines.push('Host latency per round (input_required received → retry written), µs   p50      p99');
  const ci = (x) => (x?.ci95 ? `[${x.ci95.map((v) => fmt(v, 2)).join('–')}]` : '[—]');
  for (const t of ['stdio', 'http']) {
    const m = d.mrtr[t];
    if (!m || m.error) continue;
    lines.push(`  ${t} ours, sequential`.padEnd(70) + `${fmt(m.hostLatency.sequential.p50Us, 0).padStart(5)}  ${fmt(m.hostLatency.sequential.p99Us, 0).padStart(7)}`);
    lines.push(`  ${t} ours, 8 in flight (waits behind other calls' work)`.padEnd(70) + `${fmt(m.hostLatency.concurrent.p50Us, 0).padStart(5)}  ${fmt(m.hostLatency.concurrent.p99Us, 0).padStart(7)}`);
    lines.push(`  ${t} SDK automatic driver, sequential, alternated blocks (reference)`.padEnd(70) + `${fmt(m.hostLatency.sdkSequential.p50Us, 0).padStart(5)}  ${fmt(m.hostLatency.sdkSequential.p99Us, 0).padStart(7)}`);
    lines.push(`  ${t} ours/SDK, median of ${m.hostLatency.p50Ratio.pairs} paired blocks [95% CI]`.padEnd(70) + `${fmt(m.hostLatency.p50Ratio.median, 2)} ${ci(m.hostLatency.p50Ratio)}  ${fmt(m.hostLatency.p99Ratio.median, 2)} ${ci(m.hostLatency.p99Ratio)}`);
  }
  const c = d.coldCli;
  lines.push('');
  if (c && !c.error) {
    lines.push(`Cold CLI calls over stdio, process start → exit (ms, median of ${COLD_RUNS}; Inspector ${c.clients.inspector?.version ?? 'absent'})   ours   Inspector   floor   ours/Inspector [95% CI]   peak RSS MB ours/Inspector`);
    for (const [tool, x] of Object.entries(c.tools)) {
      lines.push(`  ${tool.padEnd(14)}${fmt(x.wallMs.ours.median, 0).padStart(72)}${fmt(x.wallMs.inspector?.median, 0).padStart(12)}${fmt(x.wallMs.floor?.median, 0).padStart(8)}   ${fmt(x.oursOverInspector?.median, 3)} ${ci(x.oursOverInspector)}`.padEnd(134) + `${fmt(x.peakRss.ours.clientPeakKB / 1024)} / ${fmt((x.peakRss.inspector?.clientPeakKB ?? NaN) / 1024)}`);
    }
  } else lines.push(`Cold CLI calls: ${c?.error ?? 'not run'}`);
  lines.push('');
  for (const t of ['http', 'stdio']) {
    const x = d.scale?.[t];
    if (!x || x.error) {
      lines.push(`Scale over ${t}: ${x?.error ?? 'not run'}`);
      continue;
    }
    lines.push(
      `Scale over ${t}: ${x.calls} concurrent calls, ${x.wrongAnswers} wrong answers; ${x.ours.callsPerSec} calls/s (SDK ${x.sdk.callsPerSec}; time ours/SDK ${fmt(x.timeRatio?.median, 2)} ${ci(x.timeRatio)}); ` +
        `round latency p50/p99 ${x.ours.roundLatencyUs.p50}/${x.ours.roundLatencyUs.p99} µs; heap per in-flight call ${fmt(x.memoryPerInFlightCall.ours.heapPerCallBytes / 1024)} KB (SDK ${fmt(x.memoryPerInFlightCall.sdk.heapPerCallBytes / 1024)} KB)`,
    );
  }
  const soak = d.scale?.soak;
  if (soak && !soak.error) {
    lines.push(`Soak: ${soak.rounds} rounds (${soak.concurrency} in flight, ${soak.wrongAnswers} wrong), slope after ${soak.warmupRounds} warm-up rounds: RSS ${fmt(soak.rssSlopeKBPer1000Rounds, 2)} KB, heap ${fmt(soak.heapSlopeKBPer1000Rounds, 2)} KB per 1000 rounds; RSS ${soak.rssMB.afterWarmup} → ${soak.rssMB.end} MB; listeners ${soak.before.listeners} → ${soak.after.listeners}; handles ${JSON.stringify(soak.before.resources)} → ${JSON.stringify(soak.after.resources)}`);
  } else lines.push(`Soak: ${soak?.error ?? 'not run'}`);
  lines.push('');
  const b = d.bundles;
  lines.push(`Bundles: dist/extension.js ${fmt(b.extension.kb)} KB (gzip ${fmt(b.extension.gzipKB)} KB); ${b.webviews.map((w) => `${w.file} ${fmt(w.kb)} KB`).join('; ') || 'no webview bundles'}`);
  lines.push(`  extension.js by source: ${b.extensionTopInputs.map((i) => `${i.name} ${fmt(i.kb, 0)}`).join(', ')} (KB)`);
  const a = d.activation;
  lines.push(
    `Activation: ${a.source === 'real-host' ? `real host (code-server), samples ${a.realHost.samplesMs.join(', ')} ms` : `Node with a stub vscode (the real host ${a.realHost?.reason ?? 'was skipped'})`}; ` +
      `Node stub: median ${fmt(a.nodeStub?.medianMs, 2)} ms, module load ${fmt(a.nodeStub?.requireMedianMs, 0)} ms`,
  );
  const p = d.panel ?? {};
  lines.push(`Round panel, time to the first field (ms)${p.reason ? ` (${p.reason})` : ''}`);
  for (const [k, label] of [['bare', 'bare webview, first paint (reference)'], ['reused', 'book_table, first round in its arguments panel'], ['newPanel', 'plan_trip, first round in a new panel']]) {
    const x = p[k];
    if (!x?.samplesMs?.length) continue;
    const st = (key) => fmt(median(x.stages.map((s) => s[key])), 0);
    const ratio = k === 'bare' ? '' : `   /bare ${fmt(median(k === 'reused' ? p.reusedToBare : p.newPanelToBare), 2)} ${ci({ ci95: medianCI(k === 'reused' ? p.reusedToBare : p.newPanelToBare) })}`;
    lines.push(`  ${label.padEnd(50)} ${fmt(x.medianMs, 0).padStart(5)}${ratio}   samples ${x.samplesMs.join(', ')}${k === 'reused' ? '' : `; stages: frame ${st('webviewFrameMs')} → content ${st('contentFrameMs')} → HTML ${st('htmlWrittenMs')} → ready ${st('readyMs')}`}`);
  }
  lines.push('');
  lines.push('Targets');
  for (const [key, target] of Object.entries(TARGETS)) {
    const v = report[key];
    lines.push(`  ${key.padEnd(24)} ${fmt(v, /Ratio/.test(key) ? 3 : 1).padStart(8)} ${target.unit.padEnd(3)} ≤ ${String(target.max).padEnd(5)} ${verdict(v, target)}  ${target.what}`);
  }
  lines.push(`\nWritten: ${path.relative(root, RESULTS)}`);
  return lines.join('\n');
}

/**
 * Every figure of the run with its reference, ratio and 95% interval (where it has one), as the
 * README's performance table shows them.
 */
function figures(d) {
  const f = [];
  const add = (name, value, unit, extra = {}) => f.push({ name, value, unit, ...extra });
  for (const t of ['stdio', 'http']) {
    const m = d.mrtr[t];
    if (!m || m.error) continue;
    for (const mode of ['sequential', 'concurrent']) {
      const x = m[mode];
      add(`MRTR time per call, ${t}, ${mode === 'sequential' ? 'sequential' : `${x.concurrency} in flight`}`, r1(1e6 / x.ours.callsPerSec), 'µs', { reference: `SDK driver ${r1(1e6 / x.sdk.callsPerSec)} µs`, ratio: x.medianRatio, ci95: x.ratioCI95, noiseFloor: m.noiseFloor?.[mode] });
    }
    const h = m.hostLatency;
    add(`host latency per round, ${t}, p50`, h.sequential.p50Us, 'µs', { reference: `SDK driver ${h.sdkSequential.p50Us} µs`, ratio: h.p50Ratio.median, ci95: h.p50Ratio.ci95 });
    add(`host latency per round, ${t}, p99`, h.sequential.p99Us, 'µs', { reference: `SDK driver ${h.sdkSequential.p99Us} µs`, ratio: h.p99Ratio.median, ci95: h.p99Ratio.ci95 });
  }
  if (d.coldCli && !d.coldCli.error) {
    for (const [tool, x] of Object.entries(d.coldCli.tools)) {
      add(`cold CLI call, ${tool}`, x.wallMs.ours.median, 'ms', { reference: `Inspector CLI ${x.wallMs.inspector?.median} ms (floor client ${x.wallMs.floor?.median} ms)`, ratio: x.oursOverInspector?.median, ci95: x.oursOverInspector?.ci95 });
      add(`peak RSS of the CLI, ${tool}`, r1(x.peakRss.ours.clientPeakKB / 1024), 'MB', { reference: `Inspector CLI ${r1((x.peakRss.inspector?.clientPeakKB ?? NaN) / 1024)} MB`, ratio: x.rssRatio });
    }
  }
  for (const t of ['http', 'stdio']) {
    const x = d.scale?.[t];
    if (!x || x.error) continue;
    add(`${x.calls} concurrent calls over ${t}: throughput`, x.ours.callsPerSec, 'calls/s', { reference: `SDK driver ${x.sdk.callsPerSec} calls/s`, ratio: x.timeRatio?.median != null ? r3(1 / x.timeRatio.median) : null, ci95: x.timeRatio?.ci95 ? [r3(1 / x.timeRatio.ci95[1]), r3(1 / x.timeRatio.ci95[0])] : null, wrongAnswers: x.wrongAnswers });
    add(`${x.calls} concurrent calls over ${t}: round latency p50 / p99`, `${x.ours.roundLatencyUs.p50} / ${x.ours.roundLatencyUs.p99}`, 'µs', {});
    add(`${x.calls} concurrent calls over ${t}: heap per in-flight call`, r1(x.memoryPerInFlightCall.ours.heapPerCallBytes / 1024), 'KB', { reference: `SDK driver ${r1(x.memoryPerInFlightCall.sdk.heapPerCallBytes / 1024)} KB`, ratio: x.memoryPerInFlightCall.ratioHeap });
  }
  const soak = d.scale?.soak;
  if (soak && !soak.error) {
    add(`soak, ${soak.rounds} rounds: RSS slope`, soak.rssSlopeKBPer1000Rounds, 'KB/1000 rounds', { heapSlope: soak.heapSlopeKBPer1000Rounds, heapSpaceGrowthKB: soak.heapSpaceGrowthKB });
  }
  const p = d.panel ?? {};
  if (p.bare?.samplesMs?.length) {
    add('bare webview first paint (reference)', p.bare.medianMs, 'ms', {});
    add("round panel first field, book_table (its arguments panel reused)", p.reused.medianMs, 'ms', { reference: 'bare webview', ratio: p.reusedToBare.length ? r3(median(p.reusedToBare)) : null, ci95: medianCI(p.reusedToBare) });
    add('round panel first field, plan_trip (a new panel)', p.newPanel.medianMs, 'ms', { reference: 'bare webview', ratio: p.newPanelToBare.length ? r3(median(p.newPanelToBare)) : null, ci95: medianCI(p.newPanelToBare) });
  }
  return f;
}

async function main() {
  const started = Date.now();
  if (!existsSync(DEMO) || !existsSync(path.join(root, 'dist', 'extension.js'))) {
    console.error('dist/ is missing: run `npm run build` first (npm run bench does)');
    process.exit(2);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-bench-'));
  const environment = { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: os.cpus().length, loadAvg: os.loadavg().map((l) => r1(l)), startedAt: new Date(started).toISOString(), minutes: 0 };
  const details = { mrtr: {}, coldCli: null, scale: {}, bundles: null, activation: {}, panel: {} };
  try {
    say('bundle sizes');
    details.bundles = await bundleSizes();
    const bundle = await bundleBench(dir, 'mrtr');
    const scaleBundle = await bundleBench(dir, 'scale');
    for (const t of ['stdio', 'http']) {
      try {
        details.mrtr[t] = await mrtr(bundle, t);
      } catch (e) {
        details.mrtr[t] = { error: e.message };
      }
    }
    try {
      details.coldCli = await peers({ runs: COLD_RUNS, rssRuns: 3, say });
    } catch (e) {
      details.coldCli = { error: e.message };
    }
    details.scale = await scaleAndSoak(scaleBundle);
    say(`activation under Node with a stub vscode (${STUB_ACTIVATIONS} fresh processes)`);
    try {
      details.activation.nodeStub = await stubActivation();
    } catch (e) {
      details.activation.nodeStub = { error: e.message };
    }
    if (WITH_HOST) {
      say('real host: code-server + Chromium (activation, round panel)');
      const host = await realHost(dir);
      details.activation.realHost = host.activation ?? { reason: host.error };
      details.panel = host.panel ?? { reason: `the real host could not be run: ${host.error}` };
      details.host = host.host;
    } else {
      details.activation.realHost = { reason: 'was skipped (MCP_ROUNDTRIP_BENCH_HOST=0)' };
      details.panel = { reason: 'the real host was skipped (MCP_ROUNDTRIP_BENCH_HOST=0)' };
    }
    details.activation.source = details.activation.realHost?.medianMs != null ? 'real-host' : 'node-stub';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const stdio = details.mrtr.stdio;
  const http = details.mrtr.http;
  const worse = (m) => (m && !m.error ? Math.max(m.sequential.medianRatio, m.concurrent.medianRatio) : null);
  environment.minutes = r1((Date.now() - started) / 60_000);
  const ok = (m) => m && !m.error;
  const lat = (m, q) => (ok(m) ? m.hostLatency[`${q}Ratio`] : null);
  const cold = (tool) => (ok(details.coldCli) ? details.coldCli.tools[tool] : null);
  const panel = details.panel ?? {};
  const medianOf = (xs) => (xs?.length ? r3(median(xs)) : null);
  const report = {
    mrtrOverheadRatio: worse(stdio),
    mrtrOverheadRatioHttp: worse(http),
    hostLatencyP50Ratio: lat(stdio, 'p50')?.median ?? null,
    hostLatencyP99Ratio: lat(stdio, 'p99')?.median ?? null,
    hostLatencyP50RatioHttp: lat(http, 'p50')?.median ?? null,
    hostLatencyP99RatioHttp: lat(http, 'p99')?.median ?? null,
    hostLatencyP99Us: ok(stdio) ? stdio.hostLatency.sequential.p99Us : null,
    coldCliRatioWhereAmI: cold('where_am_i')?.oursOverInspector?.median ?? null,
    coldCliRatioBusyReport: cold('busy_report')?.oursOverInspector?.median ?? null,
    coldCliRssRatio: cold('where_am_i')?.rssRatio != null ? Math.max(cold('where_am_i').rssRatio, cold('busy_report')?.rssRatio ?? 0) : null,
    scaleWrongAnswers: ok(details.scale.http) && ok(details.scale.stdio) ? details.scale.http.wrongAnswers + details.scale.stdio.wrongAnswers + (details.scale.soak?.wrongAnswers ?? 0) : null,
    soakRssSlopeKB: ok(details.scale.soak) ? details.scale.soak.rssSlopeKBPer1000Rounds : null,
    panelReusedToBareRatio: medianOf(panel.reusedToBare),
    panelNewToBareRatio: medianOf(panel.newPanelToBare),
    panelReusedMs: panel.reused?.medianMs ?? null,
    activationMs: details.activation.source === 'real-host' ? details.activation.realHost.medianMs : (details.activation.nodeStub?.medianMs ?? null),
    activationSource: details.activation.source,
    extensionBundleKB: details.bundles?.extension.kb ?? null,
    webviewBundleKB: Object.fromEntries((details.bundles?.webviews ?? []).map((w) => [path.basename(w.file), w.kb])),
    panelReason: panel.reason,
    figures: figures(details),
    targets: Object.fromEntries(Object.entries(TARGETS).map(([k, t]) => [k, { max: t.max, unit: t.unit }])),
    verdicts: {},
    environment,
    details,
  };
  for (const [key, target] of Object.entries(TARGETS)) report.verdicts[key] = verdict(report[key], target).trim();
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(`${RESULTS}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
  renameSync(`${RESULTS}.tmp`, RESULTS);
  console.log(table(report));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`[bench] failed: ${e?.stack ?? e}`);
    process.exit(1);
  });
}
