/**
 * A cloned repository's hostile `.vscode/mcp.json` (nested a million levels, past the size bound, not
 * JSON) beside the person's own user-level `mcp.json` and the demo: the real registry's reload keeps
 * the person's server and the demo, and the file is one problem, in the log and as a line at the top of
 * the Servers view, never a silent absence. Runs `src/vscode` under the `vscode` stand-in, with the
 * file system on real files.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { useVscodeStub } from '../../support/vscodeStub';
import { MAX_CONFIG_DEPTH, MAX_CONFIG_FILE_BYTES } from '../../../src/core/util/jsonc';

describe('configuration: a hostile workspace mcp.json beside the person’s own servers', () => {
  useVscodeStub();
  let vscode: typeof import('vscode');
  let registryModule: typeof import('../../../src/vscode/servers/serverRegistry');
  let viewModule: typeof import('../../../src/vscode/servers/serversView');
  const root = mkdtempSync(path.join(tmpdir(), 'mcp-roundtrip-hostile-config-'));
  const userDir = path.join(root, 'User');
  const workspace = path.join(root, 'cloned');
  const hostileFile = path.join(workspace, '.vscode', 'mcp.json');
  const shown: string[] = [];

  before(() => {
    vscode = require('vscode') as typeof import('vscode');
    registryModule = require('../../../src/vscode/servers/serverRegistry') as typeof registryModule;
    viewModule = require('../../../src/vscode/servers/serversView') as typeof viewModule;
    mkdirSync(path.join(userDir, 'globalStorage', 'ext'), { recursive: true });
    mkdirSync(path.dirname(hostileFile), { recursive: true });
    writeFileSync(
      path.join(userDir, 'mcp.json'),
      JSON.stringify({ servers: { mine: { type: 'http', url: 'https://mcp.example.com/mcp' } } }),
    );
    (vscode.workspace as { fs: unknown }).fs = {
      stat: async (uri: { fsPath: string }) => {
        try {
          return { type: 1, size: statSync(uri.fsPath).size };
        } catch {
          throw vscode.FileSystemError.FileNotFound(uri.fsPath);
        }
      },
      readFile: async (uri: { fsPath: string }) => readFileSync(uri.fsPath),
    };
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = async (text: string) => void shown.push(text);
    (vscode.workspace as { workspaceFolders: unknown }).workspaceFolders = [{ uri: vscode.Uri.file(workspace), name: 'cloned', index: 0 }];
  });
  after(() => {
    (vscode.workspace as { workspaceFolders: unknown }).workspaceFolders = undefined;
  });

  const cases: [string, () => void, RegExp][] = [
    [
      'nested a million levels',
      () => writeFileSync(hostileFile, '['.repeat(1_000_000)),
      new RegExp(`nested deeper than ${MAX_CONFIG_DEPTH} levels; not read`),
    ],
    [
      'past the size bound',
      () => {
        writeFileSync(hostileFile, '');
        truncateSync(hostileFile, MAX_CONFIG_FILE_BYTES + 1);
      },
      new RegExp(`${MAX_CONFIG_FILE_BYTES + 1} bytes, larger than the limit of ${MAX_CONFIG_FILE_BYTES} bytes; not read`),
    ],
    ['not JSON', () => writeFileSync(hostileFile, '{"servers": {"x": '), /invalid JSON at line 1/],
  ];

  /** The real registry over the test's folders, with the lines it logged. */
  const newRegistry = () => {
    const logged: string[] = [];
    const log = { error: (t: string) => logged.push(t), warn: (t: string) => logged.push(t), info: () => {} };
    const context = {
      extensionPath: root,
      globalStorageUri: vscode.Uri.file(path.join(userDir, 'globalStorage', 'ext')),
      secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: () => ({ dispose() {} }) },
    };
    return { registry: new registryModule.ServerRegistry(context as never, log as never, () => ({}) as never), logged };
  };

  for (const [what, write, reason] of cases) {
    it(`${what}: the demo and the person's server still load; the file is one problem in the log and the view`, async () => {
      write();
      const { registry, logged } = newRegistry();
      try {
        await registry.reload();
        assert.deepEqual(
          registry.list().map((e) => e.name),
          ['demo', 'mine'],
        );
        assert.equal(registry.problems.length, 1);
        assert.ok(registry.problems[0].startsWith(`${hostileFile}: `), registry.problems[0]);
        assert.match(registry.problems[0], reason);
        assert.deepEqual(logged, registry.problems);
        assert.deepEqual(shown.splice(0), [`MCP Roundtrip: ${registry.problems[0]}`]);
        const view = new viewModule.ServersView(registry);
        const top = await view.getChildren();
        assert.deepEqual(top[0], { kind: 'message', text: `Configuration problem: ${registry.problems[0]}`, error: true });
        assert.deepEqual(
          top.slice(1).map((n) => (n.kind === 'server' ? n.entry.name : n.kind)),
          ['demo', 'mine'],
        );
        assert.equal((view.getTreeItem(top[0]).iconPath as { id: string }).id, 'error');
        view.dispose();
      } finally {
        registry.dispose();
      }
    });
  }

  it('an envFile past the size bound: the server says so (view and log), not read', async () => {
    const envFile = path.join(root, 'huge.env');
    writeFileSync(envFile, '');
    truncateSync(envFile, MAX_CONFIG_FILE_BYTES + 1);
    writeFileSync(hostileFile, JSON.stringify({ servers: { withEnv: { type: 'stdio', command: 'node', envFile } } }));
    const { registry, logged } = newRegistry();
    try {
      await registry.reload();
      const entry = registry.get('withEnv')!;
      await assert.rejects(registry.spec(entry), /larger than the limit/);
      assert.match(
        entry.error ?? '',
        new RegExp(`envFile ${envFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ${MAX_CONFIG_FILE_BYTES + 1} bytes`),
      );
      assert.ok(
        logged.some((l) => l.startsWith('[withEnv] configuration problem: ') && /larger than the limit/.test(l)),
        logged.join('\n'),
      );
    } finally {
      registry.dispose();
    }
  });
});
