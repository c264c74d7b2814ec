/**
 * Tasks in a real VS Code (code-server, the .vsix installed): the pinned
 * `@modelcontextprotocol/server-everything` (2025 era) runs `simulate-research-query` as a task, called from
 * the palette to its report; with `ambiguous: true` its question ("Clarification") is answered in the
 * task's round panel (screenshot: test-results/screenshots/tasks-round-panel.png); Cancel in the view
 * **Tasks** ends a waiting task on both sides. Then the 2026-07-28 tasks fixture over HTTP (it outlives
 * the window): a task left waiting when the window reloads is listed again and its result fetched after
 * the reload, through Open Result.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { startTasksHttpFixture, type TasksHttpFixture } from '../support/tasksFixture';
import {
  findWebviewFrame,
  openWorkbench,
  repoRoot,
  screenshot,
  startCodeServer,
  waitFor,
  waitForNotification,
  type CodeServerHost,
  type Workbench,
} from './harness';
import { callTool, makeWorkspace, panel, paneRows, press, resultText, suiteHooks, VSIX, waitForLog } from './support';

const EVERYTHING = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** Generous: the machine running this may be busy. */
const LONG = 120_000;

/** The rows of the view Tasks (opened and expanded). */
function taskRows(page: Page): Promise<Locator> {
  return paneRows(page, page.locator('.pane', { has: page.locator('.pane-header h3.title', { hasText: /^Tasks$/ }) }), LONG);
}

/** The Tasks row of `tool` whose text matches `status`, once it shows. */
async function taskRow(page: Page, tool: string, status: RegExp): Promise<Locator> {
  const row = (await taskRows(page)).filter({ hasText: tool }).filter({ hasText: status }).first();
  await row.waitFor({ timeout: LONG });
  return row;
}

/** The round panel that asks `field` (a label of its form), once it shows. */
function roundAsking(page: Page, field: string): Promise<Frame> {
  return findWebviewFrame(
    page,
    async (f) => (await f.locator('[data-panel="round"]').count()) > 0 && (await f.getByLabel(field, { exact: true }).count()) > 0,
    { timeoutMs: LONG },
  );
}

/** Call `simulate-research-query` from the palette with `topic` (and `ambiguous`), submitting its arguments. */
async function research(page: Page, topic: string, ambiguous: boolean): Promise<void> {
  await callTool(page, 'everything', 'Simulate Research Query');
  const args = await panel(page, 'simulate-research-query', '[data-panel="arguments"]');
  await args.getByLabel('topic', { exact: true }).fill(topic);
  if (ambiguous) await args.getByLabel('ambiguous', { exact: true }).check();
  await press(args, 'submit');
}

describe('e2e tasks: tool calls run as tasks, in a real VS Code', function () {
  this.timeout(900_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';
  let fx: TasksHttpFixture;

  before(async () => {
    fx = await startTasksHttpFixture(path.join(mkdtempSync(path.join(os.tmpdir(), 'mcp-rt-e2e-tasks-')), 'wire.log'), {
      POLL_MS: '300',
    });
    ws = makeWorkspace({
      everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
      'tasks-http': { type: 'http', url: fx.url },
    });
    host = await startCodeServer({ workspace: ws, vsix: VSIX });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), {
    resetEach: true,
    shotPrefix: 'tasks-failure-',
    alsoStop: async () => fx?.child.kill(),
  });

  it('simulate-research-query runs as a task to its report, listed as finished in the view Tasks', async () => {
    const page = wb.page;
    await research(page, 'tide pools', false);
    await waitForLog(host.logsDir, /← \[everything\] task \S+ created for tools\/call simulate-research-query/, LONG);
    const text = await resultText(page, 'Research Report: tide pools');
    assert.match(text, /Stage 4: Generating report/);
    await taskRow(page, 'simulate-research-query', /everything · finished/);
  });

  it('ambiguous: true — the task asks its Clarification in its round panel (header: the task and its status); the answer reaches the report', async () => {
    const page = wb.page;
    await research(page, 'python', true);
    const f = await roundAsking(page, 'Clarification');
    const header = await waitFor(
      'the round panel to say it is a task waiting for an answer',
      async () => {
        const t = await f.getByTestId('task-status').innerText();
        return /^Task \S+ · (waiting for your answer|input_required)/.test(t) ? t : undefined;
      },
      { timeoutMs: LONG },
    );
    assert.match(header, /^Task \S+ · /);
    await screenshot(page, 'tasks-round-panel');
    await f.getByLabel('Clarification', { exact: true }).selectOption('snake');
    await press(f, 'submit');
    const text = await resultText(page, 'Research Report: python (snake)');
    assert.match(text, /Clarification\W+snake/);
  });

  it('Cancel in the view Tasks ends a task waiting for an answer on both sides: the server cancels it, the call ends saying so', async () => {
    const page = wb.page;
    await research(page, 'coral reefs', true);
    await roundAsking(page, 'Clarification');
    const row = await taskRow(page, 'simulate-research-query', /waiting for you/);
    await row.hover();
    await row.locator('.action-label[aria-label^="Cancel"]').click();
    // The server's side: its tasks/get (read by Cancel) says cancelled.
    await taskRow(page, 'simulate-research-query', /everything · cancelled/);
    // The call's side: it ends, naming the cancelled task.
    const said = await waitForNotification(page, /everything cancelled task \S+ of simulate-research-query/, { timeoutMs: LONG });
    assert.match(said, /Client cancelled task execution/);
    await waitFor(
      'the round panel asking the Clarification to close',
      async () => {
        for (const fr of page.frames())
          if (
            !fr.isDetached() &&
            (await fr
              .getByLabel('Clarification', { exact: true })
              .count()
              .catch(() => 0))
          )
            return undefined;
        return true;
      },
      { timeoutMs: LONG },
    );
  });

  it('a task left waiting when the window reloads is listed after the reload, and Open Result answers it and shows its result', async () => {
    const page = wb.page;
    await callTool(page, 'tasks-http', 'research', 'research');
    // The MRTR round before the task, then the task's first question.
    const who = await roundAsking(page, 'name');
    await who.getByLabel('name', { exact: true }).fill('Ada');
    await press(who, 'submit');
    await waitForLog(host.logsDir, /← \[tasks-http\] task task-1 created for tools\/call research/, LONG);
    await taskRow(page, 'research', /tasks-http · waiting for you/);
    await findWebviewFrame(page, async (f) => (await f.locator('[data-panel="round"]:has-text("Question q1?")').count()) > 0, {
      timeoutMs: LONG,
    });

    await page.reload({ waitUntil: 'domcontentloaded', timeout: LONG });
    await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: LONG });
    // Listed again from workspace storage, its status read afresh from the server.
    const row = await taskRow(page, 'research', /tasks-http · waiting for you/);
    await row.click();
    for (const q of ['q1', 'q2']) {
      const f = await findWebviewFrame(
        page,
        async (fr) => (await fr.locator(`[data-panel="round"]:has-text("Question ${q}?")`).count()) > 0,
        { timeoutMs: LONG },
      );
      await f.getByRole('radio', { name: q === 'q1' ? 'Yes' : 'No', exact: true }).check();
      await press(f, 'submit');
    }
    const text = await resultText(page, 'researched with');
    assert.match(text, /researched with \{"who":\{"name":"Ada"\},"q1":\{"ok":true\},"q2":\{"ok":false\}\}/);
    await taskRow(page, 'research', /tasks-http · finished/);
    // The task outlived the window: nothing cancelled it.
    assert.equal(fx.sent().filter((s) => s.msg.method === 'tasks/cancel').length, 0);
  });
});
