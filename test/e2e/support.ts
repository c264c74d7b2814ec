/**
 * Shared steps of the e2e suites: a workspace with a `.vscode/mcp.json`, the packaged `.vsix`
 * (built once by test/e2e/run.mjs), quick-pick navigation and the round-trip log file.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { describeFocus, findWebviewFrame, repoRoot, runCommand, screenshot, waitFor, type CodeServerHost, type Workbench } from './harness';

/** The packaged extension, as a user installs it. */
export const VSIX = process.env.MCP_ROUNDTRIP_VSIX ?? path.join(repoRoot, 'out', 'mcp-roundtrip.vsix');
/** The test-only language model provider (deterministic models for sampling). */
export const TEST_MODELS = path.join(repoRoot, 'test', 'fixtures', 'test-model-extension');
export const DEMO = path.join(repoRoot, 'dist', 'demo-server.js');

/** A temp workspace whose `.vscode/mcp.json` defines `workspace-demo` (the demo server again). */
export function makeWorkspace(extra: Record<string, unknown> = {}): string {
  const ws = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-e2e-ws-'));
  mkdirSync(path.join(ws, '.vscode'));
  writeFileSync(
    path.join(ws, '.vscode', 'mcp.json'),
    JSON.stringify({ servers: { 'workspace-demo': { type: 'stdio', command: process.execPath, args: [DEMO] }, ...extra } }, null, 2),
  );
  writeFileSync(path.join(ws, 'notes.md'), '# Notes\n');
  return ws;
}

/** In an open quick pick, type `text`, wait until a row shows `rowText`, and accept it. */
export async function pick(page: Page, text: string, rowText = text, timeoutMs = 60_000): Promise<void> {
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: timeoutMs });
  await input.fill(text);
  await page
    .locator(`.quick-input-widget .monaco-list-row:has-text(${JSON.stringify(rowText)})`)
    .first()
    .waitFor({ timeout: timeoutMs });
  await page.keyboard.press('Enter');
}

/** The MCP Roundtrip output channel's file under the extension host logs (newest session). */
export function logText(logsDir: string): string {
  const files: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'MCP Roundtrip.log') files.push(p);
    }
  };
  walk(logsDir);
  return files.map((f) => readFileSync(f, 'utf8')).join('\n');
}

/** Wait until the round-trip log matches `re`; returns the log. */
export function waitForLog(logsDir: string, re: RegExp, timeoutMs = 60_000): Promise<string> {
  return waitFor(
    `the round-trip log to match ${re}`,
    () => {
      const t = logText(logsDir);
      return re.test(t) ? t : undefined;
    },
    { timeoutMs },
  );
}

/**
 * Open the MCP Roundtrip view container until `pane` (one of its panes) is visible. Its activity bar icon
 * is clicked only while the container is not open: a click on an open container's icon closes the side
 * bar, and a window that restores the container after a reload shows its icon before its panes.
 */
async function showRoundtripView(page: Page, pane: Locator, timeoutMs = 60_000): Promise<void> {
  const icon = page.locator('.activitybar [aria-label^="MCP Roundtrip"]').first();
  const opened = (): Promise<boolean> =>
    icon.evaluate((e) => !!e.closest('.action-item')?.classList.contains('checked'), undefined, { timeout: 5000 }).catch(() => true);
  await waitFor(
    'the MCP Roundtrip view to show its pane',
    async () => {
      if (await pane.first().isVisible()) return true;
      if (await opened()) return undefined;
      await icon.click({ timeout: 5000 }).catch(() => {});
      // Clicked once: the container opens, or a later look finds it still closed.
      await waitFor('the MCP Roundtrip container to open', async () => (await pane.first().isVisible()) || (await opened()) || undefined, {
        timeoutMs: 10_000,
      }).catch(() => {});
      return undefined;
    },
    { timeoutMs },
  );
}

/** Open the MCP Roundtrip view and return the visible tree rows' text. */
export async function serverRows(page: Page): Promise<string[]> {
  const view = page.locator('[id="workbench.view.extension.mcpRoundtrip"]');
  await showRoundtripView(page, view.locator('.pane'));
  const rows = view.locator('.pane-body .monaco-list-row');
  await rows.first().waitFor({ timeout: 60_000 });
  return rows.allInnerTexts();
}

/** The rows of `pane`, a pane of the MCP Roundtrip view, once the view shows it ({@link showRoundtripView}) expanded. */
export async function paneRows(page: Page, pane: Locator, timeoutMs = 60_000): Promise<Locator> {
  await showRoundtripView(page, pane, timeoutMs);
  const header = pane.locator('.pane-header').first();
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  return pane.locator('.monaco-list-row');
}

