/**
 * Real-host measurements in code-server (a real VS Code, scripts/host + test/e2e/harness.ts), run by
 * test/bench/run.mjs as `node --require tsx/cjs test/bench/host.ts <out.json>`:
 *
 * 1. activation time: the built extension (this repository's folder, copied into the extensions
 *    dir) is activated by a palette command; it reports its own `activate()` duration to the file
 *    named by `MCP_ROUNDTRIP_BENCH_FILE` (src/extension.ts, reportActivation). Further samples reload
 *    the browser page, which starts a new extension host.
 * 2. round panel time-to-interactive for `book_table`: from the `input_required` line of the
 *    round-trip log (stamped by the extension host when the result arrived) to the moment the first
 *    field of the booking form is visible and enabled in the panel's webview (stamped in the webview
 *    by a script injected into every frame). Both are wall-clock times of this machine. Guarded: when
 *    the panel does not show the form, `interactiveMs` is null with the reason.
 *
 * Writes a {@link HostReport} as JSON to the given file (also when something fails: the reasons say what).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { openWorkbench, repoRoot, runCommand, screenshot, startCodeServer, waitFor, type CodeServerHost, type Workbench } from '../e2e/harness';
import { logText, pick } from '../e2e/support';

/** Milliseconds from input_required received to each stage of showing the round panel (null: not seen). */
export interface PanelStages {
  /** The workbench created the webview's host frame (pre/index.html). */
  webviewFrameMs: number | null;
  /** The content frame started (about:blank, before VS Code writes the panel's HTML into it). */
  contentFrameMs: number | null;
  /** The panel's HTML was written into the content frame (its script then loads and renders). */
  htmlWrittenMs: number | null;
  /** The first booking field is visible and enabled. */
  interactiveMs: number;
}

/** What the real host measured; every figure may be null with a reason. */
export interface HostReport {
  activation: { samplesMs: number[]; coldMs: number | null; medianMs: number | null; reason?: string };
  panel: {
    /** Per sample: input_required received → first booking field visible and enabled, ms. */
    samplesMs: number[];
    interactiveMs: number | null;
    /** Per sample: input_required received → a booking field has the keyboard focus, ms. */
    focusedMs: number[];
    /** Per sample: where the time goes. */
    stages: PanelStages[];
    reason?: string;
  };
  host: { codeServerStartMs?: number; workbenchReadyMs?: number; totalMs: number; error?: string };
}

const ACTIVATION_SAMPLES = Number(process.env.MCP_ROUNDTRIP_BENCH_ACTIVATIONS ?? 3);
const PANEL_SAMPLES = Number(process.env.MCP_ROUNDTRIP_BENCH_PANELS ?? 3);
/** Text of the booking form (a field title of book_table), present only once the round's form is shown. */
const BOOKING_MARK = 'Party size';

/**
 * Injected into every frame before its scripts run: records (wall clock, ms) when the document
 * first shows the booking form with a visible, enabled first field, and when a field first has
 * the focus. A MutationObserver on the document sees each change at once; a slow interval covers
 * changes no mutation reports (styles). `checks` counts the checks that found the form text.
 */
function fieldWatcher(mark: string): void {
  if (window.top === window) return;
  type State = { readyAt: number | null; focusedAt: number | null; checks: number; initAt: number; writtenAt: number | null };
  const now = () => performance.timeOrigin + performance.now();
  const w = window as unknown as { __mcpRtBench?: State };
  const state: State = (w.__mcpRtBench ??= { readyAt: null, focusedAt: null, checks: 0, initAt: now(), writtenAt: null });
  const check = () => {
    const body = document.body;
    if (!body || (state.readyAt !== null && state.focusedAt !== null)) return;
    if (!(body.textContent ?? '').includes(mark)) return;
    state.checks++;
    const fields = document.querySelectorAll<HTMLElement>('input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])');
    const field = [...fields].find((f) => f.getClientRects().length > 0 && getComputedStyle(f).visibility !== 'hidden');
    if (!field) return;
    if (state.readyAt === null) state.readyAt = now();
    const active = document.activeElement;
    if (state.focusedAt === null && active && active.matches('input, select, textarea')) state.focusedAt = now();
  };
  const observer = new MutationObserver(check);
  let timer: ReturnType<typeof setInterval> | undefined;
  const arm = () => {
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    document.addEventListener('focusin', check, true);
    if (timer !== undefined) clearInterval(timer);
    timer = setInterval(() => {
      check();
      if (state.readyAt !== null && state.focusedAt !== null) clearInterval(timer);
    }, 25);
  };
  arm();
  // VS Code writes a webview's HTML into its frame with document.open/write/close, which drops this
  // document's observers, listeners and timers: arm again once the new content is in.
  const close = Document.prototype.close;
  Document.prototype.close = function (this: Document) {
    close.call(this);
    if (this === document) {
      state.writtenAt = now();
      arm();
      check();
    }
  };
}

