/**
 * Sampling through VS Code's language model API in a real VS Code, with the test model provider
 * (models of different capabilities, the first listed able to do the least): maxTokens enforced
 * (reply cut, stopReason "maxTokens"), a tool-enabled request answered with tool_use and nothing run,
 * a tool or image request pre-set to a model that can do it (the others marked unable, with why), a
 * reply written in the card with a tool call (an invalid one refused first), a model that goes away,
 * and a declined review ending the call as declined.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
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
import { commandPick, logText, makeWorkspace, press, resultText, suiteHooks, TEST_MODELS, VSIX, waitForLog } from './support';

const PROBE = path.join(repoRoot, 'test', 'fixtures', 'samplingProbeServer.mjs');

async function review(page: Page, before: ReadonlySet<Frame>): Promise<Frame> {
  // Only a frame that appeared after the call ran: the last test's panel, closed by the reset, can keep
  // its frame a moment longer, and a card found there is detached under the test.
  return findWebviewFrame(page, async (f) => !before.has(f) && (await f.getByTestId('approve-s').count()) > 0, { timeoutMs: 60_000 });
}
/**
 * Press `testId` in the review card, found again when the workbench gave the panel's page a new frame
 * while the palette had the focus (seen once in CI: "Frame was detached" under the press); returns the
 * frame pressed in.
 */
async function pressInCard(page: Page, before: ReadonlySet<Frame>, testId: string): Promise<Frame> {
  for (let tries = 1; ; tries++) {
    const f = await review(page, before);
    try {
      await press(f, testId);
      return f;
    } catch (e) {
      if (tries >= 3 || !f.isDetached()) throw e;
    }
  }
}
/** What the probe server received under "s", parsed from its result (the line `RECEIVED {...}`). */
async function received(page: Page): Promise<{ model: string; stopReason: string; content: unknown }> {
  const line = (await resultText(page, 'RECEIVED')).split('\n').find((l) => l.startsWith('RECEIVED '))!;
  return JSON.parse(line.slice('RECEIVED '.length));
}

