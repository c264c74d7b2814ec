/**
 * Resource templates and completion in a real VS Code (code-server 1.139, the .vsix installed), against
 * server-everything (its template `demo://resource/dynamic/text/{resourceId}` completes `resourceId`):
 * Read Resource… offers the template, its variable is filled in the arguments form, which shows the
 * server's suggestions, and the expanded URI is read. Screenshots go to test-results/screenshots/.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { openWorkbench, repoRoot, screenshot, startCodeServer, waitFor, type CodeServerHost, type Workbench } from './harness';
import { commandPick, makeWorkspace, panel, press, resultText, suiteHooks, VSIX, waitForLog } from './support';

const EVERYTHING = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

describe('e2e templates: resource templates and suggestions in a real VS Code', function () {
  this.timeout(300_000);
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';

  before(async () => {
    ws = makeWorkspace({ everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { resetEach: true, shotPrefix: 'templates-failure-' });

  it('Read Resource… → a template: its variable suggested by the server, filled, and the expanded URI read', async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Read Resource…', ['everything', 'Dynamic Text Resource']);
    const f = await panel(page, 'Dynamic Text Resource', '[data-panel="arguments"]');
    const header = await f.locator('header').innerText();
    assert.match(header, /Resource template/);
    assert.match(header, /Variables for reading this resource on everything\./);
    const input = f.locator('input[list]').first();
    await input.fill('1');
    const suggested = await waitFor(
      'a suggestion from completion/complete',
      async () => {
        const values = await f.locator('datalist option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
        return values.length > 0 && values;
      },
      { timeoutMs: 30_000 },
    );
    assert.ok(
      suggested.every((v) => v.startsWith('1')),
      String(suggested),
    );
    await screenshot(page, 'templates-variable-suggestions');
    await input.fill('7');
    await press(f, 'submit');
    await waitForLog(host.logsDir, /resources\/read demo:\/\/resource\/dynamic\/text\/7/);
    await resultText(page, 'Resource 7: This is a plaintext resource');
    await screenshot(page, 'templates-result');
  });
});