/** Local-time log timestamp `2026-11-30 19:57:35.220` → epoch ms. */
function logTime(line: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : undefined;
}

function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function readActivations(file: string): { activationMs: number; pid: number }[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { activationMs: number; pid: number });
}

/** Activates the extension (a palette command) and waits for its report; `after` reports were there before. */
async function activationSample(page: Page, file: string, after: number): Promise<number> {
  await runCommand(page, 'MCP Roundtrip: Show Round-Trip Log', { timeoutMs: 90_000 });
  const got = await waitFor('the extension to report its activation', () => readActivations(file).slice(after)[0], { timeoutMs: 60_000, intervalMs: 100 });
  return got.activationMs;
}

/** What the watcher recorded in one frame (wall clock, ms). */
interface WatchState {
  readyAt: number | null;
  focusedAt: number | null;
  checks: number;
  /** When the frame's first document started (for a webview: when the workbench created its frame). */
  initAt: number;
  /** When VS Code had written the webview's HTML into the frame (document.close). */
  writtenAt: number | null;
}

async function benchState(frame: Frame): Promise<WatchState | undefined> {
  try {
    return await frame.evaluate(() => (window as unknown as { __mcpRtBench?: WatchState }).__mcpRtBench);
  } catch {
    return undefined;
  }
}

