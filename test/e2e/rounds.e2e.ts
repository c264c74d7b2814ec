/**
 * Multi round-trip calls answered through the round panel in a real VS Code (code-server 1.139,
 * the .vsix installed, the test model provider for sampling): book_table with every field type,
 * plan_trip (form → sampling review → roots), connect_account (URL consent), decline, cancel, a
 * hostile server's markup shown as text, and a 2025-era server nobody here wrote (server-everything).
 * Screenshots of each panel go to test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  findWebviewFrame,
  openWorkbench,
  repoRoot,
  runCommand,
  screenshot,
  startCodeServer,
  waitForNotification,
  type CodeServerHost,
  type Workbench,
} from './harness';
import {
  callTool,
  commandPick,
  makeWorkspace,
  panel,
  pick,
  press,
  resultText,
  suiteHooks,
  TEST_MODELS,
  VSIX,
  waitForFieldFocus,
  waitForLog,
} from './support';

const EVERYTHING = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const HOSTILE = path.join(repoRoot, 'test', 'fixtures', 'hostileServer.mjs');

describe('e2e rounds: the round panel in a real VS Code', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';
  const external: string[] = [];
  const dialogs: string[] = [];
  // What the browser refused by a Content Security Policy (the panels' own script and styles must never be).
  const refused: string[] = [];

  before(async () => {
    ws = makeWorkspace({
      everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
      hostile: { type: 'stdio', command: process.execPath, args: [HOSTILE] },
    });
    host = await startCodeServer({ workspace: ws, vsix: VSIX, extensionDirs: [TEST_MODELS] });
    wb = await openWorkbench(host.url, ws);
    // Every request the browser makes to the placeholder auth domain (there must be none before consent).
    wb.page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
    wb.page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
    });
    wb.context.on('request', (r) => {
      if (r.url().includes('example.test')) external.push(r.url());
    });
  });
  suiteHooks(() => ({ wb, host, ws }), { resetEach: true });

  it('book_table: every field filled by its label; the server receives correctly typed values', async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Book a table');
    const args = await panel(page, 'book_table', '[data-panel="arguments"]');
    await press(args, 'submit');
    const f = await panel(page, 'book_table', '[data-panel="round"][data-round="1"]');
    assert.equal(f, args, 'the first round opens in the arguments panel, not in a new webview');
    await f.getByLabel('Date', { exact: true }).focus();
    await screenshot(page, 'rounds-book-table-form');
    await f.getByLabel('Date', { exact: true }).fill('2026-12-24');
    await f.getByLabel('Contact email', { exact: true }).fill('guest@example.org');
    await f.getByLabel('Party size', { exact: true }).fill('4');
    await f.getByLabel('Budget per person (EUR)', { exact: true }).fill('42.5');
    await f.getByLabel('Outdoor table?', { exact: true }).check();
    await f.getByLabel('Seating', { exact: true }).selectOption('garden');
    await f.getByLabel('Time', { exact: true }).selectOption('20:00');
    await f.getByLabel('No restrictions', { exact: true }).uncheck();
    await f.getByLabel('Vegan', { exact: true }).check();
    await f.getByLabel('Gluten-free', { exact: true }).check();
    await press(f, 'submit');
    const text = await resultText(page, '(number)');
    assert.match(text, /partySize: 4 \(number\)/);
    assert.match(text, /budgetPerPerson: 42\.5 \(number\)/);
    assert.match(text, /outdoor: true \(boolean\)/);
    assert.match(text, /seating: "?garden"? \(string\)/);
    assert.match(text, /dietary: \[?"?vegan"?,\s*"?gluten-free"?\]? \(array\)/);
    await screenshot(page, 'rounds-book-table-result');
    const view = await findWebviewFrame(page, async (fr) => (await fr.locator('[data-testid="result-view"]').count()) > 0);
    assert.deepEqual(
      await view.evaluate(() => ({
        linked: document.querySelectorAll('link[rel="stylesheet"]').length,
        headerBorder: getComputedStyle(document.querySelector('.result-header')!).borderBottomStyle,
      })),
      { linked: 0, headerBorder: 'solid' },
      "the result view's stylesheet is in its document, and applies",
    );
    assert.deepEqual(refused, []);
    await waitForLog(
      host.logsDir,
      /↳ \[demo\] round 1 booking: accept fields \[date, email, partySize, budgetPerPerson, outdoor, seating, time, dietary\]/,
    );
  });

  it('a round hidden behind a file comes back from the status bar item, and what the person types goes on in the field they were in', async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Plan a trip');
    const f = await panel(page, 'plan_trip', '[data-panel="round"][data-round="1"]');
    const destination = f.getByLabel('Destination', { exact: true });
    await destination.click();
    await page.keyboard.type('Lis');
    // Another editor over the panel: the round waits behind it, as the status bar says.
    await runCommand(page, 'Go to File...');
    await pick(page, 'notes.md');
    await page.locator('.tabs-container .tab.active', { hasText: 'notes.md' }).waitFor({ timeout: 30_000 });
    const item = page.locator('.statusbar-item', { hasText: 'demo waits for you' });
    await item.click({ timeout: 30_000 });
    // The workbench gives the page the focus back, but its field lost it while the page was hidden.
    await waitForFieldFocus(page, destination, 'the field to have the focus again');
    await page.keyboard.type('bon');
    assert.equal(await destination.inputValue(), 'Lisbon');
  });

  it('plan_trip: form, then the sampling review (model from the hints), then roots, end to end', async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Plan a trip');
    const f = await panel(page, 'plan_trip', '[data-panel="round"][data-round="1"]');
    // A new panel: its script and stylesheet are in its document under the nonce (nothing fetched), and they apply.
    const doc = await f.evaluate(() => ({
      linked: document.querySelectorAll('link[rel="stylesheet"], script[src]').length,
      inlineStyle: document.querySelectorAll('style[nonce]').length > 0,
      cardRadius: getComputedStyle(document.querySelector('.card')!).borderRadius,
    }));
    assert.deepEqual(doc, { linked: 0, inlineStyle: true, cardRadius: '4px' });
    // Its first view is drawn as its document loads, while the workbench still hides the frame: its
    // first field has the focus all the same, and what the person types goes there.
    const destination = f.getByLabel('Destination', { exact: true });
    await waitForFieldFocus(page, destination, 'the first field to take the focus');
    await page.keyboard.type('Lis');
    assert.equal(await destination.inputValue(), 'Lis');
    // Its status line, set while the page was hidden, is said once the page is shown.
    await f
      .getByRole('status')
      .filter({ hasText: /^demo asks for input \(round 1\): 1 request\.$/ })
      .waitFor({ timeout: 10_000 });
    await destination.fill('Lisbon');
    await f.getByLabel('First day', { exact: true }).fill('2026-12-01');
    await f.getByLabel('Last day', { exact: true }).fill('2026-12-04');
    await press(f, 'submit');
    const r2 = await panel(page, 'plan_trip', '[data-panel="round"][data-round="2"] [data-testid="approve-itinerary"]');
    // The hints are [sonnet, gpt]: the test provider's claude-sonnet model is picked.
    assert.equal(await r2.locator('select').first().inputValue(), 'test-sonnet-4');
    await screenshot(page, 'rounds-plan-trip-sampling-review');
    await press(r2, 'approve-itinerary');
    await r2.getByTestId('send-itinerary').waitFor({ timeout: 60_000 });
    await screenshot(page, 'rounds-plan-trip-completion-review');
    await press(r2, 'send-itinerary');
    const text = await resultText(page, 'Lisbon');
    assert.match(text, /test-sonnet-4/);
    const log = await waitForLog(host.logsDir, /← \[demo\] complete id=\d+ after 3 round\(s\)/);
    assert.match(log, /input_required round 1 .*trip \(elicitation\/create\)/);
    assert.match(log, /input_required round 2 .*itinerary \(sampling\/createMessage\)/);
    assert.match(log, /↳ \[demo\] round 2 itinerary: model test-sonnet-4/);
    assert.match(log, /input_required round 3 .*roots \(roots\/list\)/);
    assert.match(log, new RegExp(`↳ \\[demo\\] round 3 roots: 1 root\\(s\\): file://${ws.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    assert.deepEqual(refused, []);
  });

  it('connect_account: the URL is shown in full and nothing is opened before the click', async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Connect an account');
    const args = await panel(page, 'connect_account', '[data-panel="arguments"]');
    await press(args, 'submit');
    const f = await panel(page, 'connect_account', '[data-testid="open-url-connect"]');
    const url = await f.getByTestId('url-connect').innerText();
    assert.match(url, /^https:\/\/auth\.example\.test\/connect\?flow=[0-9a-f]{16}$/);
    assert.ok(await f.locator('mark, .host, [data-host]').filter({ hasText: 'auth.example.test' }).count(), 'the host is highlighted');
    await screenshot(page, 'rounds-connect-account-consent');
    assert.deepEqual(external, [], 'no request to the URL before consent');
    await press(f, 'open-url-connect');
    // VS Code asks once more before opening an external site; the person says Open.
    const open = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
    await open.waitFor({ timeout: 60_000 });
    await open.click();
    await waitForLog(host.logsDir, /↳ \[demo\] round 1 connect: accept \(user consented to open the URL\)/);
    await resultText(page, 'Connected');
  });

  it("decline reaches the server as decline; the form's text is not sent", async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Book a table');
    await press(await panel(page, 'book_table', '[data-panel="arguments"]'), 'submit');
    const f = await panel(page, 'book_table', '[data-panel="round"][data-round="1"]');
    await f.getByLabel('Contact email', { exact: true }).fill('not-an-email');
    await press(f, 'decline-booking');
    await waitForLog(host.logsDir, /↳ \[demo\] round 1 booking: decline/);
    await resultText(page, 'booked');
  });

  it('cancel mid-round: closing with Cancel answers cancel, and the server can react', async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Plan a trip');
    const f = await panel(page, 'plan_trip', '[data-panel="round"][data-round="1"]');
    await f.getByLabel('Destination', { exact: true }).fill('Oslo');
    await press(f, 'cancel');
    const log = await waitForLog(host.logsDir, /↳ \[demo\] round 1 trip: cancel/);
    assert.ok(!log.includes('Oslo'), 'typed values never reach the log');
  });

  it("a hostile server's markup is shown as text, never run", async () => {
    const page = wb.page;
    await callTool(page, 'hostile', 'Hostile');
    const f = await findWebviewFrame(
      page,
      async (fr) => (await fr.locator('[data-panel="round"]').count()) > 0 && (await fr.locator('text=Message <img').count()) > 0,
      { timeoutMs: 60_000 },
    );
    await screenshot(page, 'rounds-hostile');
    assert.equal(await f.locator('img').count(), 0, 'no <img> element was created from server text');
    assert.deepEqual(dialogs, [], 'no script from server text ran (alert would open a dialog)');
    assert.ok(await f.getByText('<img src=x onerror=alert(1)>', { exact: true }).count(), 'the hostile title is visible as text');
    assert.ok(await f.getByText('reportexe.live').count(), 'the right-to-left override is not applied');
    await f.getByLabel('<img src=x onerror=alert(1)>', { exact: true }).fill('calm');
    await f.getByLabel('Proto field', { exact: true }).fill('own key');
    await press(f, 'submit');
    await waitForLog(host.logsDir, /← \[hostile\] complete/);
    // The server received the field named "__proto__" as an ordinary key.
    assert.match(await resultText(page, 'received'), /"__proto__":"own key"/);
  });

  describe('server-everything (2025 era, pushes its requests)', () => {
    it('trigger-elicitation-request: the pushed form is answered in the same panel', async () => {
      const page = wb.page;
      await callTool(page, 'everything', 'Trigger Elicitation Request');
      const f = await findWebviewFrame(
        page,
        async (fr) =>
          (await fr.locator('[data-panel="round"]').count()) > 0 && (await fr.getByLabel('String', { exact: true }).count()) > 0,
        { timeoutMs: 60_000 },
      );
      await f.getByLabel('String', { exact: true }).fill('Ada Lovelace');
      await screenshot(page, 'rounds-everything-elicitation');
      await press(f, 'submit');
      await waitForLog(host.logsDir, /← \[everything\] elicitation\/create id=\S+ pushed by a 2025-era server: accept fields/);
      await resultText(page, 'Ada Lovelace');
    });

    it('get-roots-list: roots answered from the workspace folder', async () => {
      const page = wb.page;
      await callTool(page, 'everything', 'Get Roots List');
      await resultText(page, path.basename(ws));
      await waitForLog(host.logsDir, /← \[everything\] roots\/list id=\S+ pushed by a 2025-era server: 1 root\(s\)/);
    });

    it('trigger-sampling-request: reviewed and answered by the test model', async () => {
      const page = wb.page;
      await commandPick(page, 'MCP Roundtrip: Call Tool…', ['everything', 'Trigger Sampling Request']);
      const args = await panel(page, 'trigger-sampling-request', '[data-panel="arguments"]');
      await args.getByLabel('prompt', { exact: true }).fill('Say hello');
      await press(args, 'submit');
      const f = await findWebviewFrame(page, async (fr) => (await fr.locator('[data-testid^="approve-"]').count()) > 0, {
        timeoutMs: 60_000,
      });
      await press(f, (await f.locator('[data-testid^="approve-"]').getAttribute('data-testid'))!);
      await f.locator('[data-testid^="send-"]').waitFor({ timeout: 60_000 });
      await press(f, (await f.locator('[data-testid^="send-"]').getAttribute('data-testid'))!);
      await waitForLog(host.logsDir, /← \[everything\] sampling\/createMessage id=\S+ pushed by a 2025-era server: model test-/);
      await resultText(page, 'reply to');
    });

    it('trigger-long-running-operation: its progress shows in the notification, and the call completes', async () => {
      const page = wb.page;
      await commandPick(page, 'MCP Roundtrip: Call Tool…', ['everything', 'Trigger Long Running Operation']);
      const args = await panel(page, 'trigger-long-running-operation', '[data-panel="arguments"]');
      await args.getByLabel('duration', { exact: true }).fill('8');
      await args.getByLabel('steps', { exact: true }).fill('8');
      await press(args, 'submit');
      // The server's notifications/progress, step of total, in the call's progress notification.
      const text = await waitForNotification(page, /everything: calling trigger-long-running-operation[\s\S]*\b[1-7] \/ 8\b/, {
        timeoutMs: 60_000,
      });
      assert.match(text, /\b[1-7] \/ 8\b/);
      await screenshot(page, 'rounds-everything-progress');
      await resultText(page, 'Long running operation completed. Duration: 8 seconds, Steps: 8.');
    });

    it('get-tiny-image, get-structured-content and get-resource-links render', async () => {
      const page = wb.page;
      await callTool(page, 'everything', 'Get Tiny Image');
      const view = await findWebviewFrame(page, async (fr) => (await fr.locator('main#root img').count()) > 0, { timeoutMs: 60_000 });
      assert.match((await view.locator('main#root img').first().getAttribute('src')) ?? '', /^data:image\/png;base64,/);
      await screenshot(page, 'rounds-everything-image');
      await callTool(page, 'everything', 'Get Structured Content');
      const sc = await panel(page, 'get-structured-content', '[data-panel="arguments"]');
      await sc.locator('select').first().selectOption({ index: 1 });
      await press(sc, 'submit');
      await resultText(page, 'temperature');
      await callTool(page, 'everything', 'Get Resource Links');
      await press(await panel(page, 'get-resource-links', '[data-panel="arguments"]'), 'submit');
      const links = await findWebviewFrame(page, async (fr) => (await fr.locator('main#root section.block.link button').count()) > 0, {
        timeoutMs: 60_000,
      });
      assert.ok((await links.locator('main#root section.block.link code.uri').count()) >= 1);
      await screenshot(page, 'rounds-everything-links');
    });
  });
});
