/**
 * What the benchmarks share (test/bench/mrtr.ts, scale.ts): the measured tool and its answer, a
 * transparent timing transport, our driver and the SDK's automatic driver over stdio or Streamable
 * HTTP, and the demo server started over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  Client,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type ListRootsResult,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ForwardingTransport, type MessageExtra } from '../../src/core/transport/forwardingTransport';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import type { CustomServerSpec, ServerSpec } from '../../src/core/connection/serverSpec';
import type { HostEvent } from '../../src/core/log/events';
import { callWithRoundTrips } from '../../src/core/mrtr/driver';
import type { InputProvider } from '../../src/core/inputs/inputProvider';

/** The tool measured: one `roots/list` round, then a complete result. */
export const TOOL = 'where_am_i';
/** What both drivers answer to `roots/list`, instantly. */
export const ROOTS: ListRootsResult = { roots: [{ uri: 'file:///home/bench/project', name: 'project' }] };
export const EXPECTED_TEXT = /^Your host shares 1 workspace root with servers:\n- project: file:\/\/\/home\/bench\/project/;

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

  /**
   * @param inner the real transport
   * @param bySequence also pair each retry with the latest `input_required` ({@link sequentialLatencies}):
   *   for a driver whose retries cannot be linked by id (the SDK's); off, nothing accumulates
   */
  constructor(
    inner: Transport,
    private readonly bySequence = false,
  ) {
    super(inner);
  }

  protected override receive(message: JSONRPCMessage, extra?: MessageExtra): void {
    const result = (message as { result?: { resultType?: unknown } }).result;
    if (result && result.resultType === 'input_required' && 'id' in message) {
      const now = process.hrtime.bigint();
      this.received.set(message.id as string | number, now);
      if (this.bySequence) this.lastReceived = now;
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
export type CallFn = () => Promise<string>;

export interface Driver {
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
  listRoots: () => ROOTS,
};

export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ text?: string }> }).content;
  return content?.[0]?.text ?? JSON.stringify(result);
}

export function stdioSpec(demo: string): { command: string; args: string[]; env: Record<string, string> } {
  return { command: process.execPath, args: [demo], env: { ...(process.env as Record<string, string>) } };
}

/** The SDK's transport to the demo (a stdio server's stderr piped and drained). */
export function newTransport(target: Target): Transport {
  const inner: Transport =
    target.kind === 'stdio'
      ? new StdioClientTransport({ ...stdioSpec(target.demo), stderr: 'pipe' })
      : new StreamableHTTPClientTransport(new URL(target.url));
  (inner as { stderr?: { resume?: () => void } }).stderr?.resume?.();
  return inner;
}

/**
 * A `custom` server spec of kind stdio/http whose transport (built as ServerConnection builds its own)
 * is wrapped in a {@link TimingTransport}, handed to `onTiming` each time one is created.
 */
export function timedSpec(target: Target, onTiming: (t: TimingTransport) => void): CustomServerSpec {
  return {
    transport: 'custom',
    name: 'demo',
    kind: target.kind,
    create: () => {
      const timing = new TimingTransport(newTransport(target));
      onTiming(timing);
      return timing;
    },
  };
}

/**
 * Our driver. With `timed`, the transport is wrapped in a {@link TimingTransport} (a `custom` spec
 * of kind stdio/http, built exactly as ServerConnection builds its own) and every call's retry
 * events are recorded, so latencies can be paired by JSON-RPC id even with calls in flight.
 */
export async function ourDriver(target: Target, timed: boolean): Promise<Driver & { latencies: number[] }> {
  let timing: TimingTransport | undefined;
  let spec: ServerSpec;
  if (!timed) {
    spec =
      target.kind === 'stdio'
        ? { transport: 'stdio', name: 'demo', ...stdioSpec(target.demo) }
        : { transport: 'http', name: 'demo', url: target.url };
  } else {
    spec = timedSpec(target, (t) => (timing = t));
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
export async function sdkDriver(target: Target, timed: boolean): Promise<Driver> {
  const client = new Client({ name: 'bench-sdk', version: '1.0.0' }, { capabilities: { roots: {} }, versionNegotiation: { mode: 'auto' } });
  client.setRequestHandler('roots/list', () => ROOTS);
  const inner = newTransport(target);
  const timing = timed ? new TimingTransport(inner, true) : undefined;
  await client.connect(timing ?? inner);
  if (client.getProtocolEra() !== 'modern') throw new Error(`the SDK negotiated ${client.getProtocolEra()}, expected modern`);
  return {
    name: 'sdk',
    call: async () => textOf(await client.callTool({ name: TOOL, arguments: {} })),
    close: () => client.close(),
    timing,
  };
}

export type Target = { kind: 'stdio'; demo: string } | { kind: 'http'; url: string; demo: string };

/** Starts `demo` over Streamable HTTP on a free port; resolves once it listens. */
export async function startHttpDemo(demo: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [demo, '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`demo server exited (${code}) before listening: ${stderr}`)));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (m) resolve({ url: m[1], child });
    });
  });
}

/** Run a benchmark process's `main`: exit 0 when it resolves; its error on stderr and exit 1 when it fails. */
export function runBenchMain(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      process.stderr.write(`[bench] failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exit(1);
    },
  );
}
