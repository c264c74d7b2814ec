/**
 * The Servers view marks a server whose round waits for the person (issue 43: "the Servers view marks
 * the server") and lists its lasting chat rules in its description and tooltip, and redraws when
 * either changes. Runs `src/vscode` under the `vscode` stand-in.
 */
import assert from 'node:assert/strict';
import { useVscodeStub } from '../../support/vscodeStub';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

describe('the Servers view: waiting rounds and chat rules', () => {
  useVscodeStub();
  let serversView: typeof import('../../../src/vscode/servers/serversView');
  let vscode: typeof import('vscode');
  before(() => {
    serversView = require('../../../src/vscode/servers/serversView') as typeof serversView;
    vscode = require('vscode') as typeof vscode;
  });

  it('says "waits for you" with a bell, and the chat rules, on the server they belong to; redraws on a change', () => {
    const entry = (name: string) => ({ name, def: { name, source: { kind: 'userFile', location: '/home/me/mcp.json' } } }) as ServerEntry;
    const registryChanged = new vscode.EventEmitter<void>();
    const waitingChanged = new vscode.EventEmitter<void>();
    const rulesChanged = new vscode.EventEmitter<void>();
    let waiting = new Set(['demo']);
    const view = new serversView.ServersView(
      { onDidChange: registryChanged.event, list: () => [] } as never,
      undefined,
      undefined,
      { waits: (s) => waiting.has(s), onDidChange: waitingChanged.event },
      { describe: (e) => (e.name === 'demo' ? 'always allowed in chat: plan_trip' : undefined), onDidChange: rulesChanged.event },
    );
    let redraws = 0;
    view.onDidChangeTreeData(() => redraws++);
    const demo = view.getTreeItem({ kind: 'server', entry: entry('demo') });
    assert.match(String(demo.description), /^waits for you · not started/);
    assert.match(String(demo.description), / · always allowed in chat: plan_trip$/);
    assert.equal((demo.iconPath as { id: string }).id, 'bell-dot');
    const tip = (demo.tooltip as { value: string }).value;
    assert.match(tip, /A round waits for your answer/);
    assert.match(tip, /always allowed in chat: plan_trip \(MCP Roundtrip: Reset Chat Permissions forgets them\)/);
    const other = view.getTreeItem({ kind: 'server', entry: entry('weather') });
    assert.doesNotMatch(String(other.description), /waits for you|always allowed/);
    assert.notEqual((other.iconPath as { id: string }).id, 'bell-dot');
    waiting = new Set();
    waitingChanged.fire();
    rulesChanged.fire();
    assert.equal(redraws, 2);
    assert.doesNotMatch(String(view.getTreeItem({ kind: 'server', entry: entry('demo') }).description), /waits for you/);
    view.dispose();
  });

  it('marks a tool that needs or accepts tasks in its description and tooltip, and no other', () => {
    const registryChanged = new vscode.EventEmitter<void>();
    const view = new serversView.ServersView({ onDidChange: registryChanged.event, list: () => [] } as never);
    const entry = { name: 'fx' } as ServerEntry;
    const item = (tool: Record<string, unknown>) => view.getTreeItem({ kind: 'tool', entry, item: tool } as never);
    const required = item({ name: 'research', description: 'Researches', execution: { taskSupport: 'required' } });
    assert.equal(required.description, '[task: required]');
    assert.equal(required.tooltip, 'Researches\n[task: required]');
    assert.equal(item({ name: 'o', title: 'Optional', execution: { taskSupport: 'optional' } }).description, 'o [task: optional]');
    assert.equal(item({ name: 'plain' }).description, undefined);
    view.dispose();
  });

  it('after listing a server, draws its line again only when it reads otherwise (no redraw loop while it is expanded)', async () => {
    const registryChanged = new vscode.EventEmitter<void>();
    const conn = { list: () => Promise.resolve([{ name: 'echo' }]), serverCapabilities: { tools: {} } };
    const entry = {
      name: 'fx',
      def: { name: 'fx', source: { kind: 'userFile', location: '/home/me/mcp.json' } },
    } as unknown as ServerEntry;
    const view = new serversView.ServersView({
      onDidChange: registryChanged.event,
      list: () => [entry],
      connection: () => {
        // Listing connects: the line's state changes the first time only.
        (entry as { connection?: unknown }).connection = { state: 'connected', era: 'modern', protocolVersion: '2026-07-28', status: {} };
        return Promise.resolve(conn);
      },
    } as never);
    const redrawn: unknown[] = [];
    view.onDidChangeTreeData((n) => redrawn.push(n));
    const node = { kind: 'server' as const, entry };
    const turn = () => new Promise((r) => setImmediate(r));
    view.getTreeItem(node);
    assert.deepEqual(
      (await view.getChildren(node)).map((c) => c.kind),
      ['tool'],
    );
    await turn();
    assert.deepEqual(redrawn, [node], 'connecting changed the line: drawn again once');
    // VS Code draws the line again and, the server being expanded, lists its children again: no further redraw.
    assert.match(String(view.getTreeItem(node).description), /^connected · 2026-07-28/);
    await view.getChildren(node);
    await turn();
    assert.equal(redrawn.length, 1);
    view.dispose();
  });
});
