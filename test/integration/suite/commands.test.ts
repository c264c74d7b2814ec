/** The command palette contract: the seven titles are contributed and registered by activation. */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, roundtrip } from './support';

/** The titles users type (README "Using it"); they are a contract. */
const CONTRACT_TITLES = [
  'MCP Roundtrip: Call Tool…',
  'MCP Roundtrip: Get Prompt…',
  'MCP Roundtrip: Read Resource…',
  'MCP Roundtrip: Show Round-Trip Log',
  'MCP Roundtrip: Restart Server…',
  'MCP Roundtrip: Add Server…',
  'MCP Roundtrip: Open Server Configuration',
];

describe('commands', () => {
  it('contributes the seven contract titles, and activation registers each of their commands', async () => {
    await roundtrip();
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
      contributes: { commands: { command: string; title: string; category?: string }[] };
    };
    const byTitle = new Map(pkg.contributes.commands.map((c) => [`${c.category}: ${c.title}`, c.command]));
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = CONTRACT_TITLES.filter((t) => !byTitle.has(t));
    assert.deepEqual(missing, [], 'titles missing from contributes.commands');
    const unregistered = CONTRACT_TITLES.map((t) => byTitle.get(t)!).filter((id) => !registered.has(id));
    assert.deepEqual(unregistered, [], 'commands contributed but not registered');
  });

  it('Refresh (in the view) reloads the server list', async () => {
    const api = await roundtrip();
    let fired = false;
    const sub = api.registry.onDidChange(() => (fired = true));
    // The command resolves once the reload it started has finished (and fired its change).
    await vscode.commands.executeCommand('mcpRoundtrip.view.refresh');
    sub.dispose();
    assert.equal(fired, true, 'the registry fired onDidChange for the refresh');
  });
});
