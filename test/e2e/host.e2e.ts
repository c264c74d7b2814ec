/**
 * The extension in a real VS Code (code-server 1.139), installed from its .vsix: the servers view
 * (demo + a workspace mcp.json server), a tool run from the command palette with its result in an
 * editor and every leg in the round-trip log, and Workspace Trust holding back workspace servers.
 */
import assert from 'node:assert/strict';
import { openWorkbench, screenshot, startCodeServer, waitFor, type CodeServerHost, type Workbench } from './harness';
import { callTool, makeWorkspace, resultText, serverRows, suiteHooks, VSIX, waitForLog } from './support';

function suite(name: string, trust: boolean, body: (ctx: { host: () => CodeServerHost; wb: () => Workbench }) => void) {
  describe(name, function () {
    this.timeout(300_000);
    let host: CodeServerHost | undefined;
    let wb: Workbench | undefined;
    let ws = '';
    before(async () => {
      ws = makeWorkspace();
      host = await startCodeServer({ workspace: ws, vsix: VSIX, trust });
      wb = await openWorkbench(host.url, ws);
    });
    suiteHooks(() => ({ wb, host, ws }));
    body({ host: () => host!, wb: () => wb! });
  });
}

suite('e2e host: trusted workspace', false, ({ host, wb }) => {
  it('lists the demo server and the server from .vscode/mcp.json in the view', async () => {
    const rows = await waitFor('both servers in the view', async () => {
      const r = await serverRows(wb().page);
      return r.some((t) => t.startsWith('demo')) && r.some((t) => t.startsWith('workspace-demo')) ? r : undefined;
    });
    assert.ok(rows.length >= 2);
    await screenshot(wb().page, 'host-view');
  });

  it('runs busy_report from the palette: the result opens in an editor and the log has every leg', async () => {
    const page = wb().page;
    await callTool(page, 'demo', 'Busy report', 'busy_report');
    await resultText(page, 'is ready');
    await screenshot(page, 'host-result');
    const log = await waitForLog(host().logsDir, /← \[demo\] complete id=\d+ after 1 round/);
    const legs = log.split('\n').filter((l) => /\[demo\] (tools\/call busy_report|input_required|retry|complete)/.test(l));
    assert.match(legs[0], /→ \[demo\] tools\/call busy_report id=\d+/);
    assert.match(legs[1], /← \[demo\] input_required round 1 .*no inputs \(state only\); requestState \d+ chars/);
    assert.match(
      legs[2],
      /→ \[demo\] retry 1 of tools\/call busy_report id=\d+ \(new id, was \d+\) with no inputResponses; requestState echo exact/,
    );
    assert.match(legs[3], /← \[demo\] complete/);
    assert.match(log, /\[demo\] connected: 2026-07-28 \(modern era\)/);
  });

  it('runs a tool of the workspace server too', async () => {
    const page = wb().page;
    await callTool(page, 'workspace-demo', 'Busy report', 'busy_report');
    await waitForLog(host().logsDir, /← \[workspace-demo\] complete/);
  });
});

suite('e2e host: untrusted workspace', true, ({ host, wb }) => {
  it('holds the workspace server back and says why; the demo server still works', async () => {
    const rows = await waitFor('the held-back server in the view', async () => {
      const r = await serverRows(wb().page);
      return r.some((t) => t.startsWith('workspace-demo') && /held back/.test(t)) ? r : undefined;
    });
    assert.ok(rows.some((t) => t.startsWith('demo')));
    await screenshot(wb().page, 'host-untrusted-view');
    await waitForLog(host().logsDir, /\[workspace-demo\] not started: this workspace is not trusted/);
    await callTool(wb().page, 'demo', 'Busy report', 'busy_report');
    await waitForLog(host().logsDir, /← \[demo\] complete/);
  });
});
