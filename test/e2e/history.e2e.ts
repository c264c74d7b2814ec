/**
 * The result view, the call history, Run Again and saved calls in a real VS Code (code-server, the
 * .vsix installed): book_table's result view (header, highlighted JSON), its round in the history
 * with the fields answered, Run Again with the same arguments, Save Call… then Run Saved Call… from
 * the palette and `mcp-roundtrip run` from the CLI; a password field and a requestState that never
 * reach the history, a saved call or the log; hostile Markdown and a result of megabytes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import {
  openWorkbench,
  repoRoot,
  runCommand,
  screenshot,
  startCodeServer,
  waitFor,
  waitForNotification,
  type CodeServerHost,
  type Workbench,
} from './harness';
import {
  callTool,
  commandPick,
  historyRows,
  logText,
  makeWorkspace,
  panel,
  press,
  reset,
  resultView,
  suiteHooks,
  VSIX,
  waitForLog,
} from './support';

const RESULTS = path.join(repoRoot, 'test', 'fixtures', 'resultsServer.mjs');
const CLI = path.join(repoRoot, 'dist', 'cli.js');
const PASSWORD = 'e2e-Secret-Pa55word';
const STATE = 'RS-e2e-state-7f3a9c1d';

/** The history row whose text matches `text` (the n-th such, newest first). */
async function historyRow(page: Page, text: string | RegExp, n = 0): Promise<Locator> {
  const rows = await historyRows(page);
  const row = rows.filter({ hasText: text }).nth(n);
  await row.waitFor({ timeout: 60_000 });
  return row;
}

/** Expand a tree row (its twistie), unless it is open already. */
async function expand(row: Locator): Promise<void> {
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click();
  await waitFor('the row to expand', async () => (await row.getAttribute('aria-expanded')) === 'true');
}

/** In an open quick pick, filter by `label` and accept that row once it is the highlighted one (`placeholder`: a long pick's). */
async function choose(page: Page, label: string, placeholder?: string): Promise<void> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  // The widget is reused from the step before: wait for this pick (its placeholder, or its row in a short list) first.
  if (placeholder)
    await page
      .locator(`.quick-input-widget .quick-input-box input[placeholder*=${JSON.stringify(placeholder)}]`)
      .waitFor({ timeout: 60_000 });
  else await page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().waitFor({ timeout: 60_000 });
  await input.fill(label);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: label }).waitFor({ timeout: 60_000 });
  await page.keyboard.press('Enter');
}

/**
 * Preferences: Color Theme → `theme`. (The palette ranks "Browse Color Themes in Marketplace" first,
 * so the command's own row is clicked rather than taken from the top.)
 */
async function colorTheme(page: Page, theme: string): Promise<void> {
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
  await choose(page, theme, 'Color Theme');
}

/** Run an inline action of a tree row (shown on hover). */
async function inlineAction(row: Locator, label: string): Promise<void> {
  await row.hover();
  await row.locator(`.action-label[aria-label="${label}"]`).click();
}

async function fillBooking(f: Frame): Promise<void> {
  await f.getByLabel('Date', { exact: true }).fill('2026-12-24');
  await f.getByLabel('Contact email', { exact: true }).fill('guest@example.org');
  await f.getByLabel('Party size', { exact: true }).fill('4');
}

