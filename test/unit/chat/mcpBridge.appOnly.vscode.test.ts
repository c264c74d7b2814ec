/**
 * A tool only its MCP App may call (`_meta.ui.visibility: ["app"]`) is neither listed to VS Code's chat
 * through the bridge nor run when a model asks for it by name (VS Code keeps tool lists across windows,
 * so such a call may even come before this window listed the server).
 */
import assert from 'node:assert/strict';
import type { BridgeTarget } from '../../../src/core/bridge/bridgeServer';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';
import { useVscodeStub } from '../../support/vscodeStub';

const TOOLS = [
  { name: 'get-time', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://t/app.html', visibility: ['model', 'app'] } } },
  { name: 'poll-stats', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: 'ui://t/app.html', visibility: ['app'] } } },
];

describe('the bridge and app-only tools', () => {
  useVscodeStub();

  function bridgeTarget(): { target: BridgeTarget; called: unknown[]; dispose(): void } {
    const bridgeMod = require('../../../src/vscode/chat/mcpBridge') as typeof import('../../../src/vscode/chat/mcpBridge');
    const entries = [{ name: 'monitor' } as ServerEntry];
    const registry = {
      list: () => entries,
      connection: async () => ({ list: async () => TOOLS }),
      onDidChange: () => ({ dispose: () => {} }),
    };
    const exposure = { exposed: () => entries, offered: () => entries, onDidChange: () => ({ dispose: () => {} }) };
    const called: unknown[] = [];
    const calls = { callTool: async (_e: unknown, params: { name: unknown }) => (called.push(params.name), { content: [] }) };
    const bridge = new bridgeMod.McpBridge(
      registry as never,
      exposure as never,
      calls as never,
      { warn: () => {}, info: () => {} } as never,
      '1',
    );
    const target = (bridge as unknown as { target(id: string): BridgeTarget }).target('monitor');
    return { target, called, dispose: () => bridge.dispose() };
  }

  it('lists only the model-visible tool, and refuses the app-only one asked by name, before or after a listing', async () => {
    const before = bridgeTarget();
    const early = await before.target.callTool({ name: 'poll-stats', arguments: {} }, new AbortController().signal, () => {});
    assert.equal(early.isError, true);
    assert.match((early.content as { text: string }[])[0].text, /poll-stats of monitor is called only by its MCP App/);
    assert.deepEqual(before.called, [], 'not run');
    before.dispose();

    const { target, called, dispose } = bridgeTarget();
    assert.deepEqual(
      ((await target.listTools()) as { name: string }[]).map((t) => t.name),
      ['get-time'],
    );
    assert.equal((await target.callTool({ name: 'poll-stats', arguments: {} }, new AbortController().signal, () => {})).isError, true);
    await target.callTool({ name: 'get-time', arguments: {} }, new AbortController().signal, () => {});
    assert.deepEqual(called, ['get-time']);
    dispose();
  });
});
