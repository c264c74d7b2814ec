// Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most self time and the most
// inclusive time, with their source location. Used to find where a benchmark's time goes:
//
//   npx esbuild test/bench/mrtr.ts --bundle --platform=node --format=cjs --main-fields=module,main --outfile=/tmp/mrtr.js
//   node --cpu-prof --cpu-prof-dir=/tmp/prof /tmp/mrtr.js --demo dist/demo-server.js --profile ours --calls 8000 --concurrency 8
//   node test/bench/profile.mjs /tmp/prof/*.cpuprofile [--top 25] [--filter <substring of function or file>]
import { readFileSync } from 'node:fs';

/**
 * Self and inclusive time per function (keyed by name + location) of one profile.
 * @param {{nodes: Array<{id: number, callFrame: {functionName: string, url: string, lineNumber: number}, children?: number[]}>, samples: number[], timeDeltas: number[]}} profile
 * @returns {{ totalUs: number, rows: Array<{ key: string, selfUs: number, totalUs: number }> }}
 */
export function summarize(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (n) => {
    const f = n.callFrame;
    const file = f.url ? f.url.split('/').slice(-2).join('/') : '';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const self = new Map();
  const total = new Map();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    totalUs += dt;
    const node = byId.get(id);
    const k = keyOf(node);
    self.set(k, (self.get(k) ?? 0) + dt);
    // Inclusive: every distinct function on the stack once.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const key = keyOf(byId.get(cur));
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + dt);
    }
  });
  const rows = [...total.keys()].map((key) => ({ key, selfUs: self.get(key) ?? 0, totalUs: total.get(key) }));
  return { totalUs, rows };
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop());
if (isMain) {
  const args = process.argv.slice(2);
  const files = args.filter((a, i) => !a.startsWith('--') && !(args[i - 1] ?? '').startsWith('--'));
  const top = Number(args[args.indexOf('--top') + 1]) || 25;
  const filter = args.includes('--filter') ? args[args.indexOf('--filter') + 1] : undefined;
  for (const file of files) {
    const { totalUs, rows } = summarize(JSON.parse(readFileSync(file, 'utf8')));
    const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
    const shown = filter ? rows.filter((r) => r.key.includes(filter)) : rows;
    console.log(`\n${file}: ${(totalUs / 1000).toFixed(0)} ms sampled`);
    console.log('  self time:');
    for (const r of [...shown].sort((a, b) => b.selfUs - a.selfUs).slice(0, top)) console.log(`  ${pct(r.selfUs)}  ${r.key}`);
    console.log('  inclusive time:');
    for (const r of [...shown].sort((a, b) => b.totalUs - a.totalUs).slice(0, top)) console.log(`  ${pct(r.totalUs)}  ${r.key}`);
  }
}
