// Listing a server's skills without reading one: our CLI's `skills` against the skills fixture
// (test/fixtures/skillsServer.mjs) serving 500 skills (`many`), against the same listing of its 2
// skills (`honest`), alternated, each a cold process; the fixture records every file read
// (RECORD_FILE), and there must be none. Run by test/bench/run.mjs, or alone:
//
//   node test/bench/skillsList.mjs [--runs 6]   (after npm run build; prints JSON)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { COLD_ENV } from './peers.mjs';
import { median, medianCI, r1, r3 } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const FIXTURE = path.join(root, 'test', 'fixtures', 'skillsServer.mjs');

/** One cold `skills` listing of the fixture in `mode`: wall ms and the lines printed. */
function listing(mode, record) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const argv = [path.join(root, 'dist', 'cli.js'), '--stdio', `"${process.execPath}" "${FIXTURE}" ${mode}`, 'skills'];
    const child = spawn(process.execPath, argv, {
      cwd: root,
      env: { ...COLD_ENV, RECORD_FILE: record },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`skills ${mode} exited ${code}: ${err.trim().split('\n').slice(-2).join(' | ')}`));
      else resolve({ ms, skills: out.split('\n').filter(Boolean).length });
    });
  });
}

export async function skillsList({ runs = 6, say = () => {} } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-skills-'));
  const record = path.join(dir, 'reads.txt');
  try {
    say(`listing 500 skills (against 2), ${runs} cold runs each, alternated`);
    await listing('many', record);
    await listing('honest', record);
    const many = [];
    const few = [];
    const ratios = [];
    let listed = 0;
    for (let i = 0; i < runs; i++) {
      const order = i % 2 ? ['honest', 'many'] : ['many', 'honest'];
      const got = {};
      for (const mode of order) got[mode] = await listing(mode, record);
      listed = got.many.skills;
      many.push(r1(got.many.ms));
      few.push(r1(got.honest.ms));
      ratios.push(r3(got.many.ms / got.honest.ms));
    }
    const reads = existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean).length : 0;
    return {
      runs,
      skillsListed: listed,
      filesRead: reads,
      wallMs: { many: { median: r1(median(many)), samples: many }, two: { median: r1(median(few)), samples: few } },
      manyOverTwo: { median: r3(median(ratios)), ci95: medianCI(ratios) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const runs = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 6;
  skillsList({ runs, say: (t) => process.stderr.write(`[bench] ${t}\n`) }).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(`[bench] skills listing failed: ${e.stack ?? e}`);
      process.exit(1);
    },
  );
}
