/**
 * The Servers view gives each row an id that stays the same across refreshes, so that VS Code keeps
 * the row's handle: a click on a row (or its inline Inspect Skill) drawn before a refresh still
 * reaches the command with its node. Without ids, a refresh while the old rows were registered gave
 * a server another handle ("No tree item with id '0/0:skilled'") and a command ran with no node.
 * Runs `src/vscode` under the `vscode` stand-in.
 */
import assert from 'node:assert/strict';
import { useVscodeStub } from '../../support/vscodeStub';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';
import type { ServerTreeNode } from '../../../src/vscode/servers/serversView';

describe('the Servers view: row ids stable across refreshes', () => {
  useVscodeStub();
  let serversView: typeof import('../../../src/vscode/servers/serversView');
  let vscode: typeof import('vscode');
  before(() => {
    serversView = require('../../../src/vscode/servers/serversView') as typeof serversView;
    vscode = require('vscode') as typeof vscode;
  });

  it('gives servers, their tools, resources and skills ids of their own, the same after a refresh; alike rows still differ', async () => {
    const registryChanged = new vscode.EventEmitter<void>();
    const entry = (name: string) => ({ name, def: { name, source: { kind: 'userFile', location: '/home/me/mcp.json' } } }) as ServerEntry;
    const entries = [entry('skilled'), entry('tampered')];
    const conn = {
      serverCapabilities: { resources: {} },
      list: async (what: string) =>
        what === 'tools' ? [{ name: 'echo' }, { name: 'echo' }] : what === 'resources' ? [{ uri: 'file:///a.md', name: 'a' }] : [],
    };
    const skill = (uri: string, name: string) => ({ server: 'skilled', uri, name, description: '', files: [], bytes: 0 });
    const skills = {
      onDidChange: new vscode.EventEmitter<void>().event,
      listed: async (_c: unknown, e: ServerEntry) => ({
        nodes: [
          { kind: 'skill', entry: e, skill: skill('skill://refunds/SKILL.md', 'refunds') },
          { kind: 'skill', entry: e, skill: skill('skill://pdf-processing/SKILL.md', 'pdf-processing') },
        ],
        declined: [],
      }),
      treeItem: (n: { skill: { name: string } }) => new vscode.TreeItem(n.skill.name),
    };
    const view = new serversView.ServersView(
      { onDidChange: registryChanged.event, list: () => entries, problems: [], connection: async () => conn } as never,
      undefined,
      undefined,
      undefined,
      undefined,
      skills as never,
    );
    const ids = (nodes: ServerTreeNode[]) => nodes.map((n) => view.getTreeItem(n).id);
    const draw = async () => {
      const roots = await view.getChildren();
      return { roots: ids(roots), children: ids(await view.getChildren(roots[0])) };
    };
    const first = await draw();
    assert.deepEqual(first.roots, ['mcpRoundtrip.servers/server:skilled', 'mcpRoundtrip.servers/server:tampered']);
    assert.deepEqual(first.children, [
      'mcpRoundtrip.servers/server:skilled/tool:echo',
      'mcpRoundtrip.servers/server:skilled/tool:echo#1',
      'mcpRoundtrip.servers/server:skilled/resource:a',
      'mcpRoundtrip.servers/server:skilled/skill:skill://refunds/SKILL.md',
      'mcpRoundtrip.servers/server:skilled/skill:skill://pdf-processing/SKILL.md',
    ]);
    // A refresh lists new node objects: each row keeps its id.
    registryChanged.fire();
    assert.deepEqual(await draw(), first);
    view.dispose();
  });
});