/** The Call History pane of the MCP Roundtrip view (opened, expanded), and its rows; `title`: the pane's title in another language. */
export function historyRows(page: Page, title = 'Call History'): Promise<Locator> {
  return paneRows(page, page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) }));
}

/**
 * Waits until `field` (in a webview) has the focus, its page too, so that what is typed goes there; on a
 * timeout, the error says where the workbench's focus is instead.
 */
export async function waitForFieldFocus(page: Page, field: Locator, what: string, timeoutMs = 30_000): Promise<void> {
  await waitFor(what, async () => (await field.evaluate((e) => e === document.activeElement && document.hasFocus())) || undefined, {
    timeoutMs,
  }).catch(async (e: Error) => {
    throw new Error(`${e.message}; the focus is on ${await describeFocus(page)}`);
  });
}

/** The round or arguments panel of the call whose header names `target`, once it shows `selector`. */
export async function panel(page: Page, target: string, selector = '[data-panel]'): Promise<Frame> {
  const named = `code.target:has-text(${JSON.stringify(target)}), h1:has-text(${JSON.stringify(target)}), header:has-text(${JSON.stringify(target)})`;
  return findWebviewFrame(page, async (f) => (await f.locator(selector).count()) > 0 && (await f.locator(named).count()) > 0, {
    timeoutMs: 60_000,
  });
}

/** Press a panel button the way a keyboard user does (a progress toast may cover it for the mouse). */
export async function press(frame: Frame, testId: string): Promise<void> {
  const b = frame.getByTestId(testId);
  await b.waitFor({ timeout: 60_000 });
  await b.focus();
  await frame.page().keyboard.press('Enter');
}

/**
 * Run `command` from the palette and make its quick picks' choices: each of `choices` is the text
 * typed and the row to accept (`[text, rowText]` when the row reads otherwise). A quick pick closes
 * when something else takes the focus (on a busy machine, a webview or editor that finishes opening
 * after the command ran): then nothing has been chosen yet, so the command is run again, each try
 * given twice the time of the last (15 s first), until `timeoutMs`.
 */
export async function commandPick(page: Page, command: string, choices: (string | [string, string])[], timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let window = 15_000; ; window *= 2) {
    try {
      await runCommand(page, command);
      for (const c of choices) {
        const [text, row] = typeof c === 'string' ? [c, c] : c;
        await pick(page, text, row, Math.max(1000, Math.min(window, deadline - Date.now())));
      }
      return;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
      // Only a quick pick still open is closed: with the focus back in a webview, Escape would reach it
      // (the round panel cancels its round on Escape; seen in CI).
      const widget = page.locator('.quick-input-widget');
      if (await widget.isVisible().catch(() => false)) await page.keyboard.press('Escape');
    }
  }
}

/**
 * Run `command` from the palette and answer the input box it opens (the one whose prompt contains
 * `prompt`) with `text`, until `done()` holds. Success is that state, not the keystrokes: an input box
 * closes when something else takes the focus (on a busy machine, a view or editor that finishes opening
 * after the command ran), and may not open at all while the palette is still closing; then the command
 * is run again, each try given twice the time of the last (15 s first), until `timeoutMs`.
 */
export async function commandInput(
  page: Page,
  command: string,
  prompt: string,
  text: string,
  done: () => Promise<boolean>,
  timeoutMs = 150_000,
): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('.quick-input-box input');
  const deadline = Date.now() + timeoutMs;
  for (let window = 15_000; ; window *= 2) {
    const left = () => Math.max(1000, Math.min(window, deadline - Date.now()));
    try {
      if (await done()) return;
      await runCommand(page, command);
      await widget.locator('.quick-input-message', { hasText: prompt }).waitFor({ state: 'visible', timeout: left() });
      await waitFor('the input box to take text', async () => (await input.isEditable()) || undefined, {
        timeoutMs: left(),
        intervalMs: 100,
      });
      await input.fill(text, { timeout: left() });
      // On the input itself: a box that closed in between takes no Enter meant for it.
      await input.press('Enter', { timeout: left() });
      await waitFor(`"${command}" to take effect`, async () => (await done()) || undefined, { timeoutMs: left() });
      return;
    } catch (e) {
      if (Date.now() >= deadline) throw e;
      if (await input.isVisible().catch(() => false)) await page.keyboard.press('Escape');
    }
  }
}

