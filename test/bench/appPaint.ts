/**
 * The app view's first paint against the same HTML in a bare webview, in a real VS Code (code-server +
 * Chromium, the built extension from this folder), run by test/bench/run.mjs as
 * `node --require tsx/cjs test/bench/appPaint.ts <out.json>`:
 *
 * - `app`: `get-time` of `@modelcontextprotocol/server-basic-vanillajs` called from the palette; from its
 *   `app ui://get-time/mcp-app.html runs under` log line (the document read, the view about to open)
 *   to the app's **Get Server Time** button visible in its frame (the app view's webview, its script,
 *   the loopback app server, the sandboxed frame);
 * - `bare`: the same HTML, as it is, the document of a bare webview opened by the bench hook
 *   (`.bare-app`, src/testApi.ts), from its `bench: bare app webview opened` log line to the same
 *   button visible.
 *
 * Then, as a diagnosis with no target, a few pairs more in a second browser whose isolation of sandboxed
 * frames is off (`withoutSandboxIsolation`): how much of the ratio is the process Chromium gives the app's frame.
 *
 * Alternated in one run after a warm-up of each; per pair the ratio app/bare, and their median. Start
 * times are the extension host's log stamps, paint times the frame's own clock (an init script in
 * every frame), both this machine's wall clock, ms. Writes an {@link AppPaintReport} to the file, also
 * when something fails (`reason` says what).
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openWorkbench, repoRoot, runCommand, startCodeServer, waitFor, type CodeServerHost, type Workbench } from '../e2e/harness';
import { callTool, logText, makeWorkspace } from '../e2e/support';

/** Paired samples: per sample the time to first paint, ms, and per pair app/bare. */
export interface AppPaintPairs {
  appMs: number[];
  bareMs: number[];
  ratios: number[];
  /** The median of `ratios` (null when no pair was measured). */
  ratio: number | null;
}

/** What this module reports. */
export interface AppPaintReport extends AppPaintPairs {
  /**
   * A diagnosis, no target: the same pairs in a browser whose isolation of sandboxed frames is turned
   * off (`--disable-features=IsolateSandboxedIframes`). Chromium gives a frame sandboxed without
   * `allow-same-origin`, as the app's is, a process of its own; this says how much of the ratio that is.
   */
  withoutSandboxIsolation?: AppPaintPairs & { reason?: string };
  reason?: string;
}

const BASIC = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist');
const PAIRS = Math.max(1, Number(process.env.MCP_ROUNDTRIP_BENCH_APP_PAINTS ?? 8));
/** Pairs measured after the diagnosis's browser opens (fewer than the figure's own: it only explains it). */
const DIAGNOSIS_PAIRS = Math.max(1, Math.min(PAIRS, 5));
const APP_LINE = /app ui:\/\/get-time\/mcp-app\.html runs under/;
const BARE_LINE = /bench: bare app webview opened/;

/**
 * Injected into every frame before its scripts run: stamps (wall clock, ms) when `#get-time-btn` is
 * first visible. VS Code writes a webview's HTML with document.open/write/close, which drops observers
 * and timers: armed again after `close`.
 */
function paintWatcher(): void {
  if (window.top === window) return;
  const w = window as unknown as { __mcpRtAppPaint?: number };
  const check = () => {
    const b = document.getElementById('get-time-btn');
    if (w.__mcpRtAppPaint === undefined && b && b.getClientRects().length > 0)
      w.__mcpRtAppPaint = performance.timeOrigin + performance.now();
  };
  const arm = () => {
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
    setInterval(check, 10);
    check();
  };
  arm();
  const close = Document.prototype.close;
  Document.prototype.close = function (this: Document) {
    close.call(this);
    if (this === document) arm();
  };
}

/** Local-time log stamp `2026-11-30 19:57:35.220` of the `n`th line (0-based) matching `re` → epoch ms. */
function logStamp(logsDir: string, re: RegExp, n: number): number | undefined {
  const line = logText(logsDir)
    .split('\n')
    .filter((l) => re.test(l))[n];
  const m = line && /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : undefined;
}

/** The first paint stamp of any frame (one panel is open at a time). */
async function paintStamp(page: Page): Promise<number | undefined> {
  for (const f of page.frames()) {
    if (f === page.mainFrame() || f.isDetached()) continue;
    const t = await f.evaluate(() => (window as unknown as { __mcpRtAppPaint?: number }).__mcpRtAppPaint).catch(() => undefined);
    if (typeof t === 'number') return t;
  }
  return undefined;
}

