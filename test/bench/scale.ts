/**
 * Scale and soak benchmark, one mode per process (bundled and run by test/bench/run.mjs, with
 * `--expose-gc` so that memory is read after full collections):
 *
 * - `--mode scale`: `--calls` concurrent `where_am_i` calls on one connection to the demo server.
 *   Each call has its own input provider answering a root that names the call, and the tool's answer
 *   must name that root (no state mixed between calls). Memory: every call held in its round (the
 *   providers wait on one gate) and the host's heap and RSS read against the same connection idle,
 *   per in-flight call; the SDK's automatic driver held the same way is the reference. Throughput:
 *   batches of all the calls at once with instant answers, ours and the SDK's alternated, per pair
 *   the ratio of elapsed times; per-round latency (input_required received → retry written, behind
 *   every other call's work) for ours.
 * - `--mode soak`: `--rounds` rounds (one per call, `--concurrency` in flight) in this one process,
 *   heap and RSS sampled after a full collection every `--sample-every` rounds; the least-squares
 *   slope after the warm-up (`--warmup-rounds`, default 20 000, sampled the same way: the first
 *   collections shrink the heap and the rounds after them grow it back once) with its 95% interval,
 *   and the abort listeners, timers and handles left after the soak against before it.
 *
 *   node --expose-gc scale.js --demo <dist/demo-server.js> --mode scale --transport http|stdio [--calls 1000] [--batches 3]
 *   node --expose-gc scale.js --demo <dist/demo-server.js> --mode soak [--transport stdio] [--rounds 100000] [--concurrency 8] [--driver ours|sdk|floor] [--keep-bytes-per-round N]
 *
 * `--keep-bytes-per-round N`: the soak keeps N bytes per measured round itself (a leak of known size),
 * to check that its slope sees one: with N = 2 the RSS slope should read about 2 KB per 1000 rounds.
 *
 * `--driver floor` (soak over stdio): a hand-written client in the host's place ({@link floorHost}),
 * the least a Node process can hold for these rounds: what its RSS does is Node's own I/O.
 *
 * Prints one JSON object on stdout; progress on stderr.
 */
import type { ChildProcess } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { Client, type ListRootsResult } from '@modelcontextprotocol/client';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import type { HostEvent } from '../../src/core/log/events';
import { callWithRoundTrips } from '../../src/core/mrtr/driver';
import type { InputProvider } from '../../src/core/inputs/inputProvider';
import {
  newTransport,
  percentile,
  ROOTS,
  runBenchMain,
  startHttpDemo,
  textOf,
  timedSpec,
  TOOL,
  type TimingTransport,
  type Target,
} from './drivers';

interface Options {
  demo: string;
  mode: 'scale' | 'soak';
  transport: 'stdio' | 'http';
  calls: number;
  batches: number;
  rounds: number;
  concurrency: number;
  sampleEvery: number;
  warmupRounds: number;
  driver: 'ours' | 'sdk' | 'floor';
  /** The soak's positive control: bytes kept (written, so resident) per measured round, 0 for none. */
  keepBytesPerRound: number;
}

