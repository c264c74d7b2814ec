/**
 * App-rendered elicitation (SEP-3118) in a real VS Code (code-server, the .vsix installed), with a
 * fixture server of ours (test/fixtures/apps/elicitationAppServer.mjs, 2026-07-28): the form of an
 * MRTR round names a `ui://` app, which renders in its card in the round panel; the answer given in
 * the app goes back to the server ("received color=green"); then, with `mcpRoundtrip.apps.enabled`
 * off, the same round is a native form and its answer reaches the server too.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  findWebviewFrame,
  openWorkbench,
  repoRoot,
  screenshot,
  startCodeServer,
  waitFor,
  type CodeServerHost,
  type Workbench,
} from './harness';
import { callTool, makeWorkspace, press, suiteHooks, VSIX, waitForLog } from './support';

const PICKER = path.join(repoRoot, 'test', 'fixtures', 'apps', 'elicitationAppServer.mjs');

describe('MCP Apps: app-rendered elicitation in the round panel (SEP-3118)', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws: string;

  before(async () => {
    ws = makeWorkspace({ picker: { type: 'stdio', command: process.execPath, args: [PICKER] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'app-elicitation-failure-' });

  it("the round's form renders as the server's app in its card; the app's answer reaches the server", async () => {
    const page = wb.page;
    await callTool(page, 'picker', 'Choose a color');
    const panel = await findWebviewFrame(
      page,
      async (f) => (await f.locator('[data-testid="app-frame"][data-initialized="true"]').count()) > 0,
      { timeoutMs: 120_000 },
    );
    await panel.getByTestId('use-form-color').waitFor({ timeout: 30_000 });
    const app = await waitFor('the app frame', () => panel.childFrames().find((f: Frame) => f.url().includes('/app/')));
    await waitFor('the app to get the question', async () => /Which color\?/.test(await app.locator('body').innerText()), {
      timeoutMs: 60_000,
    });
    await screenshot(page, 'app-elicitation-card');
    await app.locator('#pick-green').click();
    await waitForLog(host.logsDir, /received color=green action=accept/);
  });

  it('with MCP Apps off, the same round is the native form, and its answer reaches the server', async () => {
    const page = wb.page;
    writeFileSync(path.join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'mcpRoundtrip.apps.enabled': false }));
    await waitForLog(host.logsDir, /MCP Apps are off \(mcpRoundtrip\.apps\.enabled\)/);
    await callTool(page, 'picker', 'Choose a color');
    await waitForLog(host.logsDir, /elicitation color shown as a form: MCP Apps are off/);
    const panel = await findWebviewFrame(page, async (f) => (await f.getByLabel('Color', { exact: true }).count()) > 0, {
      timeoutMs: 60_000,
    });
    await panel.getByLabel('Color', { exact: true }).selectOption('red');
    await press(panel, 'submit');
    await waitForLog(host.logsDir, /received color=red action=accept/);
  });
});