describe('e2e sampling through vscode.lm', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';
  before(async () => {
    ws = makeWorkspace({ probe: { type: 'stdio', command: process.execPath, args: [PROBE] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX, extensionDirs: [TEST_MODELS], settings: { 'editor.wordWrap': 'on' } });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { shotPrefix: 'failure-sampling-', resetEach: true });

  /** Call `tool` of the probe server and return its sampling review card. */
  const callForReview = async (tool: string): Promise<Frame> => {
    const before = new Set(wb.page.frames());
    await commandPick(wb.page, 'MCP Roundtrip: Call Tool…', ['probe', tool]);
    return review(wb.page, before);
  };

  it('maxTokens is enforced: the long reply is cut and stopReason is "maxTokens"', async () => {
    const f = await callForReview('sample_long');
    assert.equal(await f.locator('select').first().inputValue(), 'test-flash', 'the "flash" hint picks the flash model');
    await press(f, 'approve-s');
    await press(f, 'send-s');
    const got = await received(wb.page);
    assert.equal(got.stopReason, 'maxTokens');
    assert.equal(got.model, 'test-flash');
    const text = (got.content as { text: string }).text;
    assert.ok(text.split(/\s+/).filter(Boolean).length <= 16, `at most 16 tokens (words), got: ${text}`);
  });

  it('a tool-enabled request returns tool_use and nothing is run', async () => {
    const f = await callForReview('sample_tools');
    assert.equal(await f.locator('select').first().inputValue(), 'test-sonnet-4');
    await screenshot(wb.page, 'sampling-tools-review');
    await press(f, 'approve-s');
    await press(f, 'send-s');
    const got = await received(wb.page);
    assert.equal(got.stopReason, 'toolUse');
    const blocks = (Array.isArray(got.content) ? got.content : [got.content]) as { type: string; name?: string }[];
    assert.ok(
      blocks.some((b) => b.type === 'tool_use' && b.name === 'get_weather'),
      JSON.stringify(blocks),
    );
    const log = await waitForLog(host.logsDir, /↳ \[probe\] round 1 s: model test-sonnet-4, .*stopReason toolUse/);
    assert.ok(!/get_weather.*(ran|executed)/.test(log));
  });

  /** The picker's option of `modelId`: disabled, and why, when the model cannot do the request. */
  const option = async (f: Frame, modelId: string) => {
    const o = f.locator('select').first().locator(`option[value="${modelId}"]`);
    return { disabled: await o.evaluate((e) => (e as HTMLOptionElement).disabled), text: await o.innerText() };
  };

  it('a tool-enabled request with no hints is pre-set to a tool-calling model; the models without are marked unable, with why', async () => {
    const f = await callForReview('tools_no_hint');
    // test-flash is listed first, but cannot call tools.
    assert.equal(await f.locator('select').first().inputValue(), 'test-sonnet-4');
    for (const id of ['test-flash', 'test-gpt-4.1', 'test-mini']) {
      const o = await option(f, id);
      assert.equal(o.disabled, true, id);
      assert.match(o.text, /cannot do this request: no tool calling/, id);
    }
    assert.equal((await option(f, 'test-opus-4')).disabled, false);
    assert.match(
      await f.getByText(/^Proposed: Test Sonnet 4, by the first model that can do the request/).innerText(),
      /3 allowed model\(s\) cannot do this request/,
    );
    await screenshot(wb.page, 'sampling-tools-unable-models');
    await press(f, 'approve-s');
    await press(f, 'send-s');
    const got = await received(wb.page);
    assert.equal(got.model, 'test-sonnet-4');
    assert.equal(got.stopReason, 'toolUse');
    await waitForLog(
      host.logsDir,
      /↳ \[probe\] round 1 s: model test-sonnet-4, text\+tool_use .*; answered by model test-sonnet-4, chosen by the first model that can do the request/,
    );
  });

  it('an image request with no hints is pre-set to an image-input model and answered by it', async () => {
    const f = await callForReview('image_no_hint');
    assert.equal(await f.locator('select').first().inputValue(), 'test-gpt-4.1');
    for (const id of ['test-flash', 'test-sonnet-4', 'test-mini'])
      assert.match((await option(f, id)).text, /cannot do this request: no image input/, id);
    await press(f, 'approve-s');
    await press(f, 'send-s');
    const got = await received(wb.page);
    assert.equal(got.model, 'test-gpt-4.1');
    assert.match((got.content as { text: string }).text, /images=1/, 'the image reached the model');
  });

  it('Write the reply: a tool call picked from the offered tools with its arguments; a reply the extension refuses is not sent', async () => {
    const f = await callForReview('sample_tools');
    await press(f, 'write-s');
    await f.getByLabel('Reply', { exact: true }).waitFor();
    await f.getByLabel('Tool call', { exact: true }).selectOption('get_weather');
    assert.equal(await f.getByLabel('Stop reason', { exact: true }).inputValue(), 'toolUse', 'the stop reason follows the tool call');
    assert.equal(await f.getByLabel('Model name', { exact: true }).inputValue(), 'human');
    await f.getByLabel('city', { exact: true }).fill('Paris');
    // A tool call that does not stop with toolUse: the extension (the authority) refuses it.
    await f.getByLabel('Stop reason', { exact: true }).selectOption('endTurn');
    await press(f, 'reply-send-s');
    await f.getByTestId('field-stopReason').getByText('A reply with a tool call stops with toolUse.').waitFor({ timeout: 60_000 });
    await screenshot(wb.page, 'sampling-write-reply-tool-call');
    assert.ok(!/round 1 s: model human/.test(logText(host.logsDir)), 'nothing was sent');
    await f.getByLabel('Stop reason', { exact: true }).selectOption('toolUse');
    await press(f, 'reply-send-s');
    const got = await received(wb.page);
    assert.equal(got.model, 'human');
    assert.equal(got.stopReason, 'toolUse');
    const [call0] = got.content as { type: string; name: string; input: unknown }[];
    assert.deepEqual([call0.type, call0.name, call0.input], ['tool_use', 'get_weather', { city: 'Paris' }]);
    await waitForLog(
      host.logsDir,
      /↳ \[probe\] round 1 s: model human, tool_use, stopReason toolUse; written by a person in the review card \(proposed: model test-sonnet-4, by hint "sonnet"/,
    );
  });

  it('a model that goes away: Approve fails, the models are listed again, and another tool-calling model answers', async () => {
    const before = new Set(wb.page.frames());
    let f = await callForReview('tools_no_hint');
    assert.equal(await f.locator('select').first().inputValue(), 'test-sonnet-4');
    try {
      await commandPick(wb.page, 'MCP Roundtrip Test: Remove a Test Model…', ['test-sonnet-4']);
      f = await pressInCard(wb.page, before, 'approve-s');
      await f.locator('p.error', { hasText: 'The model failed' }).waitFor({ timeout: 60_000 });
      await waitFor(
        'the picker without the model that went away',
        async () => (await f.locator('select').first().locator('option[value="test-sonnet-4"]').count()) === 0,
      );
      assert.equal(await f.locator('select').first().inputValue(), 'test-opus-4');
      await press(f, 'approve-s');
      await press(f, 'send-s');
      assert.equal((await received(wb.page)).model, 'test-opus-4');
    } finally {
      await runCommand(wb.page, 'MCP Roundtrip Test: Restore the Test Models');
    }
  });

  it('declining the review ends the call as declined; no retry is sent', async () => {
    const f = await callForReview('sample_plain');
    // 42 words do not fit test-mini's 30-token input limit.
    assert.match((await option(f, 'test-mini')).text, /cannot do this request: prompt too long \(\d+ tokens, limit 30\)/);
    await press(f, 'decline-s');
    const log = await waitForLog(host.logsDir, /✖ \[probe\] tools\/call sample_plain failed in round 1: .*declin/i);
    assert.ok(!/retry 1 of tools\/call sample_plain/.test(log));
  });
});