/** Palette → Call Tool… → server → tool; with `toolName`, submit its arguments panel as it opens. */
export async function callTool(page: Page, server: string, toolLabel: string, toolName?: string): Promise<void> {
  await commandPick(page, 'MCP Roundtrip: Call Tool…', [server, toolLabel]);
  if (toolName) await press(await panel(page, toolName, '[data-panel="arguments"]'), 'submit');
}

/** The result view (webview) whose text contains `mustContain`, once it shows. */
export async function resultView(page: Page, mustContain: string): Promise<Frame> {
  const root = (f: Frame) => f.locator(`[data-testid="result-view"]:has-text(${JSON.stringify(mustContain)})`);
  return findWebviewFrame(page, async (f) => (await root(f).count()) > 0, { timeoutMs: 60_000 });
}

/**
 * The text of the result that contains `mustContain`: the result view's (tool, prompt and resource
 * results), or an editor's (a document opened with Open raw or Open as document; Monaco's nbsp made spaces).
 */
export async function resultText(page: Page, mustContain: string): Promise<string> {
  const quoted = JSON.stringify(mustContain);
  return waitFor(
    `a result showing ${quoted}`,
    async () => {
      for (const f of page.frames()) {
        if (f === page.mainFrame() || f.isDetached()) continue;
        const root = f.locator(`[data-testid="result-view"]:has-text(${quoted})`);
        if (await root.count().catch(() => 0)) return (await root.first().innerText()).replace(/\u00a0/g, ' ');
      }
      const lines = page.locator(`.editor-instance .monaco-editor .view-lines:has-text(${quoted})`).first();
      return (await lines.count()) ? (await lines.innerText()).replace(/\u00a0/g, ' ') : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
}

/** Between tests: no open editor, panel, dialog or toast left from the previous one. */
export async function reset(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'Notifications: Clear All Notifications');
}

/**
 * The hooks every e2e suite around one code-server shares (its own `before` starts it): with
 * `resetEach`, each test starts from a clean window ({@link reset}); a failed test leaves a screenshot
 * `<shotPrefix><title>.png`; after the suite the browser and code-server close (its logs kept, and
 * their folder printed, when a test failed), `alsoStop` runs, and the workspace folder is removed.
 * @param state what the suite's `before` opened, read when each hook runs
 */
export function suiteHooks(
  state: () => { wb?: Workbench; host?: CodeServerHost; ws?: string },
  o: { shotPrefix?: string; resetEach?: boolean; alsoStop?: () => Promise<unknown> } = {},
): void {
  let failed = false;
  if (o.resetEach) {
    beforeEach(async () => {
      const { wb } = state();
      if (wb) await reset(wb.page);
    });
  }
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    failed = true;
    const { wb } = state();
    if (wb) await screenshot(wb.page, `${o.shotPrefix ?? 'failure-'}${this.currentTest.title.replace(/\W+/g, '-')}`).catch(() => {});
  });
  after(async () => {
    const { wb, host, ws } = state();
    await wb?.close();
    await host?.stop({ removeFiles: !failed });
    if (failed && host) console.log(`logs kept in ${host.logsDir}`);
    await o.alsoStop?.();
    if (ws) rmSync(ws, { recursive: true, force: true });
  });
}

/** VS Code's chat view (in the secondary side bar). */
export const CHAT = '.part.auxiliarybar';
/** The chat's input editor. */
export const INPUT = `${CHAT} .interactive-input-part .monaco-editor`;

/** The chat view's list of turns, as text ('' when the conversation is empty: no list is shown). */
export async function chatText(page: Page): Promise<string> {
  const list = page.locator(`${CHAT} .interactive-list`).filter({ visible: true });
  if ((await list.count()) === 0) return '';
  return (
    await list
      .first()
      .innerText()
      .catch(() => '')
  ).replace(/\u00a0/g, ' ');
}

/** Wait until the chat shows `re` (in the whole conversation); returns the text. */
export function waitForChat(page: Page, re: RegExp, timeoutMs = 90_000): Promise<string> {
  return waitFor(
    `the chat to show ${re}`,
    async () => {
      const t = await chatText(page);
      return re.test(t) ? t : undefined;
    },
    { timeoutMs },
  );
}

/**
 * Send `text` from the chat input, once: typed until the input holds exactly it, then Enter, and
 * again only while the chat has not taken it (the input still holds text and no turn shows it).
 */
