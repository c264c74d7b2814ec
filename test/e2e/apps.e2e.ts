/**
 * MCP Apps in a real VS Code (code-server, the .vsix installed) with a real app server from npm
 * (`@modelcontextprotocol/server-system-monitor` over stdio, a 2025-11-25 server, so the capability
 * rides in `initialize`): Get System Info opens its app in the app view, framed from the loopback app
 * server; the app's once-a-second poll of its app-only tool waits for the consent modal, then runs
 * ("Allow for this App"); the app-only tool is not offered in the tool picker; a theme change is sent
 * to the app; Close App tears it down. Screenshots in light and dark.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  findWebviewFrame,
  openWorkbench,
  repoRoot,
  runCommand,
  screenshot,
  startCodeServer,
  waitFor,
  type CodeServerHost,
  type Workbench,
} from './harness';
import { callTool, logText, makeWorkspace, pick, suiteHooks, VSIX, waitForLog } from './support';

const MONITOR = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-system-monitor', 'dist', 'index.js');

describe('MCP Apps in a real VS Code (system-monitor)', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws: string;

  before(async () => {
    ws = makeWorkspace({ monitor: { type: 'stdio', command: process.execPath, args: [MONITOR, '--stdio'] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'apps-failure-' });

  it('the app renders, its app-only tool runs after consent and is not offered to people, a theme change is sent, Close App tears it down', async () => {
    const page = wb.page;
    await callTool(page, 'monitor', 'Get System Info');
    // The app view's webview, once the app inside it completed ui/initialize.
    const view = await findWebviewFrame(
      page,
      async (f) => (await f.locator('[data-testid="app-frame"][data-initialized="true"]').count()) > 0,
      {
        timeoutMs: 120_000,
      },
    );
    const appFrame = await waitFor('the app frame', () => view.childFrames().find((f: Frame) => f.url().includes('/app/')));
    await waitFor('the app to draw', async () => /System Monitor/.test(await appFrame.locator('body').innerText()));
    await waitForLog(host.logsDir, /app ui:\/\/system-monitor\/mcp-app\.html runs under: default-src 'none'/);

    // The app polls poll-system-stats (app-only, not read-only): the person is asked first.
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'poll-system-stats' });
    await dialog.waitFor({ timeout: 60_000 });
    await screenshot(page, 'apps-consent');
    await dialog.getByRole('button', { name: 'Allow for this App' }).click();
    await waitForLog(host.logsDir, /app Get System Info: tools\/call poll-system-stats/);
    // The polled figures reach the app (its memory gauge leaves "--%").
    await waitFor('the app to show polled figures', async () => !/--%/.test(await appFrame.locator('body').innerText()), {
      timeoutMs: 60_000,
    });
    await screenshot(page, 'apps-system-monitor-light');

    // A theme change is sent to the app (code-server starts light: to dark).
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
    await pick(page, 'Dark Modern');
    await waitForLog(host.logsDir, /app Get System Info: host context: theme dark/);
    await screenshot(page, 'apps-system-monitor-dark');

    // The app-only tool is not in the tool picker.
    await runCommand(page, 'MCP Roundtrip: Call Tool…');
    await pick(page, 'monitor');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await rows.filter({ hasText: 'Get System Info' }).first().waitFor({ timeout: 60_000 });
    assert.equal(await rows.filter({ hasText: 'Poll System Stats' }).count(), 0);
    await page.keyboard.press('Escape');

    // Close App: ui/resource-teardown, then the view closes and its document is no longer served.
    const url = appFrame.url();
    await view.getByTestId('close-app').click();
    await waitForLog(host.logsDir, /app Get System Info: closed/);
    assert.equal((await fetch(url).catch(() => ({ status: 0 }))).status, 404);
    assert.doesNotMatch(logText(host.logsDir), /was stopped/);
  });
});
