// Helpers for end-to-end tests in a real VS Code: code-server (scripts/host/launch.mjs) driven through Debian's
// Chromium with playwright-core. Every wait is for a condition, with a deadline; none is a fixed sleep.
//
//   const host = await startCodeServer({ workspace, extensionDirs: [repoRoot] });
//   const wb = await openWorkbench(host.url, workspace);
//   await runCommand(wb.page, 'MCP Roundtrip: ...');
//   const frame = await findWebviewFrame(wb.page, frameHasSelector('form'));
//   await screenshot(wb.page, 'after-submit');
//   await wb.close(); await host.stop();
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Frame, type Page } from 'playwright-core';
import type { CodeServerHost, LaunchOptions } from '../../scripts/host/launch.mjs' with { 'resolution-mode': 'import' };

export type { CodeServerHost, LaunchOptions };

/** Repository root (this file is test/e2e/harness.ts). */
export const repoRoot = path.resolve(__dirname, '..', '..');

/** Flags for Chromium on these machines: no sandbox as root, no GPU, no calls out of the closed network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function chromiumExecutable(): string {
  return process.env.MCP_ROUNDTRIP_CHROMIUM || '/usr/bin/chromium';
}

/** Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 30_000, intervalMs = 200 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() >= deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message.split('\n')[0]})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Starts code-server with scripts/host/launch.mjs (installing it first if needed). */
export async function startCodeServer(options: LaunchOptions): Promise<CodeServerHost> {
  const { launchCodeServer } = await import('../../scripts/host/launch.mjs');
  return launchCodeServer(options);
}

export interface Workbench {
  context: BrowserContext;
  page: Page;
  /** Milliseconds from navigation to the workbench being ready. */
  readyMs: number;
  /**
   * The page's console, as "type: text" lines. The extension host's console.log/console.error land here
   * (prefixed "[Extension Host]"), not in the log files under <userDataDir>/logs.
   */
  consoleLines: string[];
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

export interface OpenWorkbenchOptions {
  timeoutMs?: number;
  headless?: boolean;
  viewport?: { width: number; height: number };
  /** Also wait until the palette lists this command (an extension's contributions have been read). */
  waitForCommand?: string;
  /** Chromium switches beside {@link CHROMIUM_ARGS} (a bench's diagnosis, e.g. a feature turned off). */
  extraArgs?: string[];
}

/**
 * Opens the workbench of `url` (code-server's base URL) on `folder` in a fresh headless Chromium (new profile) and
 * waits until it is ready: the status bar and activity bar are visible, the explorer shows the folder, and (with
 * `waitForCommand`) the palette lists a given command. Without that last one the extension host may still be
 * starting: runCommand waits for its command anyway.
 */
export async function openWorkbench(url: string, folder?: string, options: OpenWorkbenchOptions = {}): Promise<Workbench> {
  const { timeoutMs = 90_000, headless = true, viewport = { width: 1400, height: 900 }, extraArgs = [] } = options;
  const profile = mkdtempSync(path.join(os.tmpdir(), 'mcp-roundtrip-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumExecutable(),
    headless,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    viewport,
  });
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
    const target = new URL(url);
    if (folder) target.searchParams.set('folder', folder);
    const t0 = Date.now();
    await page.goto(target.toString(), { waitUntil: 'domcontentloaded', timeout: timeoutMs });
    const left = () => Math.max(1000, timeoutMs - (Date.now() - t0));
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: left() });
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: left() });
    if (folder) {
      // The explorer shows the folder once the workbench has opened it on the server.
      await page.locator('.monaco-workbench .explorer-folders-view').first().waitFor({ state: 'visible', timeout: left() });
    }
    if (options.waitForCommand) await waitForCommand(page, options.waitForCommand, { timeoutMs: left() });
    const readyMs = Date.now() - t0;
    return { context, page, readyMs, consoleLines, close };
  } catch (e) {
    await close();
    throw e;
  }
}

const PALETTE = '.quick-input-widget';
const PALETTE_INPUT = '.quick-input-widget .quick-input-box input';

/** Whether the palette's highlighted entry is the command `title` (its aria-label may add a keybinding). */
async function highlighted(page: Page, title: string): Promise<boolean> {
  const label =
    (await page.locator(`${PALETTE} .monaco-list-row.focused`).first().getAttribute('aria-label', { timeout: 500 }))?.trim() ?? '';
  return label === title || label.startsWith(`${title},`) || label.startsWith(`${title} `);
}

/**
 * Opens the palette and types `>title` until the highlighted entry is that command, reopening the palette while it
 * is not listed yet (an extension's commands are listed only once the extension host has read the extension,
 * a few seconds after the workbench shows, and an open palette does not see commands added after it opened).
 * Success is a state (the palette is open and its highlighted row is the command); a miss is only decided after a
 * window that doubles with each attempt (1 s, 2 s, 4 s, then 8 s; twice that for the palette to open), so a slow
 * machine gets the time it needs without a fixed sleep, and a key that was lost is pressed again.
 * Leaves the palette open with the command highlighted.
 */
