/**
 * Sampling through VS Code's language model API in a real VS Code, with the test model provider:
 * maxTokens enforced (reply cut, stopReason "maxTokens"), a tool-enabled request answered with
 * tool_use and nothing run, and a declined review ending the call as declined.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { findWebviewFrame, openWorkbench, repoRoot, runCommand, screenshot, startCodeServer, type CodeServerHost, type Workbench } from './harness';
import { makeWorkspace, pick, press, reset, resultText, TEST_MODELS, VSIX, waitForLog } from './support';

const PROBE = path.join(repoRoot, 'test', 'fixtures', 'samplingProbeServer.mjs');

async function review(page: Page): Promise<Frame> {
  return findWebviewFrame(page, async (f) => (await f.getByTestId('approve-s').count()) > 0, { timeoutMs: 60_000 });
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
  let failed = false;
  before(async () => {
    ws = makeWorkspace({ probe: { type: 'stdio', command: process.execPath, args: [PROBE] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX, extensionDirs: [TEST_MODELS], settings: { 'editor.wordWrap': 'on' } });
    wb = await openWorkbench(host.url, ws);
  });
  beforeEach(async () => {
    await reset(wb.page);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      failed = true;
      await screenshot(wb.page, `failure-sampling-${this.currentTest.title.replace(/\W+/g, '-')}`).catch(() => {});
    }
  });
  after(async () => {
    await wb?.close();
    await host?.stop({ removeFiles: !failed });
    if (failed && host) console.log(`logs kept in ${host.logsDir}`);
    rmSync(ws, { recursive: true, force: true });
  });

  const call = async (tool: string) => {
    await runCommand(wb.page, 'MCP Roundtrip: Call Tool…');
    await pick(wb.page, 'probe', 'probe');
    await pick(wb.page, tool);
  };

  it('maxTokens is enforced: the long reply is cut and stopReason is "maxTokens"', async () => {
    await call('sample_long');
    const f = await review(wb.page);
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
    await call('sample_tools');
    const f = await review(wb.page);
    assert.equal(await f.locator('select').first().inputValue(), 'test-sonnet-4');
    await screenshot(wb.page, 'sampling-tools-review');
    await press(f, 'approve-s');
    await press(f, 'send-s');
    const got = await received(wb.page);
    assert.equal(got.stopReason, 'toolUse');
    const blocks = (Array.isArray(got.content) ? got.content : [got.content]) as { type: string; name?: string }[];
    assert.ok(blocks.some((b) => b.type === 'tool_use' && b.name === 'get_weather'), JSON.stringify(blocks));
    const log = await waitForLog(host.logsDir, /↳ \[probe\] round 1 s: model test-sonnet-4, .*stopReason toolUse/);
    assert.ok(!/get_weather.*(ran|executed)/.test(log));
  });

  it('declining the review ends the call as declined; no retry is sent', async () => {
    await call('sample_plain');
    const f = await review(wb.page);
    await press(f, 'decline-s');
    const log = await waitForLog(host.logsDir, /✖ \[probe\] tools\/call sample_plain failed in round 1: .*declin/i);
    assert.ok(!/retry 1 of tools\/call sample_plain/.test(log));
  });
});
