/**
 * The server registry in a real VS Code: the demo server, `mcpRoundtrip.servers` (user and workspace
 * settings) and `.vscode/mcp.json`; edits apply without a reload; a broken file is reported with its
 * path while the other servers keep working.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { demoServerConfig, registryWhere, resultText, roundtrip, setUserSetting, succeeded, workspaceFolder } from './support';

/** The runners' workspace: `.vscode/mcp.json` defines `workspace-demo`, `.vscode/settings.json` defines `ws-settings-demo`. */
const MCP_JSON = () => vscode.Uri.joinPath(workspaceFolder().uri, '.vscode', 'mcp.json');

describe('servers', function () {
  this.timeout(180_000);

  it('lists the built-in demo server first', async () => {
    const api = await roundtrip();
    const first = api.registry.list()[0];
    assert.equal(first?.name, 'demo');
    assert.equal(first.def.source.kind, 'demo');
    assert.equal(first.heldBack, undefined);
  });

  it('a server added to the user setting appears without a reload and answers a call; removing it drops it', async () => {
    const api = await roundtrip();
    try {
      await setUserSetting('servers', { 'user-demo': demoServerConfig() });
      const list = await registryWhere(api, 'user-demo listed', (l) => l.some((e) => e.name === 'user-demo'));
      const entry = list.find((e) => e.name === 'user-demo')!;
      assert.equal(entry.def.source.kind, 'settings');
      assert.equal(entry.heldBack, undefined, 'user-level servers are never held back');
      const result = succeeded(await api.call('user-demo', 'tools/call', { name: 'busy_report', arguments: { topic: 'integration' } }));
      assert.match(resultText(result), /^Report on integration is ready/);
    } finally {
      await setUserSetting('servers', undefined);
    }
    await registryWhere(api, 'user-demo gone', (l) => !l.some((e) => e.name === 'user-demo'));
  });

  it('mcpRoundtrip.demoServer.enabled off and on again applies without a reload', async () => {
    const api = await roundtrip();
    try {
      await setUserSetting('demoServer.enabled', false);
      await registryWhere(api, 'demo gone', (l) => !l.some((e) => e.name === 'demo'));
    } finally {
      await setUserSetting('demoServer.enabled', undefined);
    }
    await registryWhere(api, 'demo back', (l) => l[0]?.name === 'demo');
  });

  if (!vscode.workspace.isTrusted) return;

  it('lists the workspace setting server and the .vscode/mcp.json server, with their sources', async () => {
    const api = await roundtrip();
    const list = await registryWhere(
      api,
      'workspace servers listed',
      (l) => l.some((e) => e.name === 'workspace-demo') && l.some((e) => e.name === 'ws-settings-demo'),
    );
    const names = list.map((e) => e.name);
    assert.ok(names.indexOf('ws-settings-demo') < names.indexOf('workspace-demo'), `settings before files: ${names.join(', ')}`);
    const ws = list.find((e) => e.name === 'workspace-demo')!;
    assert.equal(ws.def.source.kind, 'workspaceFile');
    assert.equal(ws.def.source.location, MCP_JSON().fsPath);
    assert.equal(ws.heldBack, undefined);
    assert.equal(list.find((e) => e.name === 'ws-settings-demo')!.def.source.kind, 'workspaceSettings');
  });

  it('runs tools of the .vscode/mcp.json server and of the workspace setting server', async () => {
    const api = await roundtrip();
    for (const server of ['workspace-demo', 'ws-settings-demo']) {
      const outcome = await api.call(server, 'tools/call', { name: 'busy_report', arguments: { topic: server } });
      assert.match(resultText(succeeded(outcome)), new RegExp(`^Report on ${server} is ready`));
      assert.equal(outcome.events.at(-1)?.kind, 'complete');
    }
  });

  it('edits to .vscode/mcp.json apply without a reload; a broken file is reported with its path and the other servers keep working', async () => {
    const api = await roundtrip();
    const file = MCP_JSON();
    const original = await vscode.workspace.fs.readFile(file);
    const write = (text: string) => vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
    const doc = JSON.parse(new TextDecoder().decode(original)) as { servers: Record<string, unknown> };
    try {
      await write(JSON.stringify({ servers: { ...doc.servers, 'added-later': demoServerConfig() } }, null, 2));
      await registryWhere(api, 'added-later listed', (l) => l.some((e) => e.name === 'added-later'));

      await write('{ "servers": { "workspace-demo": { "type": "stdio", ');
      await registryWhere(api, 'the broken file reported', () =>
        api.registry.problems.some((p) => p.startsWith(`${file.fsPath}: invalid JSON`)),
      );
      const names = api.registry.list().map((e) => e.name);
      assert.ok(!names.includes('workspace-demo') && !names.includes('added-later'), `no server from the broken file: ${names.join(', ')}`);
      assert.ok(names.includes('demo') && names.includes('ws-settings-demo'), `the others are kept: ${names.join(', ')}`);
      assert.match(resultText(succeeded(await api.call('demo', 'tools/call', { name: 'busy_report', arguments: {} }))), /is ready/);
    } finally {
      await vscode.workspace.fs.writeFile(file, original);
    }
    await registryWhere(
      api,
      'the file read again',
      (l) => l.some((e) => e.name === 'workspace-demo') && !l.some((e) => e.name === 'added-later') && api.registry.problems.length === 0,
    );
  });
});
