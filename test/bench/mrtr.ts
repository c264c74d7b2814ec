/**
 * MRTR benchmark, one transport per process (bundled and run by test/bench/run.mjs):
 *
 * 1. overhead: our driver (ServerConnection + callWithRoundTrips, instant InputProvider) against the
 *    SDK's automatic driver (a plain `Client`, `versionNegotiation: {mode: 'auto'}`, a `roots/list`
 *    handler answering at once, `client.callTool`), on the demo's `where_am_i` (one roots round).
 *    Calls run in blocks; each block of ours is paired with one of the SDK's, the order alternating
 *    (ABBA...), and the ratio ours/SDK of each pair's elapsed time is kept: the median of those
 *    ratios is robust to the load other processes put on the machine. One at a time, a block is a
 *    few calls (`--pair-calls`, 4): the load of a shared machine drifts within a second, and blocks
 *    of 200 calls (half a second or more over HTTP) compared different loads. Measured over HTTP, the
 *    SDK against itself, 2000 calls each: 10 pairs of 200 calls gave a median with a 95% interval of
 *    0.83–1.21; 500 pairs of 4 calls, 0.99–1.02.
 *    With calls in flight a block is `--concurrent-block` calls (200: each block ramps up and down),
 *    and there are more of them (`--concurrent-calls`, 10000 per driver): the demo server sets the pace
 *    there, and pairs of blocks of 200 calls differ by a quarter either way when the SDK meets itself
 *    (quartiles 0.78–1.24 over stdio), so 10 pairs a run left the median within ±8%.
 * 2. host latency per round: from the transport handing us an `input_required` result to the
 *    transport having written the retry, timed with `process.hrtime.bigint()` by a transparent
 *    transport wrapper (`TimingTransport`, drivers.ts); the driver runs unchanged. The calls of
 *    ours and the SDK's alternate in blocks of `--pair-calls` (ABBA...), gathered into `--blocks`
 *    groups; each group gives the ratios ours/SDK of its rounds' p50 and p99 (1000 rounds of each
 *    driver a group by default: the p99 of a few hundred is its third-largest round, and moved by
 *    half from one group to the next).
 *
 *   node mrtr.js --demo <dist/demo-server.js> --transport stdio|http [--calls 2000] [--blocks 10]
 *                [--pair-calls 4] [--warmup 300] [--latency-calls 10000] [--concurrency 8]
 *                [--concurrent-calls 10000] [--concurrent-block 200]
 *   node mrtr.js --demo ... --transport stdio --aa --no-latency
 *                (calibration: SDK against SDK in the same harness; the ratios are the noise floor)
 *   node --cpu-prof mrtr.js --demo ... --transport stdio --profile ours|sdk [--calls N] [--concurrency N]
 *                (one driver only, for a CPU profile of where its time goes)
 *
 * Prints one JSON object ({@link TransportReport}) on stdout; progress on stderr.
 * `MCP_ROUNDTRIP_BENCH_EVENTS=1` gives our driver a no-op event listener (the host always has one:
 * the round-trip log), to see what building the events costs.
 */
import type { ChildProcess } from 'node:child_process';
import {
  median,
  ourDriver,
  percentile,
  runBenchMain,
  sdkDriver,
  startHttpDemo,
  EXPECTED_TEXT,
  type CallFn,
  type Driver,
  type Target,
} from './drivers';

/** Percentiles and throughput of one driver in one mode. */
export interface DriverStats {
  calls: number;
  elapsedMs: number;
  callsPerSec: number;
  p50Us: number;
  p99Us: number;
  /** CPU time (user + system) of this process per call: the client's own work, less noisy than wall time. */
  cpuUsPerCall: number;
}

/** One mode (sequential or N concurrent) of the overhead comparison. */
export interface ModeReport {
  concurrency: number;
  ours: DriverStats;
  sdk: DriverStats;
  /** Calls of each driver in one block of a pair. */
  blockCalls: number;
  /** ours/SDK elapsed time of each pair of blocks, in run order. */
  pairRatios: number[];
  /** Median of {@link pairRatios}: > 1 means our driver is slower. */
  medianRatio: number;
  /** ours/SDK of the total elapsed time (the mean per call, which a slow tail moves and the median does not). */
  totalRatio: number;
  /** ours/SDK client CPU time of each pair of blocks. */
  cpuPairRatios: number[];
  /** Median of {@link cpuPairRatios}: > 1 means our driver spends more CPU per call. */
  medianCpuRatio: number;
}

