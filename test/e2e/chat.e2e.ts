/**
 * MCP Roundtrip in VS Code's chat, in a real VS Code (code-server, Copilot Chat built in but not
 * signed in), from the packaged .vsix, with the test language models:
 * - which servers are in chat: by default the one that speaks only 2026-07-28, then the setting's list;
 * - `@roundtrip` asks before it runs a tool the model called (a call not allowed is not run), and runs the demo's plan_trip through form, sampling review and roots rounds in our
 *   panel (headed "asked from chat"), and the result appears in the chat;
 * - the chat's stop button ends a call mid-round: the panel closes and the log says cancelled;
 * - VS Code's own MCP client calls plan_trip through the bridge (a test participant runs
 *   `vscode.lm.invokeTool`), the chat shows the per-round progress line, the rounds are answered in
 *   our panel and the real result comes back;
 * - two such calls at once take turns in the panel; the stop button cancels one mid-round.
 * Each test sets up what it needs (the demo in chat, a model picked, an empty conversation), so one that
 * fails leaves the next to pass or fail on its own.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { openWorkbench, repoRoot, runCommand, screenshot, startCodeServer, waitFor, type CodeServerHost, type Workbench } from './harness';
import {
  CHAT,
  chatText,
  commandInput,
  DEMO,
  historyRows,
  INPUT,
  logText,
  newChat,
  panel,
  press,
  send,
  serverRows,
  suiteHooks,
  TEST_MODELS,
  VSIX,
  waitForChat,
  waitForLog,
} from './support';

const CHAT_PROBE = path.join(repoRoot, 'test', 'fixtures', 'chat-probe-extension');
const PROBE_SERVER = path.join(repoRoot, 'test', 'fixtures', 'samplingProbeServer.mjs');

/** The chat's stop button (its aria-label is "Cancel (Ctrl+Escape)"). */
async function stop(page: Page): Promise<void> {
  await page.locator(`${CHAT} .interactive-input-part a[aria-label^="Cancel"]`).first().click();
}

/** The round panel of plan_trip from chat, with its first form shown. */
async function tripPanel(page: Page): Promise<Frame> {
  const f = await panel(page, 'plan_trip', '[data-panel="round"] input');
  assert.equal((await f.getByTestId('asked-from').innerText()).trim(), 'asked from chat');
  return f;
}

/**
 * Answer plan_trip's three rounds in the panel: the form, the sampling review (approve, then send);
 * roots go by themselves. `reviewed` runs between approving and sending.
 */
async function answerTrip(
  f: Frame,
  trip: { destination: string; startDate: string; endDate: string },
  reviewed?: () => Promise<unknown>,
): Promise<void> {
  const inputs = f.locator('[data-panel="round"] input');
  await inputs.nth(0).fill(trip.destination);
  await inputs.nth(1).fill(trip.startDate);
  await inputs.nth(2).fill(trip.endDate);
  await press(f, 'submit');
  await press(f, 'approve-itinerary');
  await reviewed?.();
  await press(f, 'send-itinerary');
}

/**
 * Click VS Code's "Allow in this Session" on each MCP tool confirmation (there is none once allowed in
 * this window) until our panel opens; returns the panel.
 */
async function allowUntilPanel(page: Page): Promise<Frame> {
  const allow = page.locator(`${CHAT} .monaco-button:has-text("Allow in this Session")`).first();
  await waitFor(
    'the round panel after any confirmation',
    async () => {
      if (await allow.isVisible()) await allow.click();
      return (await page.locator('.tabs-container .tab:has-text("plan_trip")').count()) > 0 || undefined;
    },
    { timeoutMs: 90_000 },
  );
  assert.match(await chatText(page), /demo \(via MCP Roundtrip\) \(MCP Server\)/);
  return tripPanel(page);
}

/** Whether the Servers view's row of `name` says it is in chat. */
function inChat(rows: string[], name: string): boolean {
  return rows.some((r) => r.startsWith(name) && /· in chat/.test(r));
}