function parseOptions(argv: string[]): Options {
  const int = { type: 'string' } as const;
  const { values: v } = parseArgs({
    args: argv,
    strict: true,
    options: {
      demo: int,
      mode: int,
      transport: int,
      calls: int,
      batches: int,
      rounds: int,
      concurrency: int,
      'sample-every': int,
      'warmup-rounds': int,
      driver: int,
      'keep-bytes-per-round': int,
    },
  });
  // Whole numbers from `min` on: a 0 or a word would leave a loop that never advances.
  const n = (value: string | undefined, dflt: number, name = '', min = 0) => {
    if (value === undefined) return dflt;
    const x = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(x) || x < min)
      throw new Error(`--${name} must be a whole number of at least ${min}, not ${JSON.stringify(value)}`);
    return x;
  };
  if (!v.demo) throw new Error('--demo <path of dist/demo-server.js> is required');
  return {
    demo: v.demo,
    mode: v.mode === 'soak' ? 'soak' : 'scale',
    transport: v.transport === 'stdio' ? 'stdio' : 'http',
    calls: n(v.calls, 1000, 'calls', 1),
    batches: n(v.batches, 3, 'batches', 1),
    rounds: n(v.rounds, 100_000, 'rounds'),
    concurrency: n(v.concurrency, 8, 'concurrency', 1),
    sampleEvery: n(v['sample-every'], 1000, 'sample-every', 1),
    warmupRounds: n(v['warmup-rounds'], 20_000, 'warmup-rounds'),
    driver: v.driver === 'sdk' || v.driver === 'floor' ? v.driver : 'ours',
    keepBytesPerRound: n(v['keep-bytes-per-round'], 0, 'keep-bytes-per-round'),
  };
}

const progress = (text: string) => process.stderr.write(`[bench ${process.pid}] ${text}\n`);
const round1 = (n: number) => Math.round(n * 10) / 10;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Two full collections (the second frees what the first's finalizers released), then the memory. */
function memory(): { heapUsed: number; rss: number; external: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss, external: m.external };
}

/**
 * {@link memory} for the soak, read once V8's background threads had time to give freed pages back
 * (read at once, RSS moves by megabytes from one sample to the next).
 */
async function settledMemory(): Promise<{ heapUsed: number; rss: number; external: number }> {
  memory();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return memory();
}

/** How long the soak lets freed pages go back before each sample, ms. */
const SETTLE_MS = 100;

/** The root that names call `i`, and the line the tool's answer must hold for it. */
function rootOf(i: number): { roots: ListRootsResult; line: string } {
  const uri = `file:///bench/call-${i}`;
  return { roots: { roots: [{ uri, name: `call-${i}` }] }, line: `- call-${i}: ${uri}` };
}

/** A provider for call `i` that answers its own root, after `gate` when given. */
function callProvider(i: number, gate?: { entered: () => void; open: Promise<void> }): InputProvider {
  const { roots } = rootOf(i);
  return {
    capabilities: { roots: {} },
    elicit: () => Promise.reject(new Error('not asked in the benchmark')),
    sample: () => Promise.reject(new Error('not asked in the benchmark')),
    listRoots: async () => {
      if (gate) {
        gate.entered();
        await gate.open;
      }
      return roots;
    },
  };
}

/** A gate that opens by hand, and a promise resolved once `n` callers entered it. */
function makeGate(n: number): { gate: { entered: () => void; open: Promise<void> }; allIn: Promise<void>; release: () => void } {
  let release!: () => void;
  let allIn!: () => void;
  const open = new Promise<void>((r) => (release = r));
  const all = new Promise<void>((r) => (allIn = r));
  let count = 0;
  return { gate: { entered: () => void (++count === n && allIn()), open }, allIn: all, release };
}

/** Our host over one connection, with per-call providers and host latencies paired by JSON-RPC id. */
async function ourHost(target: Target, keepLatencies = true) {
  let timing!: TimingTransport;
  const conn = new ServerConnection(
    timedSpec(target, (t) => (timing = t)),
    { provider: callProvider(-1) },
  );
  await conn.ensureConnected();
  if (conn.era !== 'modern') throw new Error(`our host negotiated ${conn.era}, expected modern`);
  const latencies: number[] = [];
  const onEvent = (e: HostEvent) => {
    if (e.kind !== 'retry' || e.id === undefined || e.previousId === undefined) return;
    const out = timing.written.get(e.id);
    const inn = timing.received.get(e.previousId);
    timing.written.delete(e.id);
    timing.received.delete(e.previousId);
    if (keepLatencies && out !== undefined && inn !== undefined) latencies.push(Number(out - inn));
  };
  const params = { name: TOOL, arguments: {} };
  /** Call `i`: resolves with whether its answer names its own root. */
  const call = async (i: number, gate?: { entered: () => void; open: Promise<void> }) => {
    const r = await callWithRoundTrips(conn, 'tools/call', params, { provider: callProvider(i, gate), onEvent });
    return textOf(r.result).includes(rootOf(i).line);
  };
  return {
    conn,
    call,
    latencies,
    get timing() {
      return timing;
    },
  };
}

