/**
 * Accessibility of the three webviews in a real VS Code (issue 43): axe-core (through
 * @axe-core/playwright) finds no serious or critical violation in the round panel (book_table's
 * arguments and its round-1 form), the result view (echo_state's result) and the app view
 * (system-monitor's app; the app's own frame is the server's page, left out), in the light, dark and
 * high-contrast themes. Each view's count of violations of every impact is printed.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { findWebviewFrame, openWorkbench, repoRoot, screenshot, startCodeServer, type CodeServerHost, type Workbench } from './harness';
import { axeViolations, callTool, colorTheme, makeWorkspace, panel, press, resultView, suiteHooks, VSIX } from './support';

const MONITOR = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-system-monitor', 'dist', 'index.js');

/** The themes checked, with the class VS Code gives a webview's body in each. */
const THEMES = [
  { theme: 'Light Modern', body: 'vscode-light' },
  { theme: 'Dark Modern', body: 'vscode-dark' },
  { theme: 'Dark High Contrast', body: 'vscode-high-contrast' },
] as const;

describe('e2e accessibility: axe-core in the round panel, the result view and the app view', function () {
  this.timeout(600_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';

  before(async () => {
    ws = makeWorkspace({ monitor: { type: 'stdio', command: process.execPath, args: [MONITOR, '--stdio'] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'a11y-failure-' });

  /** Bring the tab titled `title` forward and return its webview document once it shows `selector` in theme `body`. */
  async function front(page: Page, title: string, selector: string, body: string): Promise<Frame> {
    await page.locator('.tabs-container .tab', { hasText: title }).first().click();
    return findWebviewFrame(
      page,
      async (f) => (await f.locator(`body.${body} ${selector}`).count()) > 0 && (await f.locator(selector).first().isVisible()),
      { timeoutMs: 60_000 },
    );
  }

  it('no serious or critical violation in any of the three webviews, in light, dark and high contrast', async () => {
    const page = wb.page;
    // The round panel: book_table's arguments (checked as they open), then its round-1 form, left waiting.
    await callTool(page, 'demo', 'Book a table');
    const args = await panel(page, 'book_table', '[data-panel="arguments"]');
    const found: Record<string, string[]> = {};
    found['round panel (arguments)'] = await axeViolations(args);
    await press(args, 'submit');
    await panel(page, 'book_table', '[data-panel="round"][data-round="1"]');
    // The result view: echo_state answered.
    await callTool(page, 'demo', 'Echo request state');
    const echo = await panel(page, 'echo_state', '[data-panel="round"][data-round="1"]');
    await press(echo, 'submit');
    await resultView(page, 'echo_state');
    // The app view: system-monitor's app, its poll allowed.
    await callTool(page, 'monitor', 'Get System Info');
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'poll-system-stats' });
    await dialog.waitFor({ timeout: 120_000 });
    await dialog.getByRole('button', { name: 'Allow for this App' }).click();
    await findWebviewFrame(page, async (f) => (await f.locator('[data-testid="app-frame"][data-initialized="true"]').count()) > 0, {
      timeoutMs: 120_000,
    });

    for (const { theme, body } of THEMES) {
      await colorTheme(page, theme);
      const views = [
        { name: 'round panel', tab: 'book_table (', selector: '[data-panel="round"]', exclude: [] },
        { name: 'result view', tab: 'echo_state —', selector: '[data-testid="result-view"]', exclude: [] },
        { name: 'app view', tab: 'Get System Info —', selector: '[data-testid="app-frame"]', exclude: ['[data-testid="app-frame"]'] },
      ];
      for (const v of views) {
        const f = await front(page, v.tab, v.selector, body);
        const violations = await axeViolations(f, v.exclude);
        found[`${v.name} (${theme})`] = violations;
        console.log(
          `      axe-core ${v.name}, ${theme}: ${violations.length} serious or critical violation(s)${violations.map((x) => `\n        ${x}`).join('')}`,
        );
        await screenshot(page, `a11y-${v.name}-${body}`);
      }
    }
    assert.deepEqual(
      Object.entries(found).filter(([, v]) => v.length),
      [],
    );
  });
});