/** The demo (it speaks 2025 too) offered to chat through the setting, as a person sets it; nothing when it already is. */
async function demoInChat(page: Page): Promise<void> {
  await commandInput(page, 'MCP Roundtrip Test: Expose Servers to Chat', 'Servers to offer to chat', 'demo, probe', async () =>
    inChat(await serverRows(page), 'demo'),
  );
}

/** Whether a chat request has picked a model in this window (the first one in a fresh window does). */
let modelPicked = false;

/**
 * The chat open on an empty conversation with a model picked: in a fresh window no model is picked
 * yet, so the first request says so (or, once picked, is answered) and picks one for the next.
 */
async function freshChat(page: Page): Promise<void> {
  const input = page.locator(INPUT).first();
  if (!(await input.isVisible())) await runCommand(page, 'Chat: Open Chat');
  await input.waitFor({ timeout: 60_000 });
  if ((await chatText(page)).trim() !== '') await newChat(page);
  if (modelPicked) return;
  await send(page, '@roundtrip hello');
  await waitForChat(page, /Language model unavailable|reply to/);
  modelPicked = true;
  await newChat(page);
}

/** Past @roundtrip's consent for `tool` of demo if it asks (once allowed in this session it does not), until its panel's tab shows. */
async function allowedByRoundtrip(page: Page, tool: string): Promise<void> {
  const consent = page.locator('.monaco-dialog-box', { hasText: `Run ${tool} (demo)?` });
  await waitFor(
    `the ${tool} panel after any consent`,
    async () => {
      if (await consent.isVisible()) await consent.locator('.monaco-button', { hasText: /^Allow in this Session$/ }).click();
      return (await page.locator(`.tabs-container .tab:has-text(${JSON.stringify(tool)})`).count()) > 0 || undefined;
    },
    { timeoutMs: 90_000 },
  );
}

/** No editor tab of plan_trip's round panel is left. */
function panelClosed(page: Page): Promise<true> {
  return waitFor(
    'the plan_trip panel to close',
    async () => (await page.locator('.tabs-container .tab:has-text("plan_trip")').count()) === 0 || undefined,
    { timeoutMs: 60_000 },
  );
}