/** The SDK's automatic driver over one connection (one roots handler: it cannot tell calls apart). */
async function sdkHost(target: Target) {
  const client = new Client({ name: 'bench-sdk', version: '1.0.0' }, { capabilities: { roots: {} }, versionNegotiation: { mode: 'auto' } });
  let gate: { entered: () => void; open: Promise<void> } | undefined;
  client.setRequestHandler('roots/list', async () => {
    if (gate) {
      gate.entered();
      await gate.open;
    }
    return ROOTS;
  });
  await client.connect(newTransport(target));
  if (client.getProtocolEra() !== 'modern') throw new Error(`the SDK negotiated ${client.getProtocolEra()}, expected modern`);
  return {
    client,
    call: async () => textOf(await client.callTool({ name: TOOL, arguments: {} })).includes('- project: file:///home/bench/project'),
    setGate: (g: typeof gate) => (gate = g),
  };
}

/**
 * The floor of the soak: the least a Node client can do for these rounds over stdio. It spawns the
 * server and writes newline-delimited JSON-RPC by hand (rawStdio.mjs), answers each `input_required`
 * with the call's root and the `requestState` echoed, and checks the answer names that root. There is
 * no SDK, no schema checks and no limits. Same calls, same sampling as the hosts measured.
 */
async function floorHost(target: Target) {
  if (target.kind !== 'stdio') throw new Error('the floor client speaks stdio only');
  const { rawStdio } = await import('./rawStdio.mjs');
  const { request, close } = rawStdio(target.demo, 'bench-floor');
  await request('server/discover', {});
  const call = async (i: number) => {
    const { roots, line } = rootOf(i);
    let extra: Record<string, unknown> = {};
    for (;;) {
      const { result: r } = await request('tools/call', { name: TOOL, arguments: {}, ...extra });
      if (!r) return false;
      if (r.resultType !== 'input_required') return textOf(r).includes(line);
      extra = {
        inputResponses: Object.fromEntries(Object.keys((r.inputRequests as object) ?? {}).map((k) => [k, roots])),
        requestState: r.requestState,
      };
    }
  };
  return { call, close };
}

/** Heap and RSS per call while `n` calls wait in their round, against the same host idle. */
async function heldMemory(
  n: number,
  start: (gate: { entered: () => void; open: Promise<void> }) => Promise<boolean>[],
): Promise<{ heapPerCallBytes: number; rssPerCallBytes: number; wrong: number }> {
  const idle = memory();
  const { gate, allIn, release } = makeGate(n);
  const calls = start(gate);
  await allIn;
  const held = memory();
  release();
  const ok = await Promise.all(calls);
  return {
    heapPerCallBytes: Math.round((held.heapUsed - idle.heapUsed) / n),
    rssPerCallBytes: Math.round((held.rss - idle.rss) / n),
    wrong: ok.filter((x) => !x).length,
  };
}

