// The benchmark's report (run.mjs): every figure with its reference, ratio and interval, and the
// table printed at the end of `npm run bench`.
import { median, medianCI, r1, r3 } from './stats.mjs';

/**
 * PASS, MISS, or n/a for a figure not measured, or measured by a run that could not have seen a miss:
 * a target with `needs` (the name of a report field) holds only when that field is `true` (the soak's
 * positive control seen: a run whose control does not show cannot tell a leak either).
 */
export function verdict(value, target, report = {}) {
  if (value == null || (target.needs && report[target.needs] !== true)) return 'n/a ';
  return value <= target.max ? 'PASS' : 'MISS';
}

function fmt(n, digits = 1) {
  return n == null ? '—' : Number(n).toFixed(digits);
}

/**
 * The table printed at the end of the run.
 * @param {{targets: Record<string, {max: number, unit: string, what: string}>, coldRuns: number, results: string}} o
 */
export function table(report, o) {
  const lines = [];
  const d = report.details;
  lines.push('');
  lines.push(
    `MCP Roundtrip bench${report.environment.quick ? ' (--quick: fewer samples)' : ''} — ${report.environment.node}, ${report.environment.cpus} CPUs, load ${report.environment.loadAvg.join(' ')} (start), ${report.environment.minutes} min`,
  );
  lines.push('');
  lines.push(
    'MRTR, where_am_i (one roots round)     ours calls/s   SDK calls/s   ours p50/p99 µs     SDK p50/p99 µs    ours/SDK time, median [95% CI] (CPU)   SDK/SDK',
  );
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
          `${fmt(x.medianRatio, 3)} [${x.ratioCI95 ? x.ratioCI95.map((v) => fmt(v, 2)).join('–') : '—'}] (${fmt(x.medianCpuRatio, 2)}) ${x.pairs} pairs`.padEnd(
            37,
          ) +
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
    lines.push(
      `  ${t} ours, sequential`.padEnd(70) +
        `${fmt(m.hostLatency.sequential.p50Us, 0).padStart(5)}  ${fmt(m.hostLatency.sequential.p99Us, 0).padStart(7)}`,
    );
    lines.push(
      `  ${t} ours, 8 in flight (waits behind other calls' work)`.padEnd(70) +
        `${fmt(m.hostLatency.concurrent.p50Us, 0).padStart(5)}  ${fmt(m.hostLatency.concurrent.p99Us, 0).padStart(7)}`,
    );
    lines.push(
      `  ${t} SDK automatic driver, sequential, alternated blocks (reference)`.padEnd(70) +
        `${fmt(m.hostLatency.sdkSequential.p50Us, 0).padStart(5)}  ${fmt(m.hostLatency.sdkSequential.p99Us, 0).padStart(7)}`,
    );
    lines.push(
      `  ${t} ours/SDK, median of ${m.hostLatency.p50Ratio.pairs} groups of alternated calls [95% CI]`.padEnd(70) +
        `${fmt(m.hostLatency.p50Ratio.median, 2)} ${ci(m.hostLatency.p50Ratio)}  ${fmt(m.hostLatency.p99Ratio.median, 2)} ${ci(m.hostLatency.p99Ratio)}`,
    );
  }
  const c = d.coldCli;
  lines.push('');
  if (c && !c.error) {
    lines.push(
      `Cold CLI calls over stdio, process start → exit (ms, median of ${o.coldRuns}; Inspector ${c.clients.inspector?.version ?? 'absent'}${c.removedFromEnvironment?.length ? `; every client run without ${c.removedFromEnvironment.join(', ')}` : ''})   ours   Inspector   floor   ours/Inspector [95% CI]   peak RSS MB ours/Inspector`,
    );
    for (const [tool, x] of Object.entries(c.tools)) {
      lines.push(
        `  ${tool.padEnd(14)}${fmt(x.wallMs.ours.median, 0).padStart(72)}${fmt(x.wallMs.inspector?.median, 0).padStart(12)}${fmt(x.wallMs.floor?.median, 0).padStart(8)}   ${fmt(x.oursOverInspector?.median, 3)} ${ci(x.oursOverInspector)}`.padEnd(
          134,
        ) + `${fmt(x.peakRss.ours.clientPeakKB / 1024)} / ${fmt((x.peakRss.inspector?.clientPeakKB ?? NaN) / 1024)}`,
      );
    }
    for (const [tool, x] of Object.entries(c.tools)) {
      const b = x.breakdownMs ?? {};
      lines.push(
        `  ${tool}: ours/floor ${fmt(x.oursOverFloor?.median, 3)} ${ci(x.oursOverFloor)}, load ${x.loadAvg?.atStart.join(' ')}; ours, ms from process start: Node ready ${fmt(b.hookLoaded, 0)} → server spawned ${fmt(b.serverSpawned, 0)} → bundle loaded ${fmt(b.bundleLoaded, 0)} → configuration read ${fmt(b.configurationRead, 0)} → first byte written ${fmt(b.firstByteWritten, 0)} → result printed ${fmt(b.resultPrinted, 0)} → exit ${fmt(b.exit, 0)}`,
      );
    }
  } else lines.push(`Cold CLI calls: ${c?.error ?? 'not run'}`);
  const ti = d.taskIdle;
  if (ti)
    lines.push(
      ti.error
        ? `A task waiting on its server: ${ti.error}`
        : `A task waiting on its server (${ti.seconds} s idle, poll interval ${ti.pollMs} ms): ${fmt(ti.cpuMsPerMinute)} CPU ms per minute, ${ti.taskGets} tasks/get (${fmt(ti.requestsPerPollInterval, 2)} per poll interval, ${fmt(ti.cpuMsPerRequest, 2)} CPU ms each)`,
    );
  const sk = d.skillsList;
  if (sk)
    lines.push(
      sk.error
        ? `Listing 500 skills: ${sk.error}`
        : `Listing 500 skills (CLI, cold): ${fmt(sk.wallMs.many.median, 0)} ms against 2 skills ${fmt(sk.wallMs.two.median, 0)} ms (${fmt(sk.manyOverTwo.median, 2)} ${ci(sk.manyOverTwo)}); ${sk.skillsListed} listed, ${sk.filesRead} files read`,
    );
  const mt = d.manyTools;
  if (mt)
    lines.push(
      mt.error
        ? `10 000 tools: ${mt.error}`
        : `${mt.tools} tools (pages of 200, about 2.5 KB each): listed in ${fmt(mt.listMs.ours, 0)} ms (floor ${fmt(mt.listMs.floor, 0)}; ours/floor ${fmt(mt.oursOverFloor.median, 2)} over ${mt.pairs} pairs); heap per tool ${mt.heapPerToolBytes.ours} B (floor ${mt.heapPerToolBytes.floor}); listed again from the kept list in ${fmt(mt.keptList.againMs, 3)} ms (first ${fmt(mt.keptList.firstMs, 0)})`,
    );
  const m = d.mcpdo;
  if (m)
    lines.push(
      m.wallMs
        ? `MRTR call with one form round (book_table), ms: ours cold ${fmt(m.wallMs.ours.median, 0)}; mcpdo ${m.mcpdo} on its daemon's connection ${fmt(m.wallMs.mcpdoWarm.median, 0)}, connecting first ${fmt(m.wallMs.mcpdoCold.median, 0)}; ours/mcpdo ${fmt(m.oursOverMcpdoWarm.median, 3)} ${ci(m.oursOverMcpdoWarm)} / ${fmt(m.oursOverMcpdoCold.median, 3)} ${ci(m.oursOverMcpdoCold)}`
        : `MRTR call against mcpdo: ${m.reason ?? m.error}`,
    );
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
  const runs = d.scale?.soakRuns;
  const failedRuns = runs && runs.asked > runs.slopes.length ? ` (of ${runs.asked} asked: the others failed)` : '';
  const runsLine =
    runs &&
    `  our driver over ${runs.slopes.length} processes${failedRuns}: RSS ${runs.slopes.map((v) => fmt(v, 2)).join(', ')}, median ${fmt(runs.median, 2)} (the target's); heap ${runs.heapSlopes.map((v) => fmt(v, 2)).join(', ')} KB per 1000 rounds`;
  if (soak && !soak.error) {
    lines.push(
      `Soak: ${soak.rounds} rounds (${soak.concurrency} in flight, ${soak.wrongAnswers} wrong), slope after ${soak.warmupRounds} warm-up rounds: RSS ${fmt(soak.rssTheilSenKBPer1000Rounds, 2)} ${ci({ ci95: soak.rssTheilSenCI95 })} (Theil–Sen; least squares ${fmt(soak.rssSlopeKBPer1000Rounds, 2)} ${ci({ ci95: soak.rssSlopeCI95 })}; lowest of each tenth ${fmt(soak.rssFloorSlopeKBPer1000Rounds, 2)}), heap ${fmt(soak.heapSlopeKBPer1000Rounds, 2)} ${ci({ ci95: soak.heapSlopeCI95 })} KB per 1000 rounds; RSS ${soak.rssMB.afterWarmup} → ${soak.rssMB.end} MB; listeners ${soak.before.listeners} → ${soak.after.listeners}; handles ${JSON.stringify(soak.before.resources)} → ${JSON.stringify(soak.after.resources)}${soak.glibcTunables ? `; GLIBC_TUNABLES=${soak.glibcTunables}` : ''}`,
    );
    const ref = d.scale?.soakSdk;
    // Which allocator each RSS slope is (scale.ts rssByMapping): glibc's heap, anonymous mappings (V8's pages), files.
    const v8Pages = (r) =>
      r.v8PhysicalTheilSenKBPer1000Rounds === undefined ? '' : ` (V8's resident pages ${fmt(r.v8PhysicalTheilSenKBPer1000Rounds, 2)})`;
    const mappings = (r) =>
      r.rssTheilSenByMappingKBPer1000Rounds
        ? `${Object.entries(r.rssTheilSenByMappingKBPer1000Rounds)
            .map(([k, v]) => `${k} ${fmt(v, 2)}`)
            .join(', ')}${v8Pages(r)}`
        : undefined;
    const byMapping = (r) => (mappings(r) ? `; RSS slope by mapping: ${mappings(r)}` : '');
    lines.push(`  our driver's RSS slope by mapping: ${mappings(soak) ?? 'not read (no /proc)'}`);
    if (runs?.slopes.length > 1 || failedRuns) lines.push(runsLine);
    const tf = d.scale?.soakToFloor;
    if (tf)
      lines.push(
        `  ours minus the floor client soaked right after it: ${tf.differences.map((v) => fmt(v, 2)).join(', ')}, median ${fmt(tf.median, 2)} (the target's); the positive control over our driver: ${fmt(tf.controlExcess, 2)} of ${tf.controlExpected} kept (${tf.controlSeen ? 'seen' : 'NOT seen'}; over the floor ${fmt(tf.controlExcessOverFloor, 2)})`,
      );
    const control = d.scale?.soakControl;
    const keeping = control?.keptBytesPerRound
      ? `our driver keeping ${control.keptBytesPerRound} bytes per round itself (the positive control: about ${control.keptBytesPerRound} expected)`
      : 'the positive control';
    for (const [name, r] of [
      ["the SDK's driver in the same harness (reference)", ref],
      ['a hand-written client in the same harness (the floor: Node alone)', d.scale?.soakFloor],
      [keeping, control],
    ]) {
      if (r && !r.error)
        lines.push(
          `  ${name}: RSS ${fmt(r.rssTheilSenKBPer1000Rounds, 2)} ${ci({ ci95: r.rssTheilSenCI95 })} (least squares ${fmt(r.rssSlopeKBPer1000Rounds, 2)} ${ci({ ci95: r.rssSlopeCI95 })}), heap ${fmt(r.heapSlopeKBPer1000Rounds, 2)} ${ci({ ci95: r.heapSlopeCI95 })} KB per 1000 rounds; RSS ${r.rssMB.afterWarmup} → ${r.rssMB.end} MB${byMapping(r)}`,
        );
    }
  } else {
    lines.push(`Soak: ${soak?.error ?? 'not run'}`);
    if (runs) lines.push(runsLine);
  }
  lines.push('');
  const b = d.bundles;
  lines.push(
    `Bundles: dist/extension.js ${fmt(b.extension.kb)} KB (gzip ${fmt(b.extension.gzipKB)} KB); ${b.webviews.map((w) => `${w.file} ${fmt(w.kb)} KB`).join('; ') || 'no webview bundles'}`,
  );
  lines.push(`  extension.js by source: ${b.extensionTopInputs.map((i) => `${i.name} ${fmt(i.kb, 0)}`).join(', ')} (KB)`);
  const a = d.activation;
  lines.push(
    `Activation: ${a.source === 'real-host' ? `real host (code-server), samples ${a.realHost.samplesMs.join(', ')} ms` : `Node with a stub vscode (the real host ${a.realHost?.reason ?? 'was skipped'})`}; ` +
      `Node stub: median ${fmt(a.nodeStub?.medianMs, 2)} ms, module load ${fmt(a.nodeStub?.requireMedianMs, 0)} ms`,
  );
  const ap = d.appPaint;
  if (ap) {
    const pairsOf = (x) =>
      `${fmt(x.ratio, 3)} over ${(x.ratios ?? []).length} pairs (app ${(x.appMs ?? []).map((v) => fmt(v, 0)).join(', ')} ms; bare ${(x.bareMs ?? []).map((v) => fmt(v, 0)).join(', ')} ms)${x.reason ? `; ${x.reason}` : ''}`;
    const w = ap.withoutSandboxIsolation;
    lines.push(`MCP App first paint (server-basic-vanillajs), app view / bare webview: ${pairsOf(ap)}`);
    if (w) lines.push(`  diagnosis, sandboxed frames not isolated (--disable-features=IsolateSandboxedIframes): ${pairsOf(w)}`);
  }
  const p = d.panel ?? {};
  const why = p.sets
    ? [
        p.sets.dropped ? `${p.sets.dropped} dropped: a sample failed twice` : '',
        p.sets.taken + (p.sets.dropped ?? 0) < p.sets.asked ? 'the time budget ran out' : '',
      ]
        .filter(Boolean)
        .join('; ')
    : '';
  const sets = p.sets
    ? `, ${p.sets.taken} sets of samples${p.sets.taken < p.sets.asked ? ` of the ${p.sets.asked} asked (${why})` : ''}`
    : '';
  lines.push(`Round panel, time to the first field (ms${sets})${p.reason ? ` (${p.reason})` : ''}`);
  const ratios = {
    reused: [['/bare', p.reusedToBare]],
    newPanel: [
      ['/bare', p.newPanelToBare],
      ['/bare picked', p.newPanelToBarePicked],
    ],
  };
  for (const [k, label] of [
    ['bare', 'bare webview, first paint (reference)'],
    ['barePicked', 'bare webview opened from a quick pick'],
    ['reused', 'book_table, first round in its arguments panel'],
    ['newPanel', 'plan_trip, first round in a new panel'],
  ]) {
    const x = p[k];
    if (!x?.samplesMs?.length) continue;
    const st = (key) => fmt(median(x.stages.map((s) => s[key])), 0);
    const ratio = (ratios[k] ?? [])
      .filter(([, xs]) => xs?.length)
      .map(([name, xs]) => `   ${name} ${fmt(median(xs), 2)} ${ci({ ci95: medianCI(xs) })}`)
      .join('');
    lines.push(
      `  ${label.padEnd(50)} ${fmt(x.medianMs, 0).padStart(5)}${ratio}   samples ${x.samplesMs.join(', ')}${k === 'reused' ? '' : `; stages: frame ${st('webviewFrameMs')} → host script ${st('hostScriptMs')} → HTML sent ${st('contentSentMs')} → content ${st('contentFrameMs')} → HTML ${st('htmlWrittenMs')} → ready ${st('readyMs')}`}`,
    );
  }
  lines.push('');
  lines.push('Targets');
  for (const [key, target] of Object.entries(o.targets)) {
    const v = report[key];
    lines.push(
      `  ${key.padEnd(24)} ${fmt(v, /Ratio/.test(key) ? 3 : 1).padStart(8)} ${target.unit.padEnd(3)} ≤ ${String(target.max).padEnd(5)} ${verdict(v, target, report)}  ${target.what}`,
    );
  }
  lines.push(`\nWritten: ${o.results}`);
  return lines.join('\n');
}