async function showInPalette(page: Page, title: string, timeoutMs: number): Promise<void> {
  const input = page.locator(PALETTE_INPUT);
  const deadline = Date.now() + timeoutMs;
  const left = () => Math.max(1, deadline - Date.now());
  let windowMs = 1000;
  let lastError = '';
  while (Date.now() < deadline) {
    try {
      if (!(await input.isVisible())) {
        // A key pressed while a webview (an iframe) has the focus reaches the workbench only through the
        // webview, and not at all while that webview is being closed: give the focus back to the workbench.
        await page.evaluate(() => {
          const active = document.activeElement;
          if (active instanceof HTMLElement && active.tagName === 'IFRAME') active.blur();
        });
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: Math.min(windowMs * 2, left()) });
      }
      // Bounded: a visible input that takes no text (a quick pick that is closing) is closed and opened again.
      await input.fill(`>${title}`, { timeout: Math.min(windowMs * 2, left()) });
      await waitFor('the palette to highlight the command', async () => (await highlighted(page, title)) || undefined, {
        timeoutMs: Math.min(windowMs, left()),
        intervalMs: 100,
      });
      return;
    } catch (e) {
      lastError = e instanceof Error ? e.message.split('\n')[0] : String(e);
      windowMs = Math.min(windowMs * 2, 8000);
      // Not listed yet: close, so that the next open reads the commands again.
      if (await input.isVisible().catch(() => false)) {
        await page.keyboard.press('Escape');
        await input.waitFor({ state: 'hidden', timeout: left() }).catch(() => {});
      }
    }
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for the command "${title}" in the palette (last: ${lastError})`);
}

/**
 * Where the workbench's focus is, for a failure message: the focused element of the page (its tag, classes and
 * label), or "nothing" when the page itself does not have the focus.
 */
export function describeFocus(page: Page): Promise<string> {
  return page
    .evaluate(() => {
      const e = document.activeElement;
      if (!document.hasFocus()) return 'nothing (the page does not have the focus)';
      if (!e || e === document.body) return 'the body';
      const label = e.getAttribute('aria-label') ?? e.getAttribute('title') ?? '';
      return `<${e.tagName.toLowerCase()} class="${e.className}"${label ? ` label="${label}"` : ''}>`;
    })
    .catch((err: unknown) => `unknown (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
}

/**
 * Runs a command from the palette: F1, type its title, Enter. Waits until the palette's highlighted entry is that
 * command (so Enter runs it and not a near match), retrying until the command is listed.
 */
export async function runCommand(page: Page, title: string, { timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<void> {
  await showInPalette(page, title, timeoutMs);
  await page.keyboard.press('Enter');
  // The palette closes, or the command opens a quick pick of its own in the same widget (its input no
  // longer holds the command's title): either way the command has started.
  await page
    .waitForFunction(
      ([selector, typed]) => {
        const input = document.querySelector<HTMLInputElement>(selector);
        return !input || input.getClientRects().length === 0 || input.value !== typed;
      },
      [PALETTE_INPUT, `>${title}`] as const,
      { timeout: 5000, polling: 50 },
    )
    .catch(() => {});
}

/**
 * Waits until the palette lists the command `title` (so the extension that contributes it has been read by the
 * extension host), then closes the palette without running it.
 */
export async function waitForCommand(page: Page, title: string, { timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<void> {
  await showInPalette(page, title, timeoutMs);
  await page.keyboard.press('Escape');
  await page
    .locator(PALETTE_INPUT)
    .waitFor({ state: 'hidden', timeout: 5000 })
    .catch(() => {});
}

/**
 * Finds a frame (a webview's own document is an iframe nested in the webview's host iframe) for which
 * `predicate` holds, polling `page.frames()` until the deadline. Errors in `predicate` (say, a frame that went
 * away) count as false.
 */
export async function findWebviewFrame(
  page: Page,
  predicate: (frame: Frame) => boolean | Promise<boolean>,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<Frame> {
  return waitFor(
    'a webview frame matching the predicate',
    async () => {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame() || frame.isDetached()) continue;
        try {
          if (await predicate(frame)) return frame;
        } catch {}
      }
      return undefined;
    },
    { timeoutMs, intervalMs: 250 },
  );
}

/** A predicate for findWebviewFrame: the frame has an element matching `selector`. */
export function frameHasSelector(selector: string): (frame: Frame) => Promise<boolean> {
  return async (frame) => (await frame.locator(selector).count()) > 0;
}

/** Waits for a notification toast containing `text`; returns its text. */
export async function waitForNotification(
  page: Page,
  text: string | RegExp,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<string> {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  await toast.waitFor({ state: 'visible', timeout: timeoutMs });
  return (await toast.innerText()).trim();
}

/** Directory for screenshots: $MCP_ROUNDTRIP_SCREENSHOTS, else test-results/screenshots/ in the repository. */
export function screenshotDir(): string {
  return path.resolve(process.env.MCP_ROUNDTRIP_SCREENSHOTS || path.join(repoRoot, 'test-results', 'screenshots'));
}

/** Saves a PNG of the page as `<screenshotDir>/<name>.png` and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = screenshotDir();
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file });
  return file;
}