async function scale(o: Options, target: Target) {
  const ours = await ourHost(target);
  const sdk = await sdkHost(target);
  const n = o.calls;
  const batch = async (call: (i: number) => Promise<boolean>) => {
    const t0 = process.hrtime.bigint();
    const ok = await Promise.all(Array.from({ length: n }, (_, i) => call(i)));
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, wrong: ok.filter((x) => !x).length };
  };
  progress(`${o.transport}: warm-up (two batches of ${n} concurrent calls each)`);
  for (let i = 0; i < 2; i++) {
    await batch((c) => ours.call(c));
    await batch(() => sdk.call());
  }
  ours.latencies.length = 0;
  progress(`${o.transport}: ${o.batches} paired batches of ${n} concurrent calls, ours and the SDK's alternated`);
  const pairs: { oursMs: number; sdkMs: number; ratio: number }[] = [];
  let wrong = 0;
  for (let b = 0; b < o.batches; b++) {
    const got: Record<string, number> = {};
    for (const which of b % 2 === 0 ? ['ours', 'sdk'] : ['sdk', 'ours']) {
      const r = which === 'ours' ? await batch((c) => ours.call(c)) : await batch(() => sdk.call());
      wrong += r.wrong;
      got[which] = r.ms;
    }
    pairs.push({ oursMs: round1(got.ours), sdkMs: round1(got.sdk), ratio: round3(got.ours / got.sdk) });
  }
  const lat = ours.latencies.splice(0).sort((a, b) => a - b);
  progress(`${o.transport}: memory with ${n} calls held in their round (ours, then the SDK's)`);
  const oursHeld = await heldMemory(n, (gate) => Array.from({ length: n }, (_, i) => ours.call(i, gate)));
  const sdkHeld = await heldMemory(n, (gate) => {
    sdk.setGate(gate);
    return Array.from({ length: n }, () => sdk.call());
  });
  sdk.setGate(undefined);
  const listeners = getEventListeners(ours.conn.lostSignal, 'abort').length;
  await ours.conn.close();
  await sdk.client.close();
  const callsPerSec = (ms: number) => Math.round(n / (ms / 1000));
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return {
    mode: 'scale',
    transport: o.transport,
    calls: n,
    batches: o.batches,
    wrongAnswers: wrong + oursHeld.wrong,
    sdkWrongAnswers: sdkHeld.wrong,
    ours: {
      callsPerSec: callsPerSec(med(pairs.map((p) => p.oursMs))),
      roundLatencyUs: {
        p50: round1(percentile(lat, 50) / 1e3),
        p90: round1(percentile(lat, 90) / 1e3),
        p99: round1(percentile(lat, 99) / 1e3),
        max: round1(lat[lat.length - 1] / 1e3),
        rounds: lat.length,
      },
    },
    sdk: { callsPerSec: callsPerSec(med(pairs.map((p) => p.sdkMs))) },
    pairs,
    timeRatios: pairs.map((p) => p.ratio),
    memoryPerInFlightCall: { ours: oursHeld, sdk: sdkHeld, ratioHeap: round3(oursHeld.heapPerCallBytes / sdkHeld.heapPerCallBytes) },
    /** Abort listeners left on the connection's signal once every call ended (0: none left behind). */
    lostSignalListenersAfter: listeners,
  };
}

/** The 95% interval of the least-squares slope of y over x (± 1.96 standard errors), in the units of y per x. */
function slopeCI(xs: number[], ys: number[]): [number, number] | null {
  const n = xs.length;
  if (n < 4) return null;
  const b = slope(xs, ys);
  const mx = xs.reduce((a, v) => a + v, 0) / n;
  const my = ys.reduce((a, v) => a + v, 0) / n;
  const a0 = my - b * mx;
  const sse = xs.reduce((acc, x, i) => acc + (ys[i] - (a0 + b * x)) ** 2, 0);
  const sxx = xs.reduce((acc, x) => acc + (x - mx) ** 2, 0);
  const se = Math.sqrt(sse / (n - 2) / sxx);
  return [b - 1.96 * se, b + 1.96 * se];
}

/**
 * The Theil–Sen slope of y over x (the median of the slopes of every pair of points) with its 95%
 * interval by Sen's ranks: RSS steps between a few levels a page run apart, and a least-squares line
 * leans on whichever level the last samples happened to be at; the median of pairs does not.
 */
