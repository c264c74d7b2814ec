/**
 * Add Server…: the command's quick pick and input boxes, answered in the browser by the code-server
 * runner (run.mjs, Playwright), write the user setting, and the registry lists the new server.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ENV, registryWhere, roundtrip, setUserSetting } from './support';

/** What run.mjs types: HTTP, this URL, this name. Keep in step with `answerAddServer` there. */
export const UI_ADDED = { name: 'ui-added', url: 'http://127.0.0.1:9/mcp' };

describe('Add Server…', function () {
  this.timeout(180_000);

  it('writes the answers to the user setting mcpRoundtrip.servers and the registry lists the server', async function () {
    // Needs someone at the keyboard: only the code-server runner answers quick inputs, in its trusted pass.
    if (ENV.ui !== 'playwright' || !vscode.workspace.isTrusted) this.skip();
    const api = await roundtrip();
    try {
      await vscode.commands.executeCommand('mcpRoundtrip.addServer');
      const servers = vscode.workspace.getConfiguration('mcpRoundtrip').inspect<Record<string, unknown>>('servers')?.globalValue;
      assert.deepEqual(servers, { [UI_ADDED.name]: { type: 'http', url: UI_ADDED.url } });
      const [entry] = (await registryWhere(api, `${UI_ADDED.name} listed`, (l) => l.some((e) => e.name === UI_ADDED.name))).filter(
        (e) => e.name === UI_ADDED.name,
      );
      assert.equal(entry.def.type, 'http');
      assert.equal(entry.def.source.kind, 'settings');
    } finally {
      await setUserSetting('servers', undefined);
    }
  });
});
