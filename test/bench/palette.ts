/**
 * The Call Tool palette with 10 000 tools, against a bare QuickPick of the same items, in a real VS
 * Code (code-server + Chromium, the built extension from this folder), run by test/bench/run.mjs as
 * `node --require tsx/cjs test/bench/palette.ts <out.json>`. The server is test/bench/manyToolsServer.mjs
 * (pages of 200, long descriptions, 20 described properties a tool) as a 2025-11-25 server that declares
 * `tools.listChanged`, so that the host keeps its list for the session (src/core/connection/listCache.ts).
 *
 * - `palette`: **MCP Roundtrip: Call Tool…**, the server picked: from the Enter on its row to the first
 *   tool row visible in the tool list. The first open (`coldMs`) walks every page of the server; the
 *   others (`keptMs`) list from the kept list, and are the figure;
 * - `bare`: the same rows (label, description, detail as Call Tool shows them) in a bare
 *   `createQuickPick`, opened by the bench hook (`.bare-tools`, src/testApi.ts) as the one item of a
 *   first quick pick is picked: from the Enter on that item to the first row visible;
 * - `argumentForm`: after each kept palette sample, a tool filtered and picked: from the Enter on its
 *   row to the arguments panel's first field visible and enabled;
 * - `heapPerToolBytes`: the extension host's heap after a full collection (the hook's `.heap`), after
 *   the first listing minus before it, over the tools listed.
 *
 * Alternated in one run after a warm-up of each, the order rotated per pair; per pair the ratio
 * palette/bare, and their median. Enter is stamped by this process, rows and fields by the page's own
 * clock (an init script), both this machine's wall clock, ms. Writes a {@link PaletteReport} to the
 * file, also when something fails (`reason` says what).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openWorkbench, repoRoot, runCommand, startCodeServer, waitFor, type CodeServerHost, type Workbench } from '../e2e/harness';
import { logText, makeWorkspace } from '../e2e/support';

/** What this module reports; times in ms, per sample. */
export interface PaletteReport {
  tools: number;
  /** The first open: every page of the server listed, then the rows. */
  coldMs: number | null;
  /** The palette's list from the kept list. */
  keptMs: number[];
  /** The bare quick pick of the same rows. */
  bareMs: number[];
  /** Per pair: kept / bare. */
  ratios: number[];
  /** The median of `ratios` (null when no pair was measured). */
  ratio: number | null;
  /** A tool picked → its arguments panel's first field. */
  argumentFormMs: number[];
  /** The extension host's heap held per listed tool after the first listing, bytes. */
  heapPerToolBytes: number | null;
  reason?: string;
  /** The round-trip log's last lines, when something failed. */
  logTail?: string[];
}

const SERVER = path.join(repoRoot, 'test', 'bench', 'manyToolsServer.mjs');
const COUNT = Number(process.env.MCP_ROUNDTRIP_BENCH_PALETTE_TOOLS ?? 10_000);
const PAIRS = Math.max(1, Number(process.env.MCP_ROUNDTRIP_BENCH_PALETTE_PAIRS ?? 8));
/** The hook's first item (BARE_TOOLS_PICK of src/testApi.ts, which imports `vscode` and so is not imported here). */
const BARE_TOOLS_PICK = 'Open the bare tool list';
const progress = (text: string) => process.stderr.write(`[bench palette] ${text}\n`);
const round1 = (n: number) => Math.round(n * 10) / 10;

function median(values: number[]): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Injected into the workbench's frame: `__mcpRtArmRows()` starts watching the quick input for a tool
 * row (`tool_<n>` in its text) and stamps (wall clock, ms) `__mcpRtRows` when one is visible. Armed per
 * sample only, so that the workbench runs without an observer between samples.
 */
function rowWatcher(): void {
  if (window.top !== window) return;
  const w = window as unknown as { __mcpRtRows?: number; __mcpRtArmRows?: () => void };
  let observer: MutationObserver | undefined;
  w.__mcpRtArmRows = () => {
    w.__mcpRtRows = undefined;
    observer?.disconnect();
    const check = () => {
      for (const row of document.querySelectorAll('.quick-input-widget .monaco-list-row')) {
        if (/tool_\d+/.test(row.textContent ?? '') && row.getClientRects().length > 0) {
          w.__mcpRtRows = performance.timeOrigin + performance.now();
          observer?.disconnect();
          return;
        }
      }
    };
    observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  };
}

/**
 * Injected into every webview frame: stamps (wall clock, ms) `__mcpRtField` when the arguments panel
 * shows a visible, enabled field. Armed again after VS Code writes the webview's HTML (document.close).
 */
