/**
 * MRTR benchmark, one transport per process (bundled and run by test/bench/run.mjs):
 *
 * 1. overhead: our driver (ServerConnection + callWithRoundTrips, instant InputProvider) against the
 *    SDK's automatic driver (a plain `Client`, `versionNegotiation: {mode: 'auto'}`, a `roots/list`
 *    handler answering at once, `client.callTool`), on the demo's `where_am_i` (one roots round).
 *    Calls run in blocks; each block of ours is paired with one of the SDK's, the order alternating
 *    (ABBA...), and the ratio ours/SDK of each pair's elapsed time is kept: the median of those
 *    ratios is robust to the load other processes put on the machine.
 * 2. host latency per round: from the transport handing us an `input_required` result to the
 *    transport having written the retry, timed with `process.hrtime.bigint()` by a transparent
 *    transport wrapper ({@link TimingTransport}); the driver runs unchanged.
 *
 *   node mrtr.js --demo <dist/demo-server.js> --transport stdio|http [--calls 2000] [--blocks 10]
 *                [--warmup 300] [--latency-calls 1000] [--concurrency 8]
 *   node mrtr.js --demo ... --transport stdio --aa --no-latency
 *                (calibration: SDK against SDK in the same harness; the ratios are the noise floor)
 *   node --cpu-prof mrtr.js --demo ... --transport stdio --profile ours|sdk [--calls N] [--concurrency N]
 *                (one driver only, for a CPU profile of where its time goes)
 *
 * Prints one JSON object ({@link TransportReport}) on stdout; progress on stderr.
 * `MCP_ROUNDTRIP_BENCH_EVENTS=1` gives our driver a no-op event listener (the host always has one:
 * the round-trip log), to see what building the events costs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type ListRootsResult, type Transport, type TransportSendOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ForwardingTransport, type MessageExtra } from '../../src/core/connection/forwardingTransport';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import type { HostEvent } from '../../src/core/log/events';
import type { InputProvider } from '../../src/core/mrtr/inputs';
import { callWithRoundTrips } from '../../src/core/mrtr/driver';
import type { ServerSpec } from '../../src/core/connection/serverSpec';

/** The tool measured: one `roots/list` round, then a complete result. */
export const TOOL = 'where_am_i';
/** What both drivers answer to `roots/list`, instantly. */
export const ROOTS: ListRootsResult = { roots: [{ uri: 'file:///home/bench/project', name: 'project' }] };
const EXPECTED_TEXT = /^Your host shares 1 workspace root with servers:\n- project: file:\/\/\/home\/bench\/project/;

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
  /** ours/SDK elapsed time of each pair of blocks, in run order. */
  pairRatios: number[];
  /** Median of {@link pairRatios}: > 1 means our driver is slower. */
  medianRatio: number;
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
    /** The SDK's automatic driver, one call at a time, for reference. */
    sdkSequential: LatencyStats;
  };
}

/** Options from the command line. */
interface Options {
  demo: string;
  transport: 'stdio' | 'http';
  calls: number;
  blocks: number;
  warmup: number;
  latencyCalls: number;
  concurrency: number;
  /** Only run this driver (`--profile ours|sdk`), for `node --cpu-prof`: warm-up, then `calls` calls. */
  profile?: 'ours' | 'sdk';
  /** Calibration (`--aa`): a second SDK driver takes our driver's place, so the ratios show the noise floor. */
  aa?: boolean;
  /** Skip the host-latency phase (`--no-latency`). */
  noLatency?: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { demo: '', transport: 'stdio', calls: 2000, blocks: 10, warmup: 300, latencyCalls: 1000, concurrency: 8 };
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
    else if (a === '--warmup') o.warmup = Number(v());
    else if (a === '--latency-calls') o.latencyCalls = Number(v());
    else if (a === '--concurrency') o.concurrency = Number(v());
    else if (a === '--profile') o.profile = v() === 'sdk' ? 'sdk' : 'ours';
    else if (a === '--aa') o.aa = true;
    else if (a === '--no-latency') o.noLatency = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.demo) throw new Error('--demo <path of dist/demo-server.js> is required');
  return o;
}

const progress = (text: string) => process.stderr.write(`[bench ${process.pid}] ${text}\n`);

/** The `p`-th percentile (0..100) of sorted values, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The median of unsorted values. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

// ---------------------------------------------------------------------------------------------
// Timing wrapper

/**
 * A transparent transport wrapper that timestamps (hrtime, ns) every `input_required` result it
 * hands up and every retry (a request carrying `inputResponses`) after the inner transport has
 * written it. Exposes the inner transport's `pid`/`stderr` when it has them, so the SDK still
 * treats a stdio transport as stdio and an HTTP one as HTTP. Changes no message.
 */