/** One sample: `open` starts it; from the `n`th `line` to the paint. Closes the editors after. */
async function sample(page: Page, logsDir: string, line: RegExp, open: () => Promise<void>): Promise<number> {
  const n = logText(logsDir)
    .split('\n')
    .filter((l) => line.test(l)).length;
  await open();
  const started = await waitFor(`log line ${line}`, () => logStamp(logsDir, line, n), { timeoutMs: 60_000 });
  const painted = await waitFor('the first paint', () => paintStamp(page), { timeoutMs: 60_000, intervalMs: 50 });
  await runCommand(page, 'View: Close All Editors');
  await waitFor('the panel to close', async () => ((await paintStamp(page)) === undefined ? true : undefined), { timeoutMs: 30_000 });
  return painted - started;
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: appPaint.ts <out.json>');
  const report: AppPaintReport = { appMs: [], bareMs: [], ratios: [], ratio: null };
  try {
    if (!existsSync(path.join(BASIC, 'index.js'))) throw new Error('@modelcontextprotocol/server-basic-vanillajs is not installed');
    await measure(PAIRS, report, []);
    // The diagnosis, in a host of its own (a window closed leaves its extension host running a while,
    // and its bench hook would take the next bare webview's request): sandboxed frames left in their parent's process.
    const diagnosis: NonNullable<AppPaintReport['withoutSandboxIsolation']> = { appMs: [], bareMs: [], ratios: [], ratio: null };
    report.withoutSandboxIsolation = diagnosis;
    await measure(DIAGNOSIS_PAIRS, diagnosis, ['--disable-features=IsolateSandboxedIframes']).catch((e: unknown) => {
      diagnosis.reason = (e as Error).message.split('\n')[0];
    });
  } catch (e) {
    report.reason = (e as Error).message.split('\n')[0];
  } finally {
    report.ratio = medianRatio(report.ratios);
    if (report.withoutSandboxIsolation) report.withoutSandboxIsolation.ratio = medianRatio(report.withoutSandboxIsolation.ratios);
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  }
}

/** `count` pairs in a code-server and a browser of their own (Chromium given `extraArgs` too), stopped after. */
async function measure(count: number, into: AppPaintPairs, extraArgs: string[]): Promise<void> {
  const ws = makeWorkspace({ basic: { type: 'stdio', command: process.execPath, args: [path.join(BASIC, 'index.js'), '--stdio'] } });
  const benchFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-app-paint-')), 'bench.jsonl');
  const html = readFileSync(path.join(BASIC, 'mcp-app.html'), 'utf8');
  const askBare = () => {
    // Renamed into place: the hook reads the whole document when the name appears.
    writeFileSync(`${benchFile}.tmp`, html);
    renameSync(`${benchFile}.tmp`, `${benchFile}.bare-app`);
    return Promise.resolve();
  };
  let host: CodeServerHost | undefined;
  let wb: Workbench | undefined;
  try {
    host = await startCodeServer({ workspace: ws, extensionDirs: [repoRoot], env: { MCP_ROUNDTRIP_BENCH_FILE: benchFile } });
    wb = await openWorkbench(host.url, ws, { extraArgs });
    await wb.context.addInitScript({ content: `var __name = (f) => f; (${paintWatcher.toString()})();` });
    await pairs(wb.page, host.logsDir, askBare, count, into, extraArgs.length ? ` (${extraArgs.join(' ')})` : '');
  } finally {
    await wb?.close().catch(() => {});
    await host?.stop({ removeFiles: true }).catch(() => {});
    rmSync(ws, { recursive: true, force: true });
    rmSync(path.dirname(benchFile), { recursive: true, force: true });
  }
}

/** A warm-up of each, then `count` alternated pairs (bare first) into `into`. */
async function pairs(
  page: Page,
  logs: string,
  askBare: () => Promise<void>,
  count: number,
  into: AppPaintPairs,
  label: string,
): Promise<void> {
  const app = () => sample(page, logs, APP_LINE, () => callTool(page, 'basic', 'Get Time'));
  const bare = () => sample(page, logs, BARE_LINE, askBare);
  await app();
  await bare();
  for (let i = 0; i < count; i++) {
    const b = await bare();
    const a = await app();
    into.bareMs.push(b);
    into.appMs.push(a);
    into.ratios.push(Math.round((a / b) * 1000) / 1000);
    process.stderr.write(`[bench app paint] app ${a} ms, bare ${b} ms${label}\n`);
  }
}

/** The median of `ratios`, to 3 decimals (null when empty). */
function medianRatio(ratios: number[]): number | null {
  const sorted = [...ratios].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  if (!sorted.length) return null;
  return sorted.length % 2 ? sorted[mid] : Math.round(((sorted[mid - 1] + sorted[mid]) / 2) * 1000) / 1000;
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[bench app paint] ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