describe('e2e chat: @roundtrip and the bridge', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';

  before(async () => {
    // No .vscode/mcp.json: VS Code would start those servers itself. Ours come from our setting.
    ws = mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-e2e-chat-'));
    writeFileSync(path.join(ws, 'notes.md'), '# Notes\n');
    host = await startCodeServer({
      workspace: ws,
      vsix: VSIX,
      extensionDirs: [TEST_MODELS, CHAT_PROBE],
      settings: {
        'mcpRoundtrip.servers': {
          probe: { type: 'stdio', command: process.execPath, args: [PROBE_SERVER] },
          demo2025: { type: 'stdio', command: process.execPath, args: [DEMO], era: 'legacy' },
        },
      },
    });
    wb = await openWorkbench(host.url, ws);
  });
  // Each test starts with no panel, dialog or toast left by the one before.
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'failure-chat-', resetEach: true });

  it('by default only the server that speaks nothing but 2026-07-28 is in chat; the setting adds others', async () => {
    // Nothing connects until chat needs it (issue 45): the eras are learnt at the first chat request.
    assert.ok(
      (await serverRows(wb.page)).every((r) => !/· in chat/.test(r)),
      'no server is known to be in chat before chat asks',
    );
    await freshChat(wb.page);
    const rows = await waitFor(
      'the probe server to be in chat',
      async () => {
        const r = await serverRows(wb.page);
        return inChat(r, 'probe') ? r : undefined;
      },
      { timeoutMs: 90_000 },
    );
    assert.ok(!inChat(rows, 'demo'), `the demo speaks 2025 too: ${rows.join(' | ')}`);
    assert.ok(!inChat(rows, 'demo2025'), rows.join(' | '));
    await demoInChat(wb.page);
    assert.ok(inChat(await serverRows(wb.page), 'probe'), 'the probe stays in chat');
  });

  it('@roundtrip: the model calls plan_trip, its rounds are answered in our panel, the result appears in the chat', async () => {
    await demoInChat(wb.page);
    await freshChat(wb.page);
    await send(wb.page, '@roundtrip please plan_trip for me');
    // The model's tool call runs only once the person allows it: the dialog names the tool, its server and the arguments.
    const consent = wb.page.locator('.monaco-dialog-box', { hasText: 'Run plan_trip (demo)?' });
    await consent.waitFor({ timeout: 90_000 });
    assert.match(await consent.innerText(), /asks @roundtrip to call the tool plan_trip of the MCP server demo with these arguments/);
    await consent.locator('.monaco-button', { hasText: /^Allow in this Session$/ }).click();
    const f = await tripPanel(wb.page);
    // The panel opened beside the chat without taking the focus: what the person types stays in the chat.
    assert.ok(await wb.page.evaluate((chat) => !!document.activeElement?.closest(chat), CHAT), 'the chat kept the focus');
    await waitForChat(
      wb.page,
      /Round 1: answer in the MCP Roundtrip panel \(Cancel there ends the call; the 300 s call limit pauses while you answer\)/,
    );
    await screenshot(wb.page, 'chat-roundtrip-round-1');
    await answerTrip(f, { destination: 'Lisbon', startDate: '2026-12-01', endDate: '2026-12-03' });
    const text = await waitForChat(wb.page, /tool result for call_demo_plan_trip_1/);
    assert.match(text, /plan_trip \(demo\):/);
    assert.match(text, /Trip to Lisbon: 2026-12-01 to 2026-12-03 \(2 nights\)/);
    assert.match(text, /"status": "planned"/);
    await panelClosed(wb.page);
    const log = await waitForLog(host.logsDir, /← \[demo\] complete id=\S+ after 3 round\(s\)/);
    assert.match(log, /round 2 itinerary: model test-sonnet-4/);
  });

  it('the call made from @roundtrip is in Call History, marked where it came from, with its rounds', async () => {
    const rows = await historyRows(wb.page);
    const row = rows.filter({ hasText: 'plan_trip' }).filter({ hasText: 'from @roundtrip' }).first();
    await row.waitFor({ timeout: 60_000 });
    assert.match(await row.innerText(), /demo · complete · \d+ rounds? /);
    await screenshot(wb.page, 'chat-call-in-history');
  });

  it("@roundtrip: the chat's stop button ends the call mid-round; the panel closes and the log says cancelled", async () => {
    await demoInChat(wb.page);
    await freshChat(wb.page);
    await send(wb.page, '@roundtrip plan_trip again');
    // Allowed in this session by the test before (no dialog then); asked again when that one did not get so far.
    await allowedByRoundtrip(wb.page, 'plan_trip');
    await tripPanel(wb.page);
    await stop(wb.page);
    await panelClosed(wb.page);
    await waitForLog(host.logsDir, /✖ \[demo\] tools\/call plan_trip cancelled in round 1/);
  });

  it('@roundtrip: a tool call the person does not allow is not run; the chat and the model are told', async () => {
    await demoInChat(wb.page);
    await freshChat(wb.page);
    await send(wb.page, '@roundtrip where_am_i please');
    const consent = wb.page.locator('.monaco-dialog-box', { hasText: 'Run where_am_i (demo)?' });
    await consent.waitFor({ timeout: 90_000 });
    await consent.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    const text = await waitForChat(
      wb.page,
      /tool result for call_demo_where_am_i_1: The tool call failed: the person did not allow this tool call/,
    );
    assert.match(text, /where_am_i \(demo\) was not run: you did not allow it/);
    assert.doesNotMatch(logText(host.logsDir), /tools\/call where_am_i/, 'nothing was sent to the server');
  });

  it("the bridge: VS Code's MCP client calls plan_trip, the chat shows each round's progress line, our panel answers, the real result comes back", async () => {
    await demoInChat(wb.page);
    await freshChat(wb.page);
    await send(wb.page, '@bridgeprobe demo plan_trip');
    // VS Code asks before it runs an MCP tool (the first time in this window).
    await wb.page.locator(`${CHAT} .monaco-button:has-text("Allow in this Session")`).first().waitFor({ timeout: 90_000 });
    const f = await allowUntilPanel(wb.page);
    await waitForChat(
      wb.page,
      /Round 1: answer in the MCP Roundtrip panel \(Cancel there ends the call; the 300 s call limit pauses while you answer\)\s*–?\s*demo \(via MCP Roundtrip\)/,
    );
    await screenshot(wb.page, 'chat-bridge-round-1');
    await answerTrip(f, { destination: 'Porto', startDate: '2026-12-05', endDate: '2026-12-06' }, () =>
      waitForChat(wb.page, /Round 2: answer in the MCP Roundtrip panel[^\n]*\s*–?\s*demo \(via MCP Roundtrip\)/),
    );
    // VS Code hands the invoker the tool's structuredContent as its text.
    const text = await waitForChat(
      wb.page,
      /RESULT: \{"status":"planned","destination":"Porto","startDate":"2026-12-05","endDate":"2026-12-06","nights":1,/,
    );
    assert.doesNotMatch(text, /FAILED:/);
    await panelClosed(wb.page);
    // The log has both completed calls: @roundtrip's and the bridged one.
    const log = await waitFor(
      'the bridged call in the log',
      () => {
        const t = logText(host.logsDir);
        return (t.match(/← \[demo\] complete id=\S+ after 3 round\(s\)/g) ?? []).length >= 2 ? t : undefined;
      },
      { timeoutMs: 60_000 },
    );
    assert.match(log, /\[demo\] offered to VS Code's chat through the bridge at http:\/\/127\.0\.0\.1:\d+\/mcp\/demo/);
  });

  it('two calls from chat at once take turns in the panel: the second says it waits, then is answered', async () => {
    await demoInChat(wb.page);
    await freshChat(wb.page);
    await send(wb.page, '@bridgeprobe demo plan_trip twice');
    const first = await allowUntilPanel(wb.page);
    await waitForChat(wb.page, /Round 1: waiting for the MCP Roundtrip panel, where another call from chat is being answered/);
    assert.equal(await wb.page.locator('.tabs-container .tab:has-text("plan_trip")').count(), 1, 'one panel at a time');
    await answerTrip(first, { destination: 'Faro', startDate: '2026-12-07', endDate: '2026-12-08' });
    await waitFor("the first call's panel to close", () => first.isDetached() || undefined, { timeoutMs: 60_000 });
    const second = await tripPanel(wb.page);
    await answerTrip(second, { destination: 'Braga', startDate: '2026-12-09', endDate: '2026-12-10' });
    const text = await waitForChat(wb.page, /RESULT 1: [\s\S]*RESULT 2: /);
    assert.match(text, /"destination":"Faro"/);
    assert.match(text, /"destination":"Braga"/);
    assert.doesNotMatch(text, /FAILED:/);
    await panelClosed(wb.page);
  });

  it("the bridge: the stop button cancels VS Code's call mid-round; its panel closes and the log says cancelled", async () => {
    const cancelled = () => (logText(host.logsDir).match(/✖ \[demo\] tools\/call plan_trip cancelled in round 1/g) ?? []).length;
    const before = cancelled();
    await demoInChat(wb.page);
    await freshChat(wb.page);
    await send(wb.page, '@bridgeprobe demo plan_trip');
    await allowUntilPanel(wb.page);
    await stop(wb.page);
    await panelClosed(wb.page);
    await waitFor('the cancelled call in the log', () => cancelled() === before + 1 || undefined, { timeoutMs: 60_000 });
  });
});