function theilSen(xs: number[], ys: number[]): { slope: number; ci95: [number, number] | null } {
  const slopes: number[] = [];
  for (let i = 0; i < xs.length; i++)
    for (let j = i + 1; j < xs.length; j++) if (xs[j] !== xs[i]) slopes.push((ys[j] - ys[i]) / (xs[j] - xs[i]));
  slopes.sort((a, b) => a - b);
  const n = xs.length;
  const m = slopes.length;
  if (m === 0) return { slope: NaN, ci95: null };
  const mid = m % 2 ? slopes[(m - 1) / 2] : (slopes[m / 2 - 1] + slopes[m / 2]) / 2;
  const c = 1.96 * Math.sqrt((n * (n - 1) * (2 * n + 5)) / 18);
  const lo = Math.floor((m - c) / 2);
  const hi = Math.ceil((m + c) / 2);
  return { slope: mid, ci95: lo >= 0 && hi < m ? [slopes[lo], slopes[hi]] : null };
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den ? num / den : NaN;
}

/** Bytes used in each V8 heap space. */
function heapSpaces(): Record<string, number> {
  return Object.fromEntries(getHeapSpaceStatistics().map((sp) => [sp.space_name, sp.space_used_size]));
}

/** The kinds of mapping {@link rssByMapping} sums resident memory by. */
const MAPPING_KINDS = ['mallocHeap', 'anonymous', 'files', 'other'] as const;

/**
 * Resident KB of this process by kind of mapping, from /proc/self/smaps (Linux), added into `into`
 * (indexed as {@link MAPPING_KINDS}; false and left as it was where there is no /proc):
 * `mallocHeap` (glibc's brk heap), `anonymous` (unnamed mappings: V8's heap pages, malloc's mmapped
 * arenas, thread stacks), `files` (the node binary, shared libraries), `other` ([stack], [vdso]...).
 * Tells which allocator an RSS slope belongs to; the V8 heap's own part is in {@link heapSpaces}.
 */
function rssByMapping(into: Float64Array): boolean {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return false;
  }
  into.fill(0);
  let kind = 3;
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      kind = name === '[heap]' ? 0 : name === '' ? 1 : name.startsWith('/') ? 2 : 3;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) into[kind] += Number(rss[1]);
  }
  return true;
}

/**
 * The soak's samples, in columns allocated before the first one: taking a sample allocates nothing
 * that stays, so the harness adds nothing to the slopes it measures (an array of sample objects grew
 * the heap by about 0.3 KB per sample, for every driver alike).
 */
class SampleTable {
  readonly rounds: Float64Array;
  readonly heapUsed: Float64Array;
  readonly rss: Float64Array;
  readonly external: Float64Array;
  /** V8's heap pages that are resident (`total_physical_size`), bytes: the part of `anonymous` that is V8's. */
  readonly v8Physical: Float64Array;
  /** Resident KB per kind of mapping ({@link MAPPING_KINDS}), one row of four per sample. */
  readonly mappings: Float64Array;
  /** False once a sample found no /proc/self/smaps. */
  hasMappings = true;
  length = 0;
  private readonly row = new Float64Array(MAPPING_KINDS.length);

  /** @param capacity the most samples it takes; one more throws */
  constructor(readonly capacity: number) {
    this.rounds = new Float64Array(capacity);
    this.heapUsed = new Float64Array(capacity);
    this.rss = new Float64Array(capacity);
    this.external = new Float64Array(capacity);
    this.v8Physical = new Float64Array(capacity);
    this.mappings = new Float64Array(capacity * MAPPING_KINDS.length);
  }

  /** Records memory `m` read after `rounds` rounds, and the resident memory by mapping read now. */
  add(rounds: number, m: { heapUsed: number; rss: number; external: number }): void {
    const i = this.length;
    if (!(i < this.capacity)) throw new Error(`soak sample table full (${this.capacity} samples)`);
    this.rounds[i] = rounds;
    this.heapUsed[i] = m.heapUsed;
    this.rss[i] = m.rss;
    this.external[i] = m.external;
    this.v8Physical[i] = getHeapStatistics().total_physical_size;
    if (rssByMapping(this.row)) this.mappings.set(this.row, i * MAPPING_KINDS.length);
    else this.hasMappings = false;
    this.length = i + 1;
  }

