/**
 * What runs in a round's window (the `input_required` received → the retry written, as
 * `TimingTransport` in drivers.ts stamps it), for our driver and then the SDK's automatic driver,
 * each on the demo's `where_am_i`, in one process:
 *
 * - pass `hooks` (default): the callbacks run in the window and the async resources created in it,
 *   per round, by where they were created (async hooks; slow, for counting only);
 * - pass `heap`: per window the heap allocated (V8's used heap before and after: a median, in bytes),
 *   the window's p50 / p99 (µs, with the cost of the stamps in them), and how many windows a garbage
 *   collection overlapped (perf_hooks `gc` entries).
 *
 *   npx esbuild test/bench/window.ts --bundle --platform=node --format=cjs --main-fields=module,main --outfile=/tmp/window.js
 *   node /tmp/window.js --demo dist/demo-server.js [--transport http|stdio] [--rounds 500] [--pass hooks|heap]
 *
 * Prints a plain-text report on stdout.
 */
import { createHook } from 'node:async_hooks';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { JSONRPCMessage, TransportSendOptions } from '@modelcontextprotocol/client';
import { ourDriver, runBenchMain, sdkDriver, startHttpDemo, TimingTransport, type Target } from './drivers';

/** The window's state and what each pass collects in it. */
const w = {
  open: false,
  heapAt: 0,
  startedAt: 0,
  created: new Map<string, number>(),
  ran: new Map<string, number>(),
  allocated: [] as number[],
  spans: [] as [number, number][],
  collections: [] as [number, number][],
};

/** Where an async resource was created: its type and the first four frames outside Node's hooks and timers. */
const origins = new Map<number, string>();
const origin = (type: string) =>
  `${type} ${new Error()
    .stack!.split('\n')
    .slice(2)
    .filter((l) => !/async_hooks|AsyncHook\.init|node:timers|internal\/timers|new Promise|origin \(/.test(l))
    .slice(0, 4)
    .map((l) => l.trim().replace(/\(.*\/(.*?:\d+):\d+\)/, '$1'))
    .join(' < ')}`;
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

const hook = createHook({
  init(id, type) {
    const where = origin(type);
    origins.set(id, where);
    if (w.open) bump(w.created, where);
  },
  before(id) {
    if (w.open) bump(w.ran, origins.get(id) ?? '?');
  },
  destroy(id) {
    origins.delete(id);
  },
});

// The window is stamped where the bench stamps it (its TimingTransport wraps both drivers' transports).
const receive = (TimingTransport.prototype as unknown as { receive: (m: JSONRPCMessage, e?: unknown) => void }).receive;
(TimingTransport.prototype as unknown as { receive: (m: JSONRPCMessage, e?: unknown) => void }).receive = function (
  this: TimingTransport,
  m,
  e,
) {
  if ((m as { result?: { resultType?: unknown } }).result?.resultType === 'input_required') {
    w.open = true;
    w.heapAt = getHeapStatistics().used_heap_size;
    w.startedAt = performance.now();
  }
  return receive.call(this, m, e);
};
const send = TimingTransport.prototype.send;
TimingTransport.prototype.send = function (this: TimingTransport, m: JSONRPCMessage, o?: TransportSendOptions) {
  const sent = send.call(this, m, o);
  if (w.open && (m as { params?: { inputResponses?: unknown } }).params?.inputResponses !== undefined) {
    w.open = false;
    w.spans.push([w.startedAt, performance.now()]);
    w.allocated.push(getHeapStatistics().used_heap_size - w.heapAt);
  }
  return sent;
};

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const top = (m: Map<string, number>, rounds: number, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `  ${(v / rounds).toFixed(2)}  ${k}`)
    .join('\n');

async function main(): Promise<void> {
  const demo = arg('demo', '');
  if (!demo) throw new Error('--demo <dist/demo-server.js> is required');
  const rounds = Number(arg('rounds', '500'));
  const pass = arg('pass', 'hooks');
  const http = arg('transport', 'http') === 'http' ? await startHttpDemo(demo) : undefined;
  const target: Target = http ? { kind: 'http', url: http.url, demo } : { kind: 'stdio', demo };
  new PerformanceObserver((l) => l.getEntries().forEach((e) => w.collections.push([e.startTime, e.startTime + e.duration]))).observe({
    entryTypes: ['gc'],
  });
  try {
    for (const make of [() => ourDriver(target, true), () => sdkDriver(target, true)]) {
      const d = await make();
      for (let i = 0; i < 200; i++) await d.call();
      w.created.clear();
      w.ran.clear();
      w.allocated.length = 0;
      w.spans.length = 0;
      w.collections.length = 0;
      if (pass === 'hooks') hook.enable();
      for (let i = 0; i < rounds; i++) await d.call();
      hook.disable();
      await d.close();
      console.log(`\n${d.name} over ${target.kind}, ${rounds} rounds`);
      if (pass === 'hooks') {
        console.log(
          `callbacks run in the window, per round: ${[...w.ran.values()].reduce((a, b) => a + b, 0) / rounds}\n${top(w.ran, rounds, 30)}`,
        );
        console.log(
          `async resources created in it, per round: ${[...w.created.values()].reduce((a, b) => a + b, 0) / rounds}\n${top(w.created, rounds, 30)}`,
        );
      } else {
        const a = w.allocated.filter((x) => x > 0).sort((x, y) => x - y);
        const us = w.spans.map(([s, e]) => (e - s) * 1000).sort((x, y) => x - y);
        const hit = w.spans.filter(([s, e]) => w.collections.some(([g0, g1]) => g0 < e && g1 > s)).length;
        console.log(
          `heap allocated in a window: median ${a[a.length >> 1]} B; window p50 ${us[us.length >> 1].toFixed(1)} / p99 ${us[Math.floor(us.length * 0.99)].toFixed(1)} µs (stamps included); collections overlapping a window: ${hit} of ${w.collections.length}`,
        );
      }
    }
  } finally {
    http?.child.kill('SIGTERM');
  }
}

runBenchMain(main);