export class TimingTransport extends ForwardingTransport {
  /** JSON-RPC id of an `input_required` result -> when it arrived. */
  readonly received = new Map<string | number, bigint>();
  /** JSON-RPC id of a retry -> when it was written. */
  readonly written = new Map<string | number, bigint>();
  /** Arrival of the latest `input_required` (for the SDK's driver, whose retries we cannot link by id). */
  lastReceived?: bigint;
  /** Host latencies measured by pairing {@link lastReceived} with the next retry (sequential use only), ns. */
  readonly sequentialLatencies: number[] = [];

  protected override receive(message: JSONRPCMessage, extra?: MessageExtra): void {
    const result = (message as { result?: { resultType?: unknown } }).result;
    if (result && result.resultType === 'input_required' && 'id' in message) {
      const now = process.hrtime.bigint();
      this.received.set(message.id as string | number, now);
      this.lastReceived = now;
    }
    super.receive(message, extra);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const sent = super.send(message, options);
    const params = (message as { params?: { inputResponses?: unknown } }).params;
    if (params?.inputResponses !== undefined && 'id' in message) {
      const now = process.hrtime.bigint();
      this.written.set(message.id as string | number, now);
      if (this.lastReceived !== undefined) {
        this.sequentialLatencies.push(Number(now - this.lastReceived));
        this.lastReceived = undefined;
      }
    }
    return sent;
  }
}

// ---------------------------------------------------------------------------------------------
// Drivers

/** One call of the tool, however driven; resolves with the result's first text. */
type CallFn = () => Promise<string>;

interface Driver {
  name: 'ours' | 'sdk';
  call: CallFn;
  close(): Promise<void>;
  timing?: TimingTransport;
}

/** An input provider that answers roots at once and declares nothing else. */
export const INSTANT_ROOTS: InputProvider = {
  capabilities: { roots: {} },
  elicit: () => Promise.reject(new Error('not asked in the benchmark')),
  sample: () => Promise.reject(new Error('not asked in the benchmark')),
  listRoots: async () => ROOTS,
};

function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content;
  return content?.[0]?.text ?? JSON.stringify(result);
}

function stdioSpec(demo: string): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: [demo], env: { ...(process.env as Record<string, string>) } };
}

/**
 * Our driver. With `timed`, the transport is wrapped in a {@link TimingTransport} (a `custom` spec
 * of kind stdio/http, built exactly as ServerConnection builds its own) and every call's retry
 * events are recorded, so latencies can be paired by JSON-RPC id even with calls in flight.
 */
async function ourDriver(target: Target, timed: boolean): Promise<Driver & { latencies: number[] }> {
  let timing: TimingTransport | undefined;
  let spec: ServerSpec;
  if (!timed) {
    spec = target.kind === 'stdio' ? { transport: 'stdio', name: 'demo', ...stdioSpec(target.demo) } : { transport: 'http', name: 'demo', url: target.url };
  } else {
    spec = {
      transport: 'custom',
      name: 'demo',
      kind: target.kind,
      create: () => {
        const inner: Transport =
          target.kind === 'stdio' ? new StdioClientTransport({ ...stdioSpec(target.demo), stderr: 'pipe' }) : new StreamableHTTPClientTransport(new URL(target.url));
        timing = new TimingTransport(inner);
        return timing;
      },
    };
  }
  const conn = new ServerConnection(spec, { provider: INSTANT_ROOTS });
  await conn.ensureConnected();
  if (conn.era !== 'modern') throw new Error(`our driver negotiated ${conn.era}, expected modern`);
  const latencies: number[] = [];
  const onEvent = timed
    ? (e: HostEvent) => {
        if (e.kind !== 'retry' || e.id === undefined || e.previousId === undefined) return;
        const out = timing!.written.get(e.id);
        const inn = timing!.received.get(e.previousId);
        timing!.written.delete(e.id);
        timing!.received.delete(e.previousId);
        if (out !== undefined && inn !== undefined) latencies.push(Number(out - inn));
      }
    : undefined;
  const params = { name: TOOL, arguments: {} };
  const options = onEvent ? { onEvent } : process.env.MCP_ROUNDTRIP_BENCH_EVENTS ? { onEvent: () => {} } : {};
  return {
    name: 'ours',
    call: async () => textOf((await callWithRoundTrips(conn, 'tools/call', params, options)).result),
    close: () => conn.close(),
    get timing() {
      return timing;
    },
    latencies,
  };
}