function fieldWatcher(): void {
  if (window.top === window) return;
  const w = window as unknown as { __mcpRtField?: number };
  const check = () => {
    if (w.__mcpRtField !== undefined || !document.querySelector('[data-panel="arguments"]')) return;
    const fields = document.querySelectorAll('input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled])');
    if ([...fields].some((e) => e.getClientRects().length > 0)) w.__mcpRtField = performance.timeOrigin + performance.now();
  };
  const arm = () => {
    new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
    setInterval(check, 25);
    check();
  };
  arm();
  const close = Document.prototype.close;
  Document.prototype.close = function (this: Document) {
    close.call(this);
    if (this === document) arm();
  };
}

/** The rows Call Tool shows for the server's tools (src/vscode/commands/pickAndRun.ts), read from the server itself. */
async function toolRows(): Promise<{ label: string; description?: string; detail?: string }[]> {
  const { rawStdio } = await import('./rawStdio.mjs');
  const client = rawStdio(SERVER, 'bench');
  try {
    const tools: { name: string; title?: string; description?: string }[] = [];
    let cursor: string | undefined;
    do {
      const { result } = await client.request('tools/list', cursor ? { cursor } : {});
      tools.push(...((result?.tools as typeof tools | undefined) ?? []));
      cursor = result?.nextCursor as string | undefined;
    } while (cursor);
    // None of these tools declares task support, so Call Tool's detail is the description alone.
    return tools
      .slice(0, COUNT)
      .map((t) => ({ label: t.title ?? t.name, description: t.title ? t.name : undefined, detail: t.description }));
  } finally {
    await client.close();
  }
}

/** In the open quick pick, filter on `text`, wait for its row, and press Enter: the Enter's time, ms. */
async function pickTimed(page: Page, text: string, rowText = text): Promise<number> {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: 60_000 });
  await input.fill(text);
  await page
    .locator(`.quick-input-widget .monaco-list-row:has-text(${JSON.stringify(rowText)})`)
    .first()
    .waitFor({ timeout: 60_000 });
  await page.evaluate(() => (window as unknown as { __mcpRtArmRows: () => void }).__mcpRtArmRows());
  const t = Date.now();
  if (process.env.MCP_ROUNDTRIP_BENCH_PALETTE_DEBUG) progress(`Enter at ${new Date(t).toISOString()}`);
  await page.keyboard.press('Enter');
  return t;
}

/** The stamp of the first tool row, once seen. */
function rowsShown(page: Page): Promise<number> {
  return waitFor(
    'the first tool row',
    () => page.evaluate(() => (window as unknown as { __mcpRtRows?: number }).__mcpRtRows).catch(() => undefined),
    { timeoutMs: 120_000, intervalMs: 50 },
  );
}

/** Closes the quick pick and every editor, and waits until no quick input is shown. */
async function clean(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors', { timeoutMs: 30_000 }).catch(() => {});
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 30_000 });
}

/** Call Tool on the many-tools server: Enter on the server → first tool row, ms. */
async function paletteSample(page: Page): Promise<number> {
  await runCommand(page, 'MCP Roundtrip: Call Tool…', { timeoutMs: 60_000 });
  const t = await pickTimed(page, 'many');
  return (await rowsShown(page)) - t;
}

/** The bare quick pick of the same rows: Enter on the hook's item → first row, ms. */
async function bareSample(page: Page, benchFile: string, rowsJson: string): Promise<number> {
  // Renamed into place: the hook reads the whole file when the name appears.
  writeFileSync(`${benchFile}.tmp`, rowsJson);
  renameSync(`${benchFile}.tmp`, `${benchFile}.bare-tools`);
  const t = await pickTimed(page, BARE_TOOLS_PICK);
  return (await rowsShown(page)) - t;
}

/** The field stamp of any webview frame. */
async function fieldStamp(page: Page): Promise<number | undefined> {
  for (const f of page.frames()) {
    if (f === page.mainFrame() || f.isDetached()) continue;
    const t = await f.evaluate(() => (window as unknown as { __mcpRtField?: number }).__mcpRtField).catch(() => undefined);
    if (typeof t === 'number') return t;
  }
  return undefined;
}

/** In the open tool list, tool `n` picked: Enter → its arguments panel's first field, ms. */
async function argumentFormSample(page: Page, n: number): Promise<number> {
  const t = await pickTimed(page, `tool_${n}`, `tool_${n}`);
  const shown = await waitFor('the arguments panel', () => fieldStamp(page), { timeoutMs: 60_000, intervalMs: 50 });
  return shown - t;
}

/** Lines that name an error in every log file of the host (what failed, when something did). */
function errorLines(dir: string): string[] {
  const lines: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const text = readFileSync(path.join(e.parentPath, e.name), 'utf8');
    lines.push(
      ...text
        .split('\n')
        .filter((l) => /error|ENOSPC/i.test(l))
        .map((l) => `${e.name}: ${l.slice(0, 300)}`),
    );
  }
  return lines.slice(-20);
}

