/**
 * A real server this project did not write, in a real VS Code (code-server, the .vsix installed, the
 * test model provider for sampling): the pinned `@modelcontextprotocol/server-everything` (2025 era),
 * through the representative set of issue 38 — an elicitation answered in the round panel, a sampling
 * answered through its review, roots that are exactly the workspace folders, a long call whose progress
 * shows in VS Code's notification, a template resource read by filling its variable, a completion
 * offered in a prompt's argument form, a URL the server needs opened first (-32042: consent, Done, the
 * call sent once more), and Ping Server. Screenshots go to test-results/screenshots/ (realServers-*).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Frame } from 'playwright-core';
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
import { callTool, commandPick, makeWorkspace, panel, press, resultText, suiteHooks, TEST_MODELS, VSIX, waitForLog } from './support';

const EVERYTHING = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** Generous: the machine running this may be busy. */
const LONG = 120_000;

/**
 * The values of the suggestions (`<datalist>`) of a field, once `wanted` holds for them (by default:
 * there are some). A field asks on focus and as it is typed in, so an earlier answer may show first.
 */
function suggestions(f: Frame, field: string, wanted: (values: string[]) => boolean = (v) => v.length > 0): Promise<string[]> {
  return waitFor(
    `suggestions (completion/complete) for ${field} that are the ones wanted`,
    async () => {
      const list = await f.getByLabel(field, { exact: true }).getAttribute('list');
      if (!list) return undefined;
      const values = await f.locator(`datalist#${list} option`).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      return wanted(values) && values;
    },
    { timeoutMs: LONG },
  );
}