/** The SDK's automatic driver: a plain Client answering `roots/list` itself. */
async function sdkDriver(target: Target, timed: boolean): Promise<Driver> {
  const client = new Client({ name: 'bench-sdk', version: '1.0.0' }, { capabilities: { roots: {} }, versionNegotiation: { mode: 'auto' } });
  client.setRequestHandler('roots/list', async () => ROOTS);
  const inner: Transport =
    target.kind === 'stdio' ? new StdioClientTransport({ ...stdioSpec(target.demo), stderr: 'pipe' }) : new StreamableHTTPClientTransport(new URL(target.url));
  (inner as { stderr?: { resume?: () => void } }).stderr?.resume?.();
  const timing = timed ? new TimingTransport(inner) : undefined;
  await client.connect(timing ?? inner);
  if (client.getProtocolEra() !== 'modern') throw new Error(`the SDK negotiated ${client.getProtocolEra()}, expected modern`);
  return {
    name: 'sdk',
    call: async () => textOf(await client.callTool({ name: TOOL, arguments: {} })),
    close: () => client.close(),
    timing,
  };
}

type Target = { kind: 'stdio'; demo: string } | { kind: 'http'; url: string; demo: string };

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
  return { rounds: ns.length, p50Us: round1(percentile(sorted, 50) / 1e3), p99Us: round1(percentile(sorted, 99) / 1e3), maxUs: round1((sorted[sorted.length - 1] ?? NaN) / 1e3) };
}

/** Paired, alternated blocks of ours and the SDK's; `calls` per driver in `blocks` blocks. */
async function compare(ours: Driver, sdk: Driver, calls: number, blocks: number, concurrency: number): Promise<ModeReport> {
  const per = Math.ceil(calls / blocks);
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
    pairRatios,
    medianRatio: round3(median(pairRatios)),
    cpuPairRatios,
    medianCpuRatio: round3(median(cpuPairRatios)),
  };
}

async function startHttpDemo(demo: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [demo, '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`demo server exited (${code}) before listening: ${stderr}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (m) resolve({ url: m[1], child });
    });
  });
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  let http: { url: string; child: ChildProcess } | undefined;
  const target: Target = o.transport === 'stdio' ? { kind: 'stdio', demo: o.demo } : { kind: 'http', demo: o.demo, url: (http = await startHttpDemo(o.demo)).url };
  try {
    if (o.profile) {
      const d = o.profile === 'ours' ? await ourDriver(target, false) : await sdkDriver(target, false);
      await runBlock(d.call, o.warmup, o.concurrency);
      const { durations, elapsedNs, cpuUs } = await runBlock(d.call, o.calls, o.concurrency);
      // Sockets, timers, child processes still open after the calls: a leak shows here.
      const activeHandles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length;
      await d.close();
      process.stdout.write(`${JSON.stringify({ profile: o.profile, transport: o.transport, ...driverStats(durations, elapsedNs, cpuUs), activeHandles })}\n`);
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
    progress(`${o.transport}: ${o.calls} calls per driver, sequential, ${o.blocks} paired blocks`);
    const sequential = await compare(ours, sdk, o.calls, o.blocks, 1);
    progress(`${o.transport}: ${o.calls} calls per driver, ${o.concurrency} in flight, ${o.blocks} paired blocks`);
    const concurrent = await compare(ours, sdk, o.calls, o.blocks, o.concurrency);
    await ours.close();
    await sdk.close();
    if (o.noLatency) {
      const none: LatencyStats = { rounds: 0, p50Us: NaN, p99Us: NaN, maxUs: NaN };
      const report: TransportReport = { transport: o.transport, node: process.version, sequential, concurrent, hostLatency: { sequential: none, concurrent: none, sdkSequential: none } };
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }

    // Host latency: timed drivers (same driver code; only the transport is wrapped).
    progress(`${o.transport}: host latency, ${o.latencyCalls} calls sequential and ${o.concurrency} in flight`);
    const timedOurs = await ourDriver(target, true);
    const timedSdk = await sdkDriver(target, true);
    await runBlock(timedOurs.call, o.warmup, 1);
    await runBlock(timedSdk.call, o.warmup, 1);
    timedOurs.latencies.length = 0;
    timedSdk.timing!.sequentialLatencies.length = 0;
    await runBlock(timedOurs.call, o.latencyCalls, 1);
    const seqLatencies = timedOurs.latencies.splice(0);
    await runBlock(timedOurs.call, o.latencyCalls, o.concurrency);
    const concLatencies = timedOurs.latencies.splice(0);
    await runBlock(timedSdk.call, o.latencyCalls, 1);
    const sdkLatencies = timedSdk.timing!.sequentialLatencies.splice(0);
    await timedOurs.close();
    await timedSdk.close();
    for (const [what, list] of [['sequential', seqLatencies], ['concurrent', concLatencies], ['SDK sequential', sdkLatencies]] as const) {
      if (list.length !== o.latencyCalls) throw new Error(`host latency (${what}): paired ${list.length} rounds of ${o.latencyCalls}`);
    }
    const report: TransportReport = {
      transport: o.transport,
      node: process.version,
      sequential,
      concurrent,
      hostLatency: { sequential: latencyStats(seqLatencies), concurrent: latencyStats(concLatencies), sdkSequential: latencyStats(sdkLatencies) },
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    http?.child.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[bench] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
