/**
 * A server with 10 000 tools (test/bench/manyToolsServer.mjs: pages of 200, long descriptions, 20
 * described properties each, about 2.5 KB a tool): how long our host takes to list them all
 * (`ServerConnection.list('tools')`, every page checked against the spec's type within the host's
 * bounds) and the heap it holds per tool, against the floor (rawStdio.mjs: the same pages requested
 * and parsed, nothing checked), each on a fresh server, alternated; then a second listing of a server
 * that declares `tools.listChanged` (a 2025-11-25 one, which tells of changes unasked), which the host
 * answers from its kept list. Run by test/bench/run.mjs (bundled like mrtr.ts), or alone:
 *
 *   node --expose-gc <bundle of manyTools.ts> --server test/bench/manyToolsServer.mjs [--pairs 5] [--count 10000]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ServerConnection } from '../../src/core/connection/serverConnection';
import { INSTANT_ROOTS } from './drivers';

const { values } = parseArgs({ options: { server: { type: 'string' }, pairs: { type: 'string' }, count: { type: 'string' } } });
const SERVER = path.resolve(values.server ?? 'test/bench/manyToolsServer.mjs');
const PAIRS = Number(values.pairs ?? 5);
const COUNT = Number(values.count ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

function connection(legacy: boolean): ServerConnection {
  return new ServerConnection(
    {
      transport: 'stdio',
      name: 'many-tools',
      command: process.execPath,
      args: [SERVER, String(COUNT), ...(legacy ? ['--legacy'] : [])],
      era: legacy ? 'legacy' : 'modern',
    },
    { provider: INSTANT_ROOTS },
  );
}

/** Ours: connected first (prompts/list), then every tool listed; ms and heap held per tool. */
async function ours(): Promise<{ ms: number; bytesPerTool: number; tools: number }> {
  const conn = connection(false);
  try {
    await conn.list('prompts');
    const before = heapUsed();
    const t0 = performance.now();
    const tools = await conn.list('tools');
    const ms = performance.now() - t0;
    const bytesPerTool = (heapUsed() - before) / tools.length;
    return { ms, bytesPerTool, tools: tools.length };
  } finally {
    await conn.close();
  }
}

/** The floor: the same pages over a hand-written stdio client, parsed and nothing else. */
async function floor(): Promise<{ ms: number; bytesPerTool: number; tools: number }> {
  const { rawStdio } = await import('./rawStdio.mjs');
  const client = rawStdio(SERVER, 'floor');
  try {
    await client.request('prompts/list', {});
    const before = heapUsed();
    const t0 = performance.now();
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const { result } = await client.request('tools/list', cursor ? { cursor } : {});
      tools.push(...((result?.tools as unknown[] | undefined) ?? []));
      cursor = result?.nextCursor as string | undefined;
    } while (cursor);
    const ms = performance.now() - t0;
    const bytesPerTool = (heapUsed() - before) / tools.length;
    return { ms, bytesPerTool, tools: tools.length };
  } finally {
    await client.close();
  }
}

/** A second listing of a server that tells of its changes: answered from the kept list. */
async function kept(): Promise<{ firstMs: number; againMs: number }> {
  const conn = connection(true);
  try {
    await conn.list('prompts');
    let t0 = performance.now();
    await conn.list('tools');
    const firstMs = performance.now() - t0;
    t0 = performance.now();
    await conn.list('tools');
    return { firstMs, againMs: performance.now() - t0 };
  } finally {
    await conn.close();
  }
}

async function main(): Promise<void> {
  await ours(); // warm-up: the host's code compiled, the server's file in the cache
  await floor();
  const o: Awaited<ReturnType<typeof ours>>[] = [];
  const f: Awaited<ReturnType<typeof floor>>[] = [];
  for (let i = 0; i < PAIRS; i++) {
    if (i % 2) {
      f.push(await floor());
      o.push(await ours());
    } else {
      o.push(await ours());
      f.push(await floor());
    }
  }
  if (o.some((x) => x.tools !== COUNT) || f.some((x) => x.tools !== COUNT))
    throw new Error(`listed ${o.map((x) => x.tools).join(', ')} (ours) and ${f.map((x) => x.tools).join(', ')} (floor), not ${COUNT}`);
  const ratios = o.map((x, i) => r3(x.ms / f[i].ms));
  const k = await kept();
  console.log(
    JSON.stringify({
      tools: COUNT,
      pairs: PAIRS,
      listMs: { ours: r1(median(o.map((x) => x.ms))), floor: r1(median(f.map((x) => x.ms))) },
      oursOverFloor: { median: r3(median(ratios)), pairs: ratios },
      heapPerToolBytes: { ours: Math.round(median(o.map((x) => x.bytesPerTool))), floor: Math.round(median(f.map((x) => x.bytesPerTool))) },
      keptList: { firstMs: r1(k.firstMs), againMs: r3(k.againMs) },
    }),
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