/**
 * Every figure of the run with its reference, ratio and 95% interval (where it has one), as the
 * table of docs/performance.md shows them.
 */
export function figures(d) {
  const f = [];
  const add = (name, value, unit, extra = {}) => f.push({ name, value, unit, ...extra });
  for (const t of ['stdio', 'http']) {
    const m = d.mrtr[t];
    if (!m || m.error) continue;
    for (const mode of ['sequential', 'concurrent']) {
      const x = m[mode];
      add(
        `MRTR time per call, ${t}, ${mode === 'sequential' ? 'sequential' : `${x.concurrency} in flight`}`,
        r1(1e6 / x.ours.callsPerSec),
        'µs',
        {
          reference: `SDK driver ${r1(1e6 / x.sdk.callsPerSec)} µs`,
          ratio: x.medianRatio,
          ci95: x.ratioCI95,
          noiseFloor: m.noiseFloor?.[mode],
        },
      );
    }
    const h = m.hostLatency;
    add(`host latency per round, ${t}, p50`, h.sequential.p50Us, 'µs', {
      reference: `SDK driver ${h.sdkSequential.p50Us} µs`,
      ratio: h.p50Ratio.median,
      ci95: h.p50Ratio.ci95,
    });
    add(`host latency per round, ${t}, p99`, h.sequential.p99Us, 'µs', {
      reference: `SDK driver ${h.sdkSequential.p99Us} µs`,
      ratio: h.p99Ratio.median,
      ci95: h.p99Ratio.ci95,
    });
  }
  if (d.coldCli && !d.coldCli.error) {
    for (const [tool, x] of Object.entries(d.coldCli.tools)) {
      add(`cold CLI call, ${tool}`, x.wallMs.ours.median, 'ms', {
        reference: `Inspector CLI ${x.wallMs.inspector?.median} ms (floor client ${x.wallMs.floor?.median} ms)`,
        ratio: x.oursOverInspector?.median,
        ci95: x.oursOverInspector?.ci95,
      });
      add(`cold CLI call against the floor client, ${tool}`, x.wallMs.ours.median, 'ms', {
        reference: `floor client ${x.wallMs.floor?.median} ms`,
        ratio: x.oursOverFloor?.median,
        ci95: x.oursOverFloor?.ci95,
        loadAvg: x.loadAvg,
        breakdownMs: x.breakdownMs,
      });
      add(`peak RSS of the CLI, ${tool}`, r1(x.peakRss.ours.clientPeakKB / 1024), 'MB', {
        reference: `Inspector CLI ${r1((x.peakRss.inspector?.clientPeakKB ?? NaN) / 1024)} MB`,
        ratio: x.rssRatio,
      });
    }
  }
  if (d.taskIdle && !d.taskIdle.error)
    add(`a task waiting on its server, CPU per idle minute (poll interval ${d.taskIdle.pollMs} ms)`, d.taskIdle.cpuMsPerMinute, 'ms/min', {
      reference: 'one tasks/get per poll interval, no CPU between',
      requestsPerPollInterval: d.taskIdle.requestsPerPollInterval,
      cpuMsPerRequest: d.taskIdle.cpuMsPerRequest,
    });
  if (d.skillsList && !d.skillsList.error)
    add('listing 500 skills, CLI cold call', d.skillsList.wallMs.many.median, 'ms', {
      reference: `the same listing of 2 skills ${d.skillsList.wallMs.two.median} ms`,
      ratio: d.skillsList.manyOverTwo.median,
      ci95: d.skillsList.manyOverTwo.ci95,
      filesRead: d.skillsList.filesRead,
    });
  if (d.manyTools && !d.manyTools.error) {
    const mt = d.manyTools;
    add(`listing ${mt.tools} tools (every page), our host`, mt.listMs.ours, 'ms', {
      reference: `floor client ${mt.listMs.floor} ms`,
      ratio: mt.oursOverFloor.median,
      pairs: mt.oursOverFloor.pairs,
    });
    add(`heap held per tool of ${mt.tools}`, mt.heapPerToolBytes.ours, 'B', {
      reference: `floor client ${mt.heapPerToolBytes.floor} B`,
      ratio: r3(mt.heapPerToolBytes.ours / mt.heapPerToolBytes.floor),
    });
    add(`listing ${mt.tools} tools again, kept list (the server tells of changes)`, mt.keptList.againMs, 'ms', {
      reference: `the first listing ${mt.keptList.firstMs} ms`,
    });
  }
  if (d.mcpdo?.wallMs)
    add('MRTR call with one form round (book_table), our CLI cold', d.mcpdo.wallMs.ours.median, 'ms', {
      reference: `mcpdo ${d.mcpdo.mcpdo} on its daemon's connection ${d.mcpdo.wallMs.mcpdoWarm.median} ms (connecting first ${d.mcpdo.wallMs.mcpdoCold.median} ms)`,
      ratio: d.mcpdo.oursOverMcpdoWarm.median,
      ci95: d.mcpdo.oursOverMcpdoWarm.ci95,
      loadAvg: d.mcpdo.loadAvg,
    });
  for (const t of ['http', 'stdio']) {
    const x = d.scale?.[t];
    if (!x || x.error) continue;
    add(`${x.calls} concurrent calls over ${t}: throughput`, x.ours.callsPerSec, 'calls/s', {
      reference: `SDK driver ${x.sdk.callsPerSec} calls/s`,
      ratio: x.timeRatio?.median != null ? r3(1 / x.timeRatio.median) : null,
      ci95: x.timeRatio?.ci95 ? [r3(1 / x.timeRatio.ci95[1]), r3(1 / x.timeRatio.ci95[0])] : null,
      wrongAnswers: x.wrongAnswers,
    });
    add(
      `${x.calls} concurrent calls over ${t}: round latency p50 / p99`,
      `${x.ours.roundLatencyUs.p50} / ${x.ours.roundLatencyUs.p99}`,
      'µs',
      {},
    );
    add(`${x.calls} concurrent calls over ${t}: heap per in-flight call`, r1(x.memoryPerInFlightCall.ours.heapPerCallBytes / 1024), 'KB', {
      reference: `SDK driver ${r1(x.memoryPerInFlightCall.sdk.heapPerCallBytes / 1024)} KB`,
      ratio: x.memoryPerInFlightCall.ratioHeap,
    });
  }
  const soak = d.scale?.soak;
  if (soak && !soak.error) {
    const ref = d.scale?.soakSdk && !d.scale.soakSdk.error ? d.scale.soakSdk : undefined;
    const ratio = (a, b) => (b ? r3(a / b) : null);
    const measured = soak.rounds - soak.warmupRounds;
    const runs = d.scale?.soakRuns;
    if (runs?.slopes.length > 1)
      add(
        `soak, ${measured} rounds after ${soak.warmupRounds} warm-up rounds: RSS slope (Theil–Sen), median of ${runs.slopes.length} processes of our driver`,
        runs.median,
        'KB/1000 rounds',
        { runs: runs.slopes },
      );
    add(
      `soak, ${measured} rounds after ${soak.warmupRounds} warm-up rounds: RSS slope (Theil–Sen)${runs?.slopes.length > 1 ? ', the first process' : ''}`,
      soak.rssTheilSenKBPer1000Rounds,
      'KB/1000 rounds',
      {
        ci95: soak.rssTheilSenCI95,
        reference: ref ? `SDK driver ${ref.rssTheilSenKBPer1000Rounds} KB/1000 rounds [${ref.rssTheilSenCI95?.join('–')}]` : undefined,
        ratio: ref ? ratio(soak.rssTheilSenKBPer1000Rounds, ref.rssTheilSenKBPer1000Rounds) : null,
        leastSquares: soak.rssSlopeKBPer1000Rounds,
        leastSquaresCI95: soak.rssSlopeCI95,
        floorSlope: soak.rssFloorSlopeKBPer1000Rounds,
      },
    );
    const floor = d.scale?.soakFloor && !d.scale.soakFloor.error ? d.scale.soakFloor : undefined;
    if (floor)
      add(
        `soak, ${measured} rounds after ${soak.warmupRounds} warm-up rounds: RSS slope (Theil–Sen) of a hand-written client (the floor)`,
        floor.rssTheilSenKBPer1000Rounds,
        'KB/1000 rounds',
        { ci95: floor.rssTheilSenCI95, byMapping: floor.rssTheilSenByMappingKBPer1000Rounds ?? null },
      );
    const control = d.scale?.soakControl && !d.scale.soakControl.error ? d.scale.soakControl : undefined;
    if (control)
      add(
        `soak, ${measured} rounds after ${soak.warmupRounds} warm-up rounds: RSS slope (Theil–Sen) of the positive control (our driver keeping ${control.keptBytesPerRound} bytes per round)`,
        control.rssTheilSenKBPer1000Rounds,
        'KB/1000 rounds',
        {
          ci95: control.rssTheilSenCI95,
          expected: control.keptBytesPerRound,
          byMapping: control.rssTheilSenByMappingKBPer1000Rounds ?? null,
        },
      );
    add(
      `soak, ${measured} rounds after ${soak.warmupRounds} warm-up rounds: heap slope (least squares)`,
      soak.heapSlopeKBPer1000Rounds,
      'KB/1000 rounds',
      {
        ci95: soak.heapSlopeCI95,
        reference: ref ? `SDK driver ${ref.heapSlopeKBPer1000Rounds} KB/1000 rounds` : undefined,
        ratio: ref ? ratio(soak.heapSlopeKBPer1000Rounds, ref.heapSlopeKBPer1000Rounds) : null,
        heapSpaceGrowthKB: soak.heapSpaceGrowthKB,
      },
    );
  }
  const p = d.panel ?? {};
  if (p.bare?.samplesMs?.length) {
    add('bare webview first paint (reference)', p.bare.medianMs, 'ms', {});
    add('round panel first field, book_table (its arguments panel reused)', p.reused.medianMs, 'ms', {
      reference: 'bare webview',
      ratio: p.reusedToBare.length ? r3(median(p.reusedToBare)) : null,
      ci95: medianCI(p.reusedToBare),
    });
    add('round panel first field, plan_trip (a new panel)', p.newPanel.medianMs, 'ms', {
      reference: 'bare webview',
      ratio: p.newPanelToBare.length ? r3(median(p.newPanelToBare)) : null,
      ci95: medianCI(p.newPanelToBare),
    });
    if (p.barePicked?.samplesMs?.length) {
      add('bare webview first paint, opened as a quick pick item is picked', p.barePicked.medianMs, 'ms', {});
      add(
        'round panel first field, plan_trip (a new panel), against the bare webview opened from a quick pick',
        p.newPanel.medianMs,
        'ms',
        {
          reference: 'bare webview opened from a quick pick',
          ratio: p.newPanelToBarePicked?.length ? r3(median(p.newPanelToBarePicked)) : null,
          ci95: medianCI(p.newPanelToBarePicked ?? []),
        },
      );
    }
  }
  return f;
}
