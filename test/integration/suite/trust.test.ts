/**
 * Workspace Trust: run twice by the runners, once trusted and once untrusted. In an untrusted
 * workspace, servers defined by the workspace are held back (and say why); the demo and user-level
 * servers still work.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { demoServerConfig, ENV, registryWhere, resultText, roundtrip, setUserSetting, succeeded, waitForLogLines } from './support';

describe('workspace trust', function () {
  this.timeout(180_000);

  it('the workspace trust is the one the runner launched with', function () {
    if (!ENV.trust) this.skip();
    assert.equal(vscode.workspace.isTrusted, ENV.trust === 'trusted');
  });

  if (vscode.workspace.isTrusted) return;

  it('untrusted: the .vscode/mcp.json server is listed but held back, and a call to it fails with the reason without starting it', async () => {
    const api = await roundtrip();
    const [entry] = (await registryWhere(api, 'workspace-demo listed', (l) => l.some((e) => e.name === 'workspace-demo'))).filter(
      (e) => e.name === 'workspace-demo',
    );
    assert.match(entry.heldBack ?? '', /not started: this workspace is not trusted/);
    const outcome = await api.call('workspace-demo', 'tools/call', { name: 'busy_report', arguments: {} });
    assert.equal(outcome.result, undefined);
    assert.match(outcome.error?.message ?? '', /^workspace-demo: not started: this workspace is not trusted/);
    assert.equal(entry.connection, undefined, 'no connection was made');
  });

  it('untrusted: the workspace setting server is not started (VS Code drops the restricted setting, or the host holds it back)', async () => {
    const api = await roundtrip();
    const entry = api.registry.get('ws-settings-demo');
    if (entry) assert.match(entry.heldBack ?? '', /not trusted/);
    const outcome = await api.call('ws-settings-demo', 'tools/call', { name: 'busy_report', arguments: {} });
    assert.ok(outcome.error, 'the call is refused');
  });

  it('untrusted: the demo and a user setting server still run tools', async () => {
    const api = await roundtrip();
    try {
      await setUserSetting('servers', { 'user-demo': demoServerConfig() });
      await registryWhere(api, 'user-demo listed', (l) => l.some((e) => e.name === 'user-demo'));
      for (const server of ['demo', 'user-demo']) {
        assert.match(
          resultText(succeeded(await api.call(server, 'tools/call', { name: 'busy_report', arguments: { topic: server } }))),
          new RegExp(`^Report on ${server} is ready`),
        );
      }
    } finally {
      await setUserSetting('servers', undefined);
    }
  });

  it('untrusted: the log says why the workspace server is held back', async function () {
    if (!ENV.logsDir) this.skip();
    await waitForLogLines([/\[workspace-demo\] not started: this workspace is not trusted/]);
  });
});