/** A frame whose document matches `selector` (the panel's webviews are nested iframes). */
async function frameWith(page: Page, selector: string, timeoutMs: number): Promise<Frame> {
  return waitFor(
    `a webview frame with ${selector}`,
    async () => {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame() || frame.isDetached()) continue;
        if ((await frame.locator(selector).count().catch(() => 0)) > 0) return frame;
      }
      return undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

/** One book_table call through the palette: returns the two durations, or throws saying where it stopped. */
async function panelSample(page: Page, logsDir: string, sample: number): Promise<{ interactiveMs: number; focusedMs: number | null; stages: PanelStages }> {
  const inputRequiredLines = () => logText(logsDir).split('\n').filter((l) => /← \[demo\] input_required round 1 for id=\S+: booking \(elicitation\/create\)/.test(l));
  const seenBefore = inputRequiredLines().length;
  await runCommand(page, 'MCP Roundtrip: Call Tool…', { timeoutMs: 60_000 });
  await pick(page, 'demo', 'demo');
  await pick(page, 'Book a table');
  // book_table has an optional argument (restaurant): the arguments form comes first.
  const args = await frameWith(page, '[data-panel="arguments"] [data-testid="submit"]', 30_000).catch(() => {
    throw new Error('no arguments form appeared for book_table (is the round panel built? media/src/roundPanel/main.ts)');
  });
  await args.locator('[data-panel="arguments"] [data-testid="submit"]').first().click();
  const line = await waitFor('the input_required line of book_table in the round-trip log', () => inputRequiredLines()[seenBefore], { timeoutMs: 60_000, intervalMs: 100 }).catch(() => {
    throw new Error(`book_table did not reach its form round (log: ${logText(logsDir).split('\n').slice(-3).join(' | ')})`);
  });
  const received = logTime(line);
  if (received === undefined) throw new Error(`cannot read the time of the log line: ${line}`);
  const state = await waitFor(
    'the booking form to be interactive in the round panel',
    async () => {
      for (const frame of page.frames()) {
        const s = frame === page.mainFrame() ? undefined : await benchState(frame);
        if (s?.readyAt != null && s.readyAt >= received - 5_000) return { frame, ...s };
      }
      return undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  ).catch(async () => {
    // Say what the frames had: the watcher's state, whether the form text is there.
    const seen: string[] = [];
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const info = await frame
        .evaluate((mark) => ({ watcher: JSON.stringify((window as unknown as { __mcpRtBench?: unknown }).__mcpRtBench ?? null), form: (document.body?.textContent ?? '').includes(mark), url: location.href.slice(0, 60) }), BOOKING_MARK)
        .catch((e: Error) => ({ error: e.message.split('\n')[0] }));
      seen.push(JSON.stringify(info));
    }
    throw new Error(`the round panel did not show the booking form with an enabled field within 30 s of input_required (frames: ${seen.join(', ')})`);
  });
  // Read before the panel closes: the webview's host frame (pre/index.html) holds when it was created.
  const hostFrame = state.frame.parentFrame();
  const hostInit = hostFrame && hostFrame !== page.mainFrame() ? (await benchState(hostFrame))?.initAt : undefined;
  await screenshot(page, `bench-panel-${sample}`).catch(() => {});
  // Close the round: Cancel answers {action: "cancel"} and the tool completes ("Booking cancelled").
  const cancel = state.frame.locator('[data-testid="cancel"]').first();
  if ((await cancel.count()) > 0) await cancel.click().catch(() => {});
  else await page.keyboard.press('Escape');
  await waitFor('book_table to end', () => /← \[demo\] (complete|error)[^\n]*$/.test(logText(logsDir).trimEnd()) || undefined, { timeoutMs: 30_000 }).catch(() => {});
  // Reset the marks for the next sample (a panel may be reused).
  await state.frame.evaluate(() => ((window as unknown as { __mcpRtBench?: unknown }).__mcpRtBench = { readyAt: null, focusedAt: null, checks: 0, initAt: 0, writtenAt: null })).catch(() => {});
  const since = (t: number | null | undefined) => (t == null ? null : round2(t - received));
  return {
    interactiveMs: round2(state.readyAt! - received),
    focusedMs: since(state.focusedAt),
    stages: { webviewFrameMs: since(hostInit), contentFrameMs: since(state.initAt), htmlWrittenMs: since(state.writtenAt), interactiveMs: round2(state.readyAt! - received) },
  };
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: host.ts <out.json>');
  const t0 = Date.now();
  const report: HostReport = {
    activation: { samplesMs: [], coldMs: null, medianMs: null },
    panel: { samplesMs: [], interactiveMs: null, focusedMs: [], stages: [] },
    host: { totalMs: 0 },
  };
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-bench-ws-'));
  const benchFile = path.join(workspace, '..', `${path.basename(workspace)}-activation.jsonl`);
  writeFileSync(path.join(workspace, 'notes.md'), '# Notes\n');
  let host: CodeServerHost | undefined;
  let wb: Workbench | undefined;
  try {
    host = await startCodeServer({ workspace, extensionDirs: [repoRoot], env: { MCP_ROUNDTRIP_BENCH_FILE: benchFile } });
    report.host.codeServerStartMs = host.startMs;
    wb = await openWorkbench(host.url, workspace);
    report.host.workbenchReadyMs = wb.readyMs;
    // As source text: the transpiler (tsx, esbuild keepNames) wraps inner functions in a `__name`
    // helper that the browser does not have.
    await wb.context.addInitScript({ content: `var __name = (f) => f; (${fieldWatcher.toString()})(${JSON.stringify(BOOKING_MARK)});` });

    // Activation: cold (first extension host), then after reloads (a new extension host each).
    try {
      for (let i = 0; i < ACTIVATION_SAMPLES; i++) {
        if (i > 0) {
          await wb.page.reload({ waitUntil: 'domcontentloaded' });
          await wb.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 90_000 });
        }
        report.activation.samplesMs.push(round2(await activationSample(wb.page, benchFile, readActivations(benchFile).length)));
      }
    } catch (e) {
      if (!report.activation.samplesMs.length) report.activation.reason = `no activation report: ${(e as Error).message.split('\n')[0]}`;
    }
    report.activation.coldMs = report.activation.samplesMs[0] ?? null;
    report.activation.medianMs = median(report.activation.samplesMs);

    // Round panel time-to-interactive.
    if (!existsSync(path.join(repoRoot, 'dist', 'webview', 'roundPanel.js'))) {
      report.panel.reason = 'dist/webview/roundPanel.js is missing: the round panel webview is not built (media/src/roundPanel/main.ts)';
    } else {
      try {
        for (let i = 0; i < PANEL_SAMPLES; i++) {
          // Each sample starts alike: no editor open (the panel opens in the active editor group).
          await runCommand(wb.page, 'View: Close All Editors').catch(() => {});
          await wb.page.keyboard.press('Escape');
          // One retry per sample: a palette keystroke lost on a loaded machine is not a panel problem.
          const s = await panelSample(wb.page, host.logsDir, i + 1).catch(async (e: Error) => {
            if (/did not show the booking form|no arguments form/.test(e.message)) throw e;
            await wb!.page.keyboard.press('Escape');
            return panelSample(wb!.page, host!.logsDir, i + 1);
          });
          report.panel.samplesMs.push(s.interactiveMs);
          report.panel.stages.push(s.stages);
          if (s.focusedMs !== null) report.panel.focusedMs.push(s.focusedMs);
        }
      } catch (e) {
        report.panel.reason = (e as Error).message.split('\n')[0];
        await screenshot(wb.page, 'bench-panel-failure').catch(() => {});
      }
      report.panel.interactiveMs = median(report.panel.samplesMs);
    }
  } catch (e) {
    report.host.error = (e as Error).message.split('\n').slice(0, 3).join(' ');
    report.activation.reason ??= `the real host could not be run: ${report.host.error}`;
    report.panel.reason ??= `the real host could not be run: ${report.host.error}`;
  } finally {
    await wb?.close().catch(() => {});
    await host?.stop({ removeFiles: true }).catch(() => {});
    rmSync(workspace, { recursive: true, force: true });
    rmSync(benchFile, { force: true });
    report.host.totalMs = Date.now() - t0;
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[bench host] ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