  /** Column `c` of the samples taken, as a plain array. */
  column(c: Float64Array): number[] {
    return Array.from(c.subarray(0, this.length));
  }

  /** Resident KB of mapping kind `k` ({@link MAPPING_KINDS} index), per sample. */
  mapping(k: number): number[] {
    return Array.from({ length: this.length }, (_, i) => this.mappings[i * MAPPING_KINDS.length + k]);
  }
}

/** The least-squares slope of the lowest point of each tenth of `points` ([x, y], in x order). */
function floorSlope(points: [number, number][]): number {
  const tenth = Math.max(1, Math.floor(points.length / 10));
  const floors: [number, number][] = [];
  for (let i = 0; i + tenth <= points.length; i += tenth) {
    const part = points.slice(i, i + tenth);
    const low = part.reduce((a, b) => (b[1] < a[1] ? b : a));
    floors.push([part.reduce((n, p) => n + p[0], 0) / part.length, low[1]]);
  }
  return slope(
    floors.map((p) => p[0]),
    floors.map((p) => p[1]),
  );
}

/** What this process holds open, by kind (timers, sockets, pipes...). */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

async function soak(o: Options, target: Target) {
  // No latencies kept: the soak measures what the host itself keeps. `--driver sdk`: the SDK's
  // automatic driver in our host's place, the reference of the same harness.
  const ours = o.driver === 'ours' ? await ourHost(target, false) : undefined;
  const sdk = o.driver === 'sdk' ? await sdkHost(target) : undefined;
  const floor = o.driver === 'floor' ? await floorHost(target) : undefined;
  const host = {
    call: (i: number) => (ours ? ours.call(i) : sdk ? sdk.call() : floor!.call(i)),
    listeners: () => (ours ? getEventListeners(ours.conn.lostSignal, 'abort').length : 0),
    close: () => (ours ? ours.conn.close() : sdk ? sdk.client.close() : floor!.close()),
  };
  let done = 0;
  let wrong = 0;
  const samples = new SampleTable(Math.ceil((o.rounds - Math.min(o.warmupRounds, o.rounds)) / o.sampleEvery) + 1);
  const run = async (upTo: number) => {
    let next = done;
    const worker = async () => {
      while (next < upTo) {
        const i = next++;
        if (!(await host.call(i))) wrong++;
        done++;
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  };
  progress(`soak over ${o.transport}: ${o.rounds} rounds, ${o.concurrency} in flight, sampled every ${o.sampleEvery}`);
  // The warm-up is sampled like the rest (and those samples left out of the slopes): the first full
  // collections shrink the heap's pages, and the rounds after them grow them back by megabytes once.
  const warmup = Math.min(o.warmupRounds, o.rounds);
  let warmupSamples = 0;
  while (done < warmup) {
    await settledMemory();
    warmupSamples++;
    await run(Math.min(warmup, done + o.sampleEvery));
  }
  const before = { resources: resources(), listeners: host.listeners() };
  // Read once before the heap spaces: V8 keeps the last regular-expression subject (a slice of the
  // smaps text) alive, a one-off large object that every sample from the first on holds.
  rssByMapping(new Float64Array(MAPPING_KINDS.length));
  memory();
  const spacesAfterWarmup = heapSpaces();
  const t0 = Date.now();
  const kept: Buffer[] = [];
  while (done < o.rounds) {
    samples.add(done, await settledMemory());
    const from = done;
    await run(Math.min(o.rounds, done + o.sampleEvery));
    // Filled, not zeroed: a zeroed allocation can stay untouched pages that RSS never counts.
    if (o.keepBytesPerRound > 0) kept.push(Buffer.alloc(o.keepBytesPerRound * (done - from), 1));
  }
  samples.add(done, await settledMemory());
  // After a collection, as after the warm-up: reading smaps above left its garbage in the young generation.
  memory();
  const spacesAtEnd = heapSpaces();
  const seconds = (Date.now() - t0) / 1000;
  const after = { resources: resources(), listeners: host.listeners() };
  await host.close();
  const rounds = samples.column(samples.rounds);
  const xs = rounds.map((r) => r / 1000);
  const rss = samples.column(samples.rss);
  const heap = samples.column(samples.heapUsed);
  const external = samples.column(samples.external);
  const v8Physical = samples.column(samples.v8Physical);
  const rssRobust = theilSen(xs, rss);
  const kb = (v: number) => round3(v / 1024);
  const n = samples.length;
  return {
    mode: 'soak',
    driver: o.driver,
    transport: o.transport,
    keptBytesPerRound: o.keepBytesPerRound,
    keptKB: round1(kept.reduce((sum, b) => sum + b.length, 0) / 1024),
    rounds: done,
    warmupRounds: warmup,
    warmupSamples,
    concurrency: o.concurrency,
    wrongAnswers: wrong,
    roundsPerSec: Math.round((done - samples.rounds[0]) / seconds),
    samples: n,
    heapSlopeKBPer1000Rounds: kb(slope(xs, heap)),
    /** RSS after a full collection still moves from sample to sample (pages the allocator keeps or returns): the least-squares and the Theil–Sen slope of every sample, and the slope of the lowest one of each tenth of the run (what stays held). */
    rssSlopeKBPer1000Rounds: kb(slope(xs, rss)),
    rssTheilSenKBPer1000Rounds: kb(rssRobust.slope),
    rssTheilSenCI95: rssRobust.ci95?.map(kb) ?? null,
    rssSlopeCI95: slopeCI(xs, rss)?.map(kb) ?? null,
    heapSlopeCI95: slopeCI(xs, heap)?.map(kb) ?? null,
    rssFloorSlopeKBPer1000Rounds: kb(floorSlope(xs.map((x, i): [number, number] => [x, rss[i]]))),
    heapMB: { afterWarmup: round1(heap[0] / 2 ** 20), end: round1(heap[n - 1] / 2 ** 20) },
    rssMB: { afterWarmup: round1(rss[0] / 2 ** 20), end: round1(rss[n - 1] / 2 ** 20) },
    before,
    after,
    /** Growth of each V8 heap space from the warm-up's end to the soak's end, KB (code and maps are the JIT's, not data). */
    heapSpaceGrowthKB: Object.fromEntries(
      Object.keys(spacesAtEnd).map((k) => [k, Math.round((spacesAtEnd[k] - (spacesAfterWarmup[k] ?? 0)) / 1024)]),
    ),
    /** The Theil–Sen slope of V8's resident heap pages, KB per 1000 rounds: the V8 part of the RSS slope (the rest is malloc, stacks, files). */
    v8PhysicalTheilSenKBPer1000Rounds: kb(theilSen(xs, v8Physical).slope),
    /** The Theil–Sen slope of each kind of mapping's resident memory ({@link rssByMapping}), KB per 1000 rounds: which allocator the RSS slope is (null: no /proc). */
    rssTheilSenByMappingKBPer1000Rounds: samples.hasMappings
      ? Object.fromEntries(MAPPING_KINDS.map((k, j) => [k, round3(theilSen(xs, samples.mapping(j)).slope)]))
      : null,
    series: rounds.map((r, i) => ({
      rounds: r,
      heapKB: Math.round(heap[i] / 1024),
      rssKB: Math.round(rss[i] / 1024),
      externalKB: Math.round(external[i] / 1024),
    })),
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
    const report = o.mode === 'soak' ? await soak(o, target) : await scale(o, target);
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    http?.child.kill('SIGTERM');
  }
}

runBenchMain(main);