/** The extension host's heap after a full collection, through the hook's `.heap` request, bytes. */
async function heapUsed(benchFile: string): Promise<number> {
  const answer = `${benchFile}.heap.json`;
  rmSync(answer, { force: true });
  writeFileSync(`${benchFile}.heap`, '');
  const text = await waitFor('the heap reading', () => (existsSync(answer) ? readFile(answer, 'utf8') : undefined), {
    timeoutMs: 30_000,
    intervalMs: 50,
  }).catch((e: Error) => {
    throw new Error(
      `${e.message} (the request ${existsSync(`${benchFile}.heap`) ? 'was not seen' : 'was seen'}; activation reported: ${existsSync(benchFile)})`,
    );
  });
  const got = JSON.parse(text) as { heapUsed?: number; error?: string };
  if (got.heapUsed === undefined) throw new Error(`the heap could not be read: ${got.error}`);
  return got.heapUsed;
}

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: palette.ts <out.json>');
  const report: PaletteReport = {
    tools: COUNT,
    coldMs: null,
    keptMs: [],
    bareMs: [],
    ratios: [],
    ratio: null,
    argumentFormMs: [],
    heapPerToolBytes: null,
  };
  const ws = makeWorkspace({ many: { type: 'stdio', command: process.execPath, args: [SERVER, String(COUNT), '--legacy'] } });
  const benchDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-palette-'));
  const benchFile = `${benchDir}.jsonl`;
  let host: CodeServerHost | undefined;
  let wb: Workbench | undefined;
  try {
    const rowsJson = JSON.stringify(await toolRows());
    host = await startCodeServer({ workspace: ws, extensionDirs: [repoRoot], env: { MCP_ROUNDTRIP_BENCH_FILE: benchFile } });
    wb = await openWorkbench(host.url, ws);
    // The webviews' frames get the field watcher as they start; the workbench's frame, already loaded, the row watcher now.
    await wb.context.addInitScript({ content: `var __name = (f) => f; (${fieldWatcher.toString()})();` });
    const page = wb.page;
    await page.evaluate(`var __name = (f) => f; (${rowWatcher.toString()})();`);
    // Activated (and its first quick pick shown) before the heap is read.
    await runCommand(page, 'MCP Roundtrip: Show Round-Trip Log', { timeoutMs: 90_000 });
    await clean(page);
    const heapBefore = await heapUsed(benchFile);
    report.coldMs = await paletteSample(page);
    await clean(page);
    report.heapPerToolBytes = Math.round((await heapUsed(benchFile)) - heapBefore) / COUNT;
    progress(`cold: ${report.coldMs} ms; heap per tool ${round1(report.heapPerToolBytes)} B`);
    // Warm-up of each: the first bare quick pick and the first arguments panel of the session.
    await bareSample(page, benchFile, rowsJson);
    await clean(page);
    await paletteSample(page);
    await argumentFormSample(page, 1);
    await clean(page);
    for (let i = 0; i < PAIRS; i++) {
      let kept = 0;
      let bare = 0;
      for (const which of i % 2 ? ['palette', 'bare'] : ['bare', 'palette']) {
        if (which === 'bare') bare = await bareSample(page, benchFile, rowsJson);
        else {
          kept = await paletteSample(page);
          report.argumentFormMs.push(await argumentFormSample(page, 1 + ((i * 1237) % (COUNT - 1))));
        }
        await clean(page);
      }
      report.keptMs.push(kept);
      report.bareMs.push(bare);
      report.ratios.push(Math.round((kept / bare) * 1000) / 1000);
      progress(`pair ${i + 1} of ${PAIRS}: palette ${kept} ms, bare ${bare} ms, argument form ${report.argumentFormMs.at(-1)} ms`);
    }
  } catch (e) {
    report.reason = (e as Error).message.split('\n')[0];
    if (host) report.logTail = [...logText(host.logsDir).split('\n').slice(-15), ...errorLines(host.logsDir)];
  } finally {
    if (process.env.MCP_ROUNDTRIP_BENCH_PALETTE_DEBUG && host)
      report.logTail = logText(host.logsDir)
        .split('\n')
        .filter((l) => /DEBUG|bench:/.test(l));
    await wb?.close().catch(() => {});
    await host?.stop({ removeFiles: true }).catch(() => {});
    rmSync(ws, { recursive: true, force: true });
    rmSync(benchDir, { recursive: true, force: true });
    for (const f of ['', '.heap', '.heap.json', '.bare-tools', '.tmp']) rmSync(`${benchFile}${f}`, { force: true });
    const r = median(report.ratios);
    report.ratio = r === null ? null : Math.round(r * 1000) / 1000;
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`[bench palette] ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