describe('e2e real servers: server-everything in a real VS Code', function () {
  this.timeout(600_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';

  before(async () => {
    ws = makeWorkspace({ everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX, extensionDirs: [TEST_MODELS] });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { resetEach: true, shotPrefix: 'realServers-failure-' });

  it('Ping Server: the 2025-era server answers ping, its round-trip time said', async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Ping Server', ['everything']);
    const text = await waitForNotification(page, /pong from everything in \d+ ms/, { timeoutMs: LONG });
    assert.match(text, /pong from everything in \d+ ms\./);
    await waitForLog(host.logsDir, /pong from everything in \d+ ms/, LONG);
  });

  it('trigger-elicitation-request: the pushed form answered in the round panel reaches the server', async () => {
    const page = wb.page;
    await callTool(page, 'everything', 'Trigger Elicitation Request');
    const f = await findWebviewFrame(
      page,
      async (fr) => (await fr.locator('[data-panel="round"]').count()) > 0 && (await fr.getByLabel('String', { exact: true }).count()) > 0,
      { timeoutMs: LONG },
    );
    await f.getByLabel('String', { exact: true }).fill('Grace Hopper');
    await press(f, 'submit');
    await waitForLog(host.logsDir, /← \[everything\] elicitation\/create id=\S+ pushed by a 2025-era server: accept fields/, LONG);
    const text = await resultText(page, 'Grace Hopper');
    assert.match(text, /User provided the requested information/);
  });

  it('trigger-sampling-request: answered through the sampling review by a VS Code model', async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Call Tool…', ['everything', 'Trigger Sampling Request']);
    const args = await panel(page, 'trigger-sampling-request', '[data-panel="arguments"]');
    await args.getByLabel('prompt', { exact: true }).fill('Say hello');
    await press(args, 'submit');
    const f = await findWebviewFrame(page, async (fr) => (await fr.locator('[data-testid^="approve-"]').count()) > 0, { timeoutMs: LONG });
    await press(f, (await f.locator('[data-testid^="approve-"]').getAttribute('data-testid'))!);
    await f.locator('[data-testid^="send-"]').waitFor({ timeout: LONG });
    await press(f, (await f.locator('[data-testid^="send-"]').getAttribute('data-testid'))!);
    const log = await waitForLog(
      host.logsDir,
      /← \[everything\] sampling\/createMessage id=\S+ pushed by a 2025-era server: model (test-\S+)/,
      LONG,
    );
    const model = /pushed by a 2025-era server: model (test-[\w.-]+)/.exec(log)![1];
    const text = await resultText(page, 'LLM sampling result');
    assert.ok(text.includes(model), `the server received the reply of ${model}: ${text}`);
  });

  it('get-roots-list: the roots are exactly the workspace folders', async () => {
    const page = wb.page;
    await callTool(page, 'everything', 'Get Roots List');
    const text = await resultText(page, 'Current MCP Roots');
    assert.match(text, /Current MCP Roots \(1 total\)/);
    const uris = [...text.matchAll(/URI: (\S+)/g)].map((m) => m[1]);
    assert.deepEqual(uris, [pathToFileURL(ws).href]);
    await waitForLog(host.logsDir, /← \[everything\] roots\/list id=\S+ pushed by a 2025-era server: 1 root\(s\)/, LONG);
  });

  it("trigger-long-running-operation: the server's progress in VS Code's progress notification, then its result", async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Call Tool…', ['everything', 'Trigger Long Running Operation']);
    const args = await panel(page, 'trigger-long-running-operation', '[data-panel="arguments"]');
    await args.getByLabel('duration', { exact: true }).fill('10');
    await args.getByLabel('steps', { exact: true }).fill('5');
    await press(args, 'submit');
    const text = await waitForNotification(page, /everything: calling trigger-long-running-operation[\s\S]*\b[1-4] \/ 5\b/, {
      timeoutMs: LONG,
    });
    assert.match(text, /\b[1-4] \/ 5\b/);
    await screenshot(page, 'realServers-progress-notification');
    await resultText(page, 'Long running operation completed. Duration: 10 seconds, Steps: 5.');
  });

  it('a template resource: its variable filled in the form (suggested by the server) and the expanded URI read', async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Read Resource…', ['everything', 'Dynamic Text Resource']);
    const f = await panel(page, 'Dynamic Text Resource', '[data-panel="arguments"]');
    await f.getByLabel('resourceId', { exact: true }).fill('2');
    const offered = await suggestions(f, 'resourceId', (v) => v.length > 0 && v.every((x) => x.startsWith('2')));
    assert.ok(
      offered.every((v) => v.startsWith('2')),
      String(offered),
    );
    await f.getByLabel('resourceId', { exact: true }).fill('5');
    await press(f, 'submit');
    await waitForLog(host.logsDir, /resources\/read demo:\/\/resource\/dynamic\/text\/5/, LONG);
    await resultText(page, 'Resource 5: This is a plaintext resource');
  });

  it("completable-prompt: the server's completions offered in the prompt's argument form, and the prompt got", async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Get Prompt…', ['everything', 'Team Management']);
    const f = await panel(page, 'completable-prompt', '[data-panel="arguments"]');
    const department = f.getByLabel('department', { exact: true });
    await department.fill('Eng');
    // Only the department that starts with what is typed (the whole list was offered for the empty field).
    assert.deepEqual(await suggestions(f, 'department', (v) => v.length === 1), ['Engineering']);
    await department.focus();
    await screenshot(page, 'realServers-completion-suggestion');
    await department.fill('Engineering');
    // The name's suggestions depend on the department (sent as the completion's context).
    const name = f.getByLabel('name', { exact: true });
    await name.focus();
    const names = await suggestions(f, 'name');
    assert.deepEqual(names, ['Alice', 'Bob', 'Charlie']);
    await name.fill(names[0]);
    await press(f, 'submit');
    await resultText(page, `Please promote ${names[0]} to the head of the Engineering team.`);
  });

  it('trigger-url-elicitation with errorPath: -32042 offers its URL with consent, Done sends the call once more, and it completes', async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Call Tool…', ['everything', 'Trigger URL Elicitation']);
    const args = await panel(page, 'trigger-url-elicitation', '[data-panel="arguments"]');
    await args.getByLabel('url', { exact: true }).fill('https://auth.example.test/approve');
    await args.getByLabel('errorPath', { exact: true }).check();
    await press(args, 'submit');
    // The error's URL (not the one given: the server's prerequisite), shown in full before anything opens.
    const consent = await findWebviewFrame(
      page,
      async (fr) =>
        (await fr.locator('[data-testid^="open-url-"]').count()) > 0 && (await fr.getByText('modelcontextprotocol.io').count()) > 0,
      { timeoutMs: LONG },
    );
    await waitForLog(host.logsDir, /needs 1 URL\(s\) opened first \(URLElicitationRequiredError -32042\)/, LONG);
    await press(consent, (await consent.locator('[data-testid^="open-url-"]').getAttribute('data-testid'))!);
    const open = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
    await open.waitFor({ timeout: LONG });
    await open.click();
    // The Done / Cancel notification: the call is sent once more after Done.
    const toast = page
      .locator('.notifications-toasts .notification-toast', {
        hasText: /sends tools\/call trigger-url-elicitation again once you are done at modelcontextprotocol\.io/,
      })
      .first();
    await toast.waitFor({ state: 'visible', timeout: LONG });
    assert.equal(await toast.locator('.monaco-button', { hasText: /^Cancel$/ }).count(), 1);
    await screenshot(page, 'realServers-url-required-done');
    await toast.locator('.monaco-button', { hasText: /^Done$/ }).click();
    // The retry takes the request path: the URL given is pushed as a URL elicitation, consented to the same way.
    const pushed = await findWebviewFrame(
      page,
      async (fr) => (await fr.locator('[data-testid^="open-url-"]').count()) > 0 && (await fr.getByText('auth.example.test').count()) > 0,
      { timeoutMs: LONG },
    );
    await press(pushed, (await pushed.locator('[data-testid^="open-url-"]').getAttribute('data-testid'))!);
    await open.waitFor({ timeout: LONG });
    await open.click();
    const text = await resultText(page, 'User completed the URL elicitation flow');
    assert.match(text, /URL: https:\/\/auth\.example\.test\/approve/);
  });
});