/** Host-added latency per round, microseconds. */
export interface LatencyStats {
  rounds: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

/** Everything one transport's run measured. */
export interface TransportReport {
  transport: 'stdio' | 'http';
  node: string;
  sequential: ModeReport;
  concurrent: ModeReport;
  hostLatency: {
    /** Our driver, one call at a time (the headline figure). */
    sequential: LatencyStats;
    /** Our driver with `concurrency` calls in flight (includes waiting behind the other calls' work). */
    concurrent: LatencyStats;
    /** The SDK's automatic driver, one call at a time, in blocks alternated with ours (the reference). */
    sdkSequential: LatencyStats;
    /** Per group of alternated sequential blocks: ours/SDK of the group's p50 (> 1: we add more). */
    p50PairRatios: number[];
    /** The same for the groups' p99. */
    p99PairRatios: number[];
  };
}

/** Options from the command line. */
interface Options {
  demo: string;
  transport: 'stdio' | 'http';
  calls: number;
  blocks: number;
  /** Sequential calls of each driver in one block of a pair (overhead and latency). */
  pairCalls: number;
  warmup: number;
  latencyCalls: number;
  concurrency: number;
  /** Calls of each driver with `concurrency` in flight, and in one block of a pair. */
  concurrentCalls: number;
  concurrentBlock: number;
  /** Only run this driver (`--profile ours|sdk`), for `node --cpu-prof`: warm-up, then `calls` calls. */
  profile?: 'ours' | 'sdk';
  /** Calibration (`--aa`): a second SDK driver takes our driver's place, so the ratios show the noise floor. */
  aa?: boolean;
  /** Skip the host-latency phase (`--no-latency`). */
  noLatency?: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = {
    demo: '',
    transport: 'stdio',
    calls: 2000,
    blocks: 10,
    pairCalls: 4,
    warmup: 300,
    latencyCalls: 10_000,
    concurrency: 8,
    concurrentCalls: 10_000,
    concurrentBlock: 200,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${a} needs a value`);
      return value;
    };
    if (a === '--demo') o.demo = v();
    else if (a === '--transport') o.transport = v() === 'http' ? 'http' : 'stdio';
    else if (a === '--calls') o.calls = Number(v());
    else if (a === '--blocks') o.blocks = Number(v());
    else if (a === '--pair-calls') o.pairCalls = Number(v());
    else if (a === '--warmup') o.warmup = Number(v());
    else if (a === '--latency-calls') o.latencyCalls = Number(v());
    else if (a === '--concurrency') o.concurrency = Number(v());
    else if (a === '--concurrent-calls') o.concurrentCalls = Number(v());
    else if (a === '--concurrent-block') o.concurrentBlock = Number(v());
    else if (a === '--profile') o.profile = v() === 'sdk' ? 'sdk' : 'ours';
    else if (a === '--aa') o.aa = true;
    else if (a === '--no-latency') o.noLatency = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.demo) throw new Error('--demo <path of dist/demo-server.js> is required');
  return o;
}

const progress = (text: string) => process.stderr.write(`[bench ${process.pid}] ${text}\n`);

const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// Runs

/** Runs `n` calls with `concurrency` in flight; returns per-call durations (ns) and the elapsed time (ns). */
async function runBlock(call: CallFn, n: number, concurrency: number): Promise<{ durations: number[]; elapsedNs: number; cpuUs: number }> {
  const durations: number[] = [];
  let next = 0;
  let bad: string | undefined;
  const worker = async () => {
    while (next < n) {
      next++;
      const t0 = process.hrtime.bigint();
      const text = await call();
      durations.push(Number(process.hrtime.bigint() - t0));
      if (!EXPECTED_TEXT.test(text)) bad ??= text;
    }
  };
  const cpu0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  const elapsedNs = Number(process.hrtime.bigint() - start);
  const cpu = process.cpuUsage(cpu0);
  if (bad !== undefined) throw new Error(`unexpected tool result: ${bad.slice(0, 300)}`);
  return { durations, elapsedNs, cpuUs: cpu.user + cpu.system };
}

function driverStats(durations: number[], elapsedNs: number, cpuUs: number): DriverStats {
  const sorted = [...durations].sort((a, b) => a - b);
  return {
    calls: durations.length,
    elapsedMs: round1(elapsedNs / 1e6),
    callsPerSec: Math.round(durations.length / (elapsedNs / 1e9)),
    p50Us: round1(percentile(sorted, 50) / 1e3),
    p99Us: round1(percentile(sorted, 99) / 1e3),
    cpuUsPerCall: round1(cpuUs / durations.length),
  };
}

function latencyStats(ns: number[]): LatencyStats {
  const sorted = [...ns].sort((a, b) => a - b);
  return {
    rounds: ns.length,
    p50Us: round1(percentile(sorted, 50) / 1e3),
    p99Us: round1(percentile(sorted, 99) / 1e3),
    maxUs: round1((sorted[sorted.length - 1] ?? NaN) / 1e3),
  };
}

/** Paired, alternated blocks of ours and the SDK's; `calls` per driver in blocks of `per` calls. */
async function compare(ours: Driver, sdk: Driver, calls: number, per: number, concurrency: number): Promise<ModeReport> {
  const blocks = Math.ceil(calls / per);
  const all = { ours: [] as number[], sdk: [] as number[] };
  const elapsed = { ours: 0, sdk: 0 };
  const cpu = { ours: 0, sdk: 0 };
  const pairRatios: number[] = [];
  const cpuPairRatios: number[] = [];
  for (let b = 0; b < blocks; b++) {
    const order = b % 2 === 0 ? [ours, sdk] : [sdk, ours];
    const got: Record<string, number> = {};
    const gotCpu: Record<string, number> = {};
    for (const d of order) {
      const { durations, elapsedNs, cpuUs } = await runBlock(d.call, per, concurrency);
      all[d.name].push(...durations);
      elapsed[d.name] += elapsedNs;
      cpu[d.name] += cpuUs;
      got[d.name] = elapsedNs;
      gotCpu[d.name] = cpuUs;
    }
    pairRatios.push(round3(got.ours / got.sdk));
    cpuPairRatios.push(round3(gotCpu.ours / gotCpu.sdk));
  }
  return {
    concurrency,
    ours: driverStats(all.ours, elapsed.ours, cpu.ours),
    sdk: driverStats(all.sdk, elapsed.sdk, cpu.sdk),
    blockCalls: per,
    pairRatios,
    medianRatio: round3(median(pairRatios)),
    totalRatio: round3(elapsed.ours / elapsed.sdk),
    cpuPairRatios,
    medianCpuRatio: round3(median(cpuPairRatios)),
  };
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  let http: { url: string; child: ChildProcess } | undefined;
  const target: Target =
    o.transport === 'stdio'
      ? { kind: 'stdio', demo: o.demo }
      : { kind: 'http', demo: o.demo, url: (http = await startHttpDemo(o.demo)).url };
  try {
    if (o.profile) {
      const d = o.profile === 'ours' ? await ourDriver(target, false) : await sdkDriver(target, false);
      await runBlock(d.call, o.warmup, o.concurrency);
      const { durations, elapsedNs, cpuUs } = await runBlock(d.call, o.calls, o.concurrency);
      // Sockets, timers, child processes still open after the calls: a leak shows here.
      const activeHandles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length;
      await d.close();
      process.stdout.write(
        `${JSON.stringify({ profile: o.profile, transport: o.transport, ...driverStats(durations, elapsedNs, cpuUs), activeHandles })}\n`,
      );
      return;
    }
    // Overhead: untimed drivers, warmed up (JIT) before any block counts.
    const ours: Driver = o.aa ? { ...(await sdkDriver(target, false)), name: 'ours' } : await ourDriver(target, false);
    const sdk = await sdkDriver(target, false);
    progress(`${o.transport}: warm-up (${o.warmup} calls each, sequential and ${o.concurrency} in flight)`);
    for (const d of [ours, sdk, ours, sdk]) {
      await runBlock(d.call, o.warmup >> 1, 1);
      await runBlock(d.call, o.warmup >> 1, o.concurrency);
    }
    progress(`${o.transport}: ${o.calls} calls per driver, sequential, in paired blocks of ${o.pairCalls}`);
    const sequential = await compare(ours, sdk, o.calls, o.pairCalls, 1);
    progress(`${o.transport}: ${o.concurrentCalls} calls per driver, ${o.concurrency} in flight, in paired blocks of ${o.concurrentBlock}`);
    const concurrent = await compare(ours, sdk, o.concurrentCalls, o.concurrentBlock, o.concurrency);
    await ours.close();
    await sdk.close();
    if (o.noLatency) {
      const none: LatencyStats = { rounds: 0, p50Us: NaN, p99Us: NaN, maxUs: NaN };
      const report: TransportReport = {
        transport: o.transport,
        node: process.version,
        sequential,
        concurrent,
        hostLatency: { sequential: none, concurrent: none, sdkSequential: none, p50PairRatios: [], p99PairRatios: [] },
      };
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }

    // Host latency: timed drivers (same driver code; only the transport is wrapped), sequential
    // blocks of `pairCalls` calls of ours and the SDK's alternated (ABBA...) so both see the same
    // load, gathered in `blocks` groups; per group the ratios ours/SDK of its rounds' p50 and p99.
    progress(
      `${o.transport}: host latency, ${o.latencyCalls} calls per driver sequential in ${o.blocks} groups of paired blocks of ${o.pairCalls}, and ${o.concurrency} in flight`,
    );
    const timedOurs = await ourDriver(target, true);
    const timedSdk = await sdkDriver(target, true);
    await runBlock(timedOurs.call, o.warmup, 1);
    await runBlock(timedSdk.call, o.warmup, 1);
    const per = Math.ceil(o.latencyCalls / o.blocks);
    const seqLatencies: number[] = [];
    const sdkLatencies: number[] = [];
    const p50Ratios: number[] = [];
    const p99Ratios: number[] = [];
    let pair = 0;
    for (let b = 0; b < o.blocks; b++) {
      const got = { ours: [] as number[], sdk: [] as number[] };
      for (let done = 0; done < per; done += o.pairCalls, pair++) {
        const n = Math.min(o.pairCalls, per - done);
        for (const which of pair % 2 === 0 ? (['ours', 'sdk'] as const) : (['sdk', 'ours'] as const)) {
          timedOurs.latencies.length = 0;
          timedSdk.timing!.sequentialLatencies.length = 0;
          await runBlock(which === 'ours' ? timedOurs.call : timedSdk.call, n, 1);
          const rounds = which === 'ours' ? timedOurs.latencies.splice(0) : timedSdk.timing!.sequentialLatencies.splice(0);
          if (rounds.length !== n) throw new Error(`host latency (${which}, group ${b + 1}): paired ${rounds.length} rounds of ${n}`);
          got[which].push(...rounds);
        }
      }
      const [a, z] = [[...got.ours].sort((x, y) => x - y), [...got.sdk].sort((x, y) => x - y)];
      p50Ratios.push(round3(percentile(a, 50) / percentile(z, 50)));
      p99Ratios.push(round3(percentile(a, 99) / percentile(z, 99)));
      seqLatencies.push(...got.ours);
      sdkLatencies.push(...got.sdk);
    }
    timedOurs.latencies.length = 0;
    await runBlock(timedOurs.call, o.latencyCalls, o.concurrency);
    const concLatencies = timedOurs.latencies.splice(0);
    await timedOurs.close();
    await timedSdk.close();
    if (concLatencies.length !== o.latencyCalls)
      throw new Error(`host latency (${o.concurrency} in flight): paired ${concLatencies.length} rounds of ${o.latencyCalls}`);
    const report: TransportReport = {
      transport: o.transport,
      node: process.version,
      sequential,
      concurrent,
      hostLatency: {
        sequential: latencyStats(seqLatencies),
        concurrent: latencyStats(concLatencies),
        sdkSequential: latencyStats(sdkLatencies),
        p50PairRatios: p50Ratios,
        p99PairRatios: p99Ratios,
      },
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    http?.child.kill('SIGTERM');
  }
}

runBenchMain(main);