describe('e2e history: result view, call history, run again, saved calls', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';
  const dialogs: string[] = [];
  const external: string[] = [];

  before(async () => {
    ws = makeWorkspace({ results: { type: 'stdio', command: process.execPath, args: [RESULTS] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX, settings: { 'mcpRoundtrip.history.keepValues': true } });
    wb = await openWorkbench(host.url, ws);
    await wb.context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
    wb.page.on('dialog', (d) => void (dialogs.push(d.message()), d.dismiss()));
    wb.context.on('request', (r) => {
      if (r.url().includes('example.test')) external.push(r.url());
    });
  });
  suiteHooks(() => ({ wb, host, ws }), { resetEach: true });

  it('book_table: the result view shows the header and the JSON highlighted; the history shows its round with the fields answered', async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Book a table');
    const args = await panel(page, 'book_table', '[data-panel="arguments"]');
    await args.getByLabel('restaurant', { exact: true }).fill('Chez Test');
    await press(args, 'submit');
    const f = await panel(page, 'book_table', '[data-panel="round"][data-round="1"]');
    await fillBooking(f);
    await press(f, 'submit');
    const view = await resultView(page, 'Table booked at Chez Test');
    assert.equal(await view.getByTestId('header-server').innerText(), 'demo');
    assert.equal(await view.getByTestId('header-target').innerText(), 'book_table');
    assert.match(await view.getByTestId('header-era').innerText(), /2026-07-28/);
    assert.equal(await view.getByTestId('header-rounds').innerText(), '1');
    assert.match(await view.getByTestId('header-total').innerText(), /^\d+(\.\d)? m?s$/);
    assert.match(await view.getByTestId('header-answering').innerText(), /^\d+(\.\d)? m?s$/);
    assert.equal(await view.getByTestId('header-status').innerText(), 'Complete');
    const historyId = await view.getByTestId('header-history').innerText();
    assert.match(historyId, /^h[0-9a-z]+$/);
    // structuredContent as a tree: keys and values coloured by JSON type, objects foldable.
    const tree = view.getByTestId('block-structured');
    assert.ok(await tree.locator('.json-key', { hasText: '"restaurant"' }).count());
    assert.ok(await tree.locator('.json-string', { hasText: '"Chez Test"' }).count());
    assert.ok(await tree.locator('.json-number', { hasText: /^4$/ }).count());
    assert.ok(await tree.locator('.json-boolean').count());
    const color = (l: Locator) => l.first().evaluate((e) => getComputedStyle(e).color);
    assert.notEqual(
      await color(tree.locator('.json-string')),
      await color(tree.locator('.json-number')),
      'strings and numbers are coloured apart',
    );
    const booking = tree.locator('details', { has: view.locator('summary .json-key', { hasText: '"booking"' }) }).first();
    assert.equal(await booking.getAttribute('open'), '');
    await booking.locator('summary').first().click();
    assert.equal(await booking.getAttribute('open'), null, 'the object folds');
    await screenshot(page, 'history-result-view-book-table');
    // The log links the call to its history entry, on its first and last line.
    const log = await waitForLog(host.logsDir, new RegExp(`complete id=\\d+ after 1 round\\(s\\).*\\(history ${historyId}\\)`));
    assert.match(log, new RegExp(`→ \\[demo\\] tools/call book_table id=\\d+ \\(flow \\d+, history ${historyId}\\)`));
    // The history: the call, its round, what was asked and how it was answered.
    const call = await historyRow(page, /book_table.*demo · complete · 1 round/);
    await expand(call);
    const round = await historyRow(page, /Round 1.*asked form booking: 8 fields/);
    assert.ok(round);
    const input = await historyRow(
      page,
      /form booking: 8 fields.*accept \[date, email, partySize, budgetPerPerson, outdoor, seating, time, dietary\] by you after/,
    );
    await expand(input);
    await historyRow(page, /Contact email \(email, email, required\): answered = "guest@example\.org"/);
    await historyRow(page, /Party size \(partySize, integer, required\): answered = 4/);
    await screenshot(page, 'history-view-book-table');
  });

  it('clicking a call of the history opens its result again; Run Again repeats it with the same arguments, shown first to edit', async () => {
    const page = wb.page;
    const call = await historyRow(page, /book_table.*demo · complete/);
    await call.locator('.label-name').first().click();
    const again = await resultView(page, 'Table booked at Chez Test');
    assert.match(
      await again.getByTestId('header-history').innerText(),
      /^h[0-9a-z]+ \(.+\)$/,
      'opened from the history: its id and when it ran',
    );
    await inlineAction(call, 'Run Again');
    const args = await panel(page, 'book_table', '[data-panel="arguments"]');
    assert.equal(await args.getByLabel('restaurant', { exact: true }).inputValue(), 'Chez Test');
    await press(args, 'submit');
    const f = await panel(page, 'book_table', '[data-panel="round"][data-round="1"]');
    await press(f, 'decline-booking');
    await resultView(page, 'Nothing was booked: you declined the booking form for Chez Test');
    await historyRow(page, /book_table.*demo · complete · 1 round/, 1);
  });

  it('Save Call… with its answers, then Run Saved Call… from the palette and `mcp-roundtrip run` from the CLI', async () => {
    const page = wb.page;
    // The first call (the one answered in full) is the older of the two book_table entries.
    await inlineAction(await historyRow(page, /book_table.*demo · complete/, 1), 'Save Call…');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ timeout: 60_000 });
    await input.fill('four at eight');
    await page.keyboard.press('Enter');
    await choose(page, 'Arguments and answers');
    await waitForNotification(page, 'Saved "four at eight"');
    const file = JSON.parse(readFileSync(path.join(ws, '.vscode', 'mcp-calls.json'), 'utf8'));
    assert.deepEqual(file.calls['four at eight'].arguments, { restaurant: 'Chez Test' });
    assert.equal(file.calls['four at eight'].server, 'demo');
    assert.equal(file.calls['four at eight'].tool, 'book_table');
    assert.equal(file.calls['four at eight'].answers.booking.content.email, 'guest@example.org');
    // Listed under its server in the Servers view.
    const servers = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Servers' }) }).locator('.monaco-list-row');
    await expand(servers.filter({ hasText: /^demo/ }).first());
    await servers.filter({ hasText: 'four at eight' }).filter({ hasText: 'saved: book_table' }).waitFor({ timeout: 60_000 });
    await reset(page);
    await commandPick(page, 'MCP Roundtrip: Run Saved Call…', ['four at eight']);
    // A saved call is shown first (its arguments), and its answers only pre-fill: the person submits
    // the booking form (its required fields filled from the file, else Submit would not send it).
    const args = await panel(page, 'book_table', '[data-panel="arguments"]');
    assert.equal(await args.getByLabel('restaurant', { exact: true }).inputValue(), 'Chez Test');
    await press(args, 'submit');
    await press(await panel(page, 'book_table', '[data-panel="round"][data-round="1"]'), 'submit');
    await resultView(page, 'Table booked at Chez Test for 4 on 2026-12-24');
    // Pre-filled from the saved answers: a second accepted booking in the log.
    await waitFor(
      'the saved answers in the log',
      () =>
        (
          logText(host.logsDir).match(
            /↳ \[demo\] round 1 booking: accept fields \[date, email, partySize, budgetPerPerson, outdoor, seating, time, dietary\]/g,
          ) ?? []
        ).length >= 2,
    );
    const cli = spawnSync(process.execPath, [CLI, 'run', 'four at eight'], { cwd: ws, encoding: 'utf8', timeout: 60_000 });
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /Table booked at Chez Test for 4 on 2026-12-24 at 19:00/);
  });

  it('a password field and a requestState never reach the history, a saved call or the log', async () => {
    const page = wb.page;
    await callTool(page, 'results', 'Sign in');
    const args = await panel(page, 'sign_in', '[data-panel="arguments"]');
    await args.getByLabel('Site', { exact: true }).fill('intranet');
    await press(args, 'submit');
    const f = await panel(page, 'sign_in', '[data-panel="round"][data-round="1"]');
    await f.getByLabel('User name', { exact: true }).fill('e2e-user');
    await f.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await press(f, 'submit');
    await resultView(page, 'Signed in as e2e-user');
    await waitForLog(host.logsDir, /← \[results\] complete id=\d+ after 1 round\(s\).*\(history h/);
    // The server printed the password on its stderr: the log has the line, masked.
    await waitForLog(host.logsDir, /\[results\] stderr: debug: signing in e2e-user with \[redacted\]/);
    const call = await historyRow(page, /sign_in.*results · complete/);
    await expand(call);
    await expand(await historyRow(page, /form login: 2 fields.*accept \[user, password\] by you/));
    await historyRow(page, /Password \(password, password, required\): answered \(secret, not kept\)/);
    await historyRow(page, /User name \(user, string, required\): answered = "e2e-user"/);
    await inlineAction(call, 'Save Call…');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ timeout: 60_000 });
    await input.fill('sign in');
    await page.keyboard.press('Enter');
    await choose(page, 'Arguments and answers');
    await waitForNotification(page, 'Saved "sign in"');
    const saved = readFileSync(path.join(ws, '.vscode', 'mcp-calls.json'), 'utf8');
    assert.match(saved, /"sign in"/);
    const tree = (await (await historyRows(page)).allInnerTexts()).join('\n');
    for (const [where, text] of [
      ['the history view', tree],
      ['the saved calls', saved],
      ['the log', logText(host.logsDir)],
    ] as const) {
      assert.ok(!text.includes(PASSWORD), `${where} holds the password`);
      assert.ok(!text.includes(STATE), `${where} holds the requestState`);
    }
  });

  it('hostile Markdown is built as elements, never HTML; a mismatch with outputSchema is shown; a text of megabytes is cut', async () => {
    const page = wb.page;
    await callTool(page, 'results', 'Rich result');
    const view = await resultView(page, 'BIG-START');
    const root = view.locator('#root');
    const md = root.locator('.markdown').first();
    assert.equal(await md.locator('h1').innerText(), 'Report <script>alert(2)</script>');
    assert.equal(await root.locator('script, img, iframe, object, embed').count(), 0, 'no element from server markup');
    assert.equal(await md.locator('strong').innerText(), 'bold');
    assert.ok(await md.getByText('<img src=x onerror=alert(1)>', { exact: false }).count());
    assert.match(await md.locator('pre code').innerText(), /<b>not bold<\/b>/);
    assert.equal(await md.locator('.md-link').count(), 1, 'a javascript: link is not a link (markdown-it refuses it)');
    assert.match(await md.innerText(), /\[bad\]\(javascript:alert\(3\)\)/);
    assert.equal(await md.locator('a[href]').count(), 0, 'links carry no href the webview could follow');
    assert.match(await md.innerText(), /\[image: pixel\] https:\/\/tracker\.example\.test\/pixel\.png/);
    const check = view.getByTestId('schema-check');
    assert.match(await check.innerText(), /Does not match the tool's outputSchema/);
    assert.match(await check.innerText(), /status/);
    assert.match(await check.innerText(), /count/);
    assert.ok(await view.locator('.json-key', { hasText: '"__proto__"' }).count(), '"__proto__" is an ordinary key');
    assert.match(await root.innerText(), /2400018 more characters not shown: use Open raw/);
    await screenshot(page, 'history-result-view-hostile');
    // A Markdown link opens nothing by itself: VS Code's consent first.
    await md.locator('.md-link', { hasText: 'docs' }).click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'docs.example.test' });
    await dialog.waitFor({ timeout: 60_000 });
    await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    assert.deepEqual(external, [], 'nothing was fetched from a server URL');
    assert.deepEqual(dialogs, [], 'no script from server text ran');
    await view.getByTestId('copy-json').focus();
    await page.keyboard.press('Enter');
    await view.getByText('Copied the result as JSON.').waitFor({ timeout: 60_000 });
    await view.getByTestId('open-raw').focus();
    await page.keyboard.press('Enter');
    await page.locator('.tab', { hasText: 'rich_result.result.json' }).waitFor({ timeout: 60_000 });
  });

  it('the result view follows the theme: light, dark and both high-contrast themes', async () => {
    const page = wb.page;
    await callTool(page, 'demo', 'Busy report', 'busy_report');
    const view = await resultView(page, 'is ready');
    const colours = async () =>
      view.locator('body').evaluate((b) => {
        const key = b.querySelector('.json-key')!;
        return {
          body: getComputedStyle(b).backgroundColor,
          text: getComputedStyle(b).color,
          key: getComputedStyle(key).color,
          cls: b.className,
        };
      });
    const seen: Record<string, Awaited<ReturnType<typeof colours>>> = {};
    for (const [theme, cls] of [
      ['Dark Modern', 'vscode-dark'],
      ['Dark High Contrast', 'vscode-high-contrast'],
      ['Light High Contrast', 'vscode-high-contrast-light'],
      ['Light Modern', 'vscode-light'],
    ] as const) {
      await colorTheme(page, theme);
      await waitFor(`the result view in ${theme}`, async () => (await colours()).cls.split(' ').includes(cls));
      seen[theme] = await colours();
      assert.notEqual(seen[theme].text, seen[theme].body, `${theme}: text and background differ`);
      await screenshot(page, `history-result-view-${theme.replace(/\s+/g, '-').toLowerCase()}`);
    }
    assert.notEqual(seen['Dark Modern'].body, seen['Light Modern'].body, "the background is the theme's");
    assert.notEqual(seen['Dark Modern'].key, seen['Light Modern'].key, "JSON keys take the theme's colour");
  });

  it('a corrupt .vscode/mcp-calls.json is reported with its path, and nothing else breaks', async () => {
    const page = wb.page;
    const file = path.join(ws, '.vscode', 'mcp-calls.json');
    writeFileSync(file, '{ "calls": { "x": ');
    await waitForNotification(page, /mcp-calls\.json: invalid JSON at line 1/);
    await runCommand(page, 'MCP Roundtrip: Run Saved Call…');
    await waitForNotification(page, 'No saved calls');
    await callTool(page, 'demo', 'Busy report', 'busy_report');
    await resultView(page, 'is ready');
    await historyRow(page, /busy_report.*demo · complete/);
  });
});
