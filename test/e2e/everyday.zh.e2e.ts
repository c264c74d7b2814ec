/**
 * Everyday use in Chinese (issue 43), in a real VS Code: code-server `--locale zh-cn` with a language
 * pack for it (test/fixtures/zh-cn-language-pack: VS Code accepts a display language only with one, and
 * translates nothing of VS Code itself), the .vsix installed, walkthroughs allowed to open on install.
 * The walkthrough opens on the first start and its first step runs the demo's plan_trip; the commands,
 * the view, a notification and the round panel read in Chinese; a round in a background tab lights the
 * status bar item, whose click brings the panel forward. Screenshots `zh-*.png`.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Frame } from 'playwright-core';
import {
  openWorkbench,
  repoRoot,
  runCommand,
  screenshot,
  startCodeServer,
  waitFor,
  waitForCommand,
  waitForNotification,
  type CodeServerHost,
  type Workbench,
} from './harness';
import { makeWorkspace, panel, serverRows, suiteHooks, TEST_MODELS, VSIX } from './support';
import { nlsStrings } from '../support/manifest';

const ZH_PACK = path.join(repoRoot, 'test', 'fixtures', 'zh-cn-language-pack');
const zh = nlsStrings('zh-cn');

describe('e2e everyday use in Chinese: walkthrough, commands, view, round panel, waiting-round signal', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';
  let round: Frame | undefined;

  before(async () => {
    ws = makeWorkspace();
    host = await startCodeServer({
      workspace: ws,
      vsix: VSIX,
      extensionDirs: [ZH_PACK, TEST_MODELS],
      locale: 'zh-cn',
      settings: { 'workbench.welcomePage.walkthroughs.openOnInstall': true },
    });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'zh-failure-' });

  it('opens the walkthrough on the first start, in Chinese', async () => {
    const page = wb.page;
    const title = page.getByText(zh['walkthrough.title'], { exact: true }).first();
    await title.waitFor({ timeout: 120_000 });
    await page.getByText(zh['walkthrough.tryDemo.title'], { exact: true }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'zh-walkthrough');
  });

  it('lists the commands in Chinese, and a notification says its text in Chinese', async () => {
    const page = wb.page;
    await waitForCommand(page, `MCP Roundtrip: ${zh['command.callTool.title']}`, { timeoutMs: 120_000 });
    await runCommand(page, `MCP Roundtrip: ${zh['command.showWaitingRound.title']}`);
    const text = await waitForNotification(page, '没有等待你回答的轮次。', { timeoutMs: 60_000 });
    assert.match(text, /没有等待你回答的轮次/);
    await screenshot(page, 'zh-notification');
    await runCommand(page, 'Notifications: Clear All Notifications');
  });

  it('shows the MCP Roundtrip view in Chinese', async () => {
    const page = wb.page;
    const rows = await serverRows(page);
    assert.ok(
      rows.some((r) => r.includes('demo')),
      `the demo server is listed: ${rows.join(' | ')}`,
    );
    for (const name of [zh['view.servers.name'], zh['view.history.name']])
      await page.locator('.pane-header', { hasText: name }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'zh-view');
  });

  it("the walkthrough's first step runs the demo's plan_trip; its round panel reads in Chinese", async () => {
    const page = wb.page;
    await runCommand(page, 'View: Open First Editor in Group');
    await page.getByText(zh['walkthrough.title'], { exact: true }).first().waitFor({ timeout: 60_000 });
    // The first step is open (its title then disabled); its link shows as a button.
    const run = page.locator('.getting-started-step.expanded').getByRole('button', { name: '试用演示', exact: true });
    await run.first().waitFor({ timeout: 60_000 });
    await run.first().click();
    round = await panel(page, 'plan_trip', '[data-panel="round"][data-round="1"]');
    await waitFor(
      'the panel in Chinese',
      async () => ((await round!.locator('h1').innerText()).includes('需要你的输入') ? true : undefined),
      {
        timeoutMs: 60_000,
      },
    );
    assert.equal(await round.locator('html').getAttribute('lang'), 'zh-cn');
    assert.equal((await round.getByTestId('submit').innerText()).trim(), '提交');
    assert.equal((await round.locator('[data-testid^="decline-"]').first().innerText()).trim(), '拒绝');
    assert.match(await round.locator('span.round').first().innerText(), /第 1 轮/);
    await screenshot(page, 'zh-walkthrough-demo-round-panel');
  });

  it('a round in a background tab lights the status bar item; its click brings the panel forward', async () => {
    const page = wb.page;
    assert.ok(round, 'the round panel of the previous test');
    // The walkthrough's tab (same group) in front: the round panel goes to the background.
    await page.locator('.tabs-container .tab', { hasText: 'Welcome' }).first().click();
    const activeTab = page.locator('.tabs-container .tab.active');
    await waitFor(
      'the untitled file in front',
      async () => ((await activeTab.first().innerText()).includes('plan_trip') ? undefined : true),
      {
        timeoutMs: 60_000,
      },
    );
    const item = page.locator('.statusbar-item', { hasText: 'demo 正在等你' }).first();
    await item.waitFor({ timeout: 60_000 });
    await screenshot(page, 'zh-waiting-status-bar');
    await item.click();
    await waitFor(
      'the round panel in front again',
      async () => ((await activeTab.first().innerText()).includes('plan_trip') ? true : undefined),
      { timeoutMs: 60_000 },
    );
    assert.match(await activeTab.first().innerText(), /demo：plan_trip（第 1 轮）/);
    await screenshot(page, 'zh-waiting-round-forward');
  });
});