export async function send(page: Page, text: string): Promise<void> {
  const input = page.locator(INPUT).first();
  const held = async () =>
    (
      (await input
        .locator('.view-lines')
        .innerText()
        .catch(() => '')) || ''
    )
      .replace(/\u00a0/g, ' ')
      .trim();
  const before = (await chatText(page)).split(text).length;
  // The chat empties its input when it takes a request, and the turn shows the text.
  const taken = async () => (await held()) === '' || (await chatText(page)).split(text).length > before;
  await waitFor(
    `the chat to take "${text}"`,
    async () => {
      // What is sent is checked before Enter: on a loaded machine the `@` completion list can take part of
      // the typing (CI sent "@read @roundtrip hello"), and Enter would then send that to another participant.
      await waitFor(
        `the chat input to hold "${text}"`,
        async () => {
          await input.click();
          await page.keyboard.press('Control+A');
          await page.keyboard.press('Backspace');
          await page.keyboard.type(text);
          if (
            await page
              .locator(`${CHAT} .suggest-widget.visible`)
              .isVisible()
              .catch(() => false)
          )
            await page.keyboard.press('Escape');
          return (await held()) === text || undefined;
        },
        { timeoutMs: 60_000, intervalMs: 500 },
      );
      await page.keyboard.press('Enter');
      // A completion list that opened after the check takes the Enter instead (CI: nothing was sent, and
      // the test waited 90 s for a reply); then the text is typed and sent again.
      return waitFor('the chat to take the request', async () => (await taken()) || undefined, { timeoutMs: 10_000 }).catch(
        () => undefined,
      );
    },
    { timeoutMs: 90_000, intervalMs: 500 },
  );
}

/** A new, empty chat conversation (the model picked before stays picked). */
export async function newChat(page: Page): Promise<void> {
  await page.locator(`${CHAT} a[aria-label^="New Chat"]`).first().click();
  await waitFor('an empty chat', async () => (await chatText(page)).trim() === '' || undefined, { timeoutMs: 30_000 });
}

/**
 * Preferences: Color Theme → `theme`. (The palette ranks "Browse Color Themes in Marketplace" first,
 * so the command's own row is clicked rather than taken from the top; a focused webview is left first,
 * as it would keep F1.)
 */
export async function colorTheme(page: Page, theme: string): Promise<void> {
  await page.evaluate(() =>
    document.activeElement instanceof HTMLElement && document.activeElement.tagName === 'IFRAME'
      ? document.activeElement.blur()
      : undefined,
  );
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await waitFor('the command palette', async () => {
    if (!(await input.isVisible())) await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 2000 });
    return true;
  });
  await input.fill('>Preferences: Color Theme');
  await page.locator('.quick-input-widget .monaco-list-row[aria-label^="Preferences: Color Theme,"]').click();
  await pick(page, theme);
}

/**
 * The app view whose app completed `ui/initialize` (its webview) and the app's own frame inside it
 * (the document served from the loopback app server, under `/app/`), the first whose app shows
 * `appSelector` when given (another app's view may be open too).
 */
export async function appView(page: Page, appSelector?: string, timeoutMs = 120_000): Promise<{ view: Frame; app: Frame }> {
  const appOf = (view: Frame) => view.childFrames().find((f) => f.url().includes('/app/'));
  const view = await findWebviewFrame(
    page,
    async (f) => {
      if ((await f.locator('[data-testid="app-frame"][data-initialized="true"]').count()) === 0) return false;
      const app = appOf(f);
      return !appSelector || (app !== undefined && (await app.locator(appSelector).count()) > 0);
    },
    { timeoutMs },
  );
  const app = await waitFor('the app frame', () => appOf(view));
  return { view, app };
}

/**
 * The serious and critical axe-core violations (through @axe-core/playwright) of one of our webviews,
 * `frame` being its document (the inner frame {@link panel} and {@link resultView} return): only that
 * document is analysed (VS Code's workbench around it is not ours), less the `exclude` selectors in it
 * (an app's own frame: the server's page). Each as `rule (impact): help — targets`.
 * @throws Error when the frame is not inside a webview's two frames
 */
export async function axeViolations(frame: Frame, exclude: string[] = []): Promise<string[]> {
  const outer = frame.parentFrame();
  if (!outer?.parentFrame()) throw new Error('axeViolations: the frame is not a webview document');
  // The two <iframe> elements holding the document, marked so that the selectors name them alone.
  const mark = `axe-${Date.now().toString(36)}`;
  for (const f of [outer, frame]) await (await f.frameElement()).evaluate((e, m) => (e as Element).setAttribute('data-axe', m), mark);
  const chain = [`iframe[data-axe="${mark}"]`, `iframe[data-axe="${mark}"]`];
  let builder = new AxeBuilder({ page: frame.page() }).include([...chain, 'html']);
  for (const x of exclude) builder = builder.exclude([...chain, x]);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => JSON.stringify(n.target))
          .slice(0, 5)
          .join(', ')}`,
    );
}
