/**
 * Running a saved call in VS Code (issue 44): a cloned repository's `.vscode/mcp-calls.json` naming
 * the person's own server. In an untrusted workspace its calls are neither listed nor run (until trust
 * is granted); in a trusted one a click first shows the arguments form with the file's arguments, and
 * a server the file's folder does not define is asked about (a modal naming file, call and server).
 * Runs `src/vscode` under the `vscode` stand-in; the person cancels, so no call is made.
 */
import assert from 'node:assert/strict';
import { useVscodeStub } from '../../support/vscodeStub';
import type { HistoryDeps } from '../../../src/vscode/commands/historyCommands';
import type { ArgumentsRequest } from '../../../src/vscode/roundPanel/inputUi';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

const HOSTILE_FILE = JSON.stringify({
  calls: {
    wipe: {
      server: 'my-own-server',
      tool: 'delete_all',
      arguments: { path: '/' },
      answers: { confirm: { action: 'accept', content: { sure: true } }, roots: { roots: [{ uri: 'file:///root/.ssh' }] } },
    },
  },
});

describe('saved calls in VS Code: trust, the arguments form first, another server asked about', () => {
  useVscodeStub();
  let vscode: typeof import('vscode');
  let files: typeof import('../../../src/vscode/history/savedCallsFiles');
  let commands: typeof import('../../../src/vscode/commands/historyCommands');
  const saved: Record<string, unknown> = {};
  const modals: { message: string; detail?: string }[] = [];
  const errors: string[] = [];
  let grant: import('vscode').EventEmitter<void>;
  let modalAnswer: string | undefined;

  before(() => {
    vscode = require('vscode') as typeof import('vscode');
    files = require('../../../src/vscode/history/savedCallsFiles') as typeof files;
    commands = require('../../../src/vscode/commands/historyCommands') as typeof commands;
    const ws = vscode.workspace as unknown as Record<string, unknown>;
    const win = vscode.window as unknown as Record<string, unknown>;
    for (const k of ['isTrusted', 'workspaceFolders', 'fs', 'onDidGrantWorkspaceTrust', 'asRelativePath']) saved[`ws.${k}`] = ws[k];
    for (const k of ['showWarningMessage', 'showErrorMessage', 'showInformationMessage']) saved[`win.${k}`] = win[k];
    grant = new vscode.EventEmitter<void>();
    Object.assign(ws, {
      workspaceFolders: [{ uri: vscode.Uri.file('/repo'), name: 'repo', index: 0 }],
      fs: {
        stat: async () => ({ type: 1, size: HOSTILE_FILE.length }),
        readFile: async () => new TextEncoder().encode(HOSTILE_FILE),
      },
      onDidGrantWorkspaceTrust: grant.event,
      asRelativePath: (p: string) => p.replace('/repo/', ''),
    });
    Object.assign(win, {
      showWarningMessage: async (message: string, options: { detail?: string }) => (
        modals.push({ message, detail: options?.detail }),
        modalAnswer
      ),
      showErrorMessage: async (message: string) => void errors.push(message),
      showInformationMessage: async () => undefined,
    });
  });
  after(() => {
    const ws = vscode.workspace as unknown as Record<string, unknown>;
    const win = vscode.window as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(saved)) (k.startsWith('ws.') ? ws : win)[k.slice(3)] = v;
  });

  const log = { warn: () => {}, info: () => {} } as never;
  const setTrust = (trusted: boolean) => ((vscode.workspace as unknown as { isTrusted: boolean }).isTrusted = trusted);

  /** The deps of the commands: the person's own (user-level) server, and an arguments form the person cancels. */
  function deps(savedCalls: InstanceType<typeof files.SavedCallsFiles>) {
    const forms: ArgumentsRequest[] = [];
    const entry = {
      name: 'my-own-server',
      def: { name: 'my-own-server', command: 'x', source: { kind: 'userFile', location: '/home/me/mcp.json' } },
    } as ServerEntry;
    const tool = { name: 'delete_all', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } };
    const d = {
      registry: { get: () => entry, connection: async () => ({ list: async () => [tool] }) },
      ui: { collectArguments: async (r: ArgumentsRequest) => (forms.push(r), undefined) },
      savedCalls,
    } as unknown as HistoryDeps;
    return { d, forms };
  }

  it('untrusted: the file is not read, nothing is listed or run; granting trust lists it', async () => {
    setTrust(false);
    const calls = new files.SavedCallsFiles(log);
    await calls.reload();
    assert.deepEqual(calls.list(), []);
    const { d, forms } = deps(calls);
    await commands.runSavedCall(d, { name: 'wipe', location: '/repo/.vscode/mcp-calls.json' });
    assert.deepEqual(forms, []);
    assert.match(errors.at(-1) ?? '', /not trusted/);
    const changed = new Promise<void>((resolve) => calls.onDidChange(resolve));
    setTrust(true);
    grant.fire();
    await changed;
    assert.deepEqual(
      calls.list().map((c) => [c.name, c.folder]),
      [['wipe', '/repo']],
    );
    calls.dispose();
  });

  it('trusted: a user-level server is asked about first; Cancel runs nothing', async () => {
    setTrust(true);
    const calls = new files.SavedCallsFiles(log);
    const { d, forms } = deps(calls);
    modals.length = 0;
    modalAnswer = undefined;
    await commands.runSavedCall(d, { name: 'wipe', location: '/repo/.vscode/mcp-calls.json' });
    assert.equal(modals.length, 1);
    assert.match(modals[0].message, /saved call "wipe" of \.vscode\/mcp-calls\.json/);
    assert.match(
      modals[0].detail ?? '',
      /call delete_all on "my-own-server" with \{"path":"\/"\}: your own server \(\/home\/me\/mcp\.json\)/,
    );
    assert.deepEqual(forms, [], 'nothing shown or run after Cancel');
    calls.dispose();
  });

  it("trusted, Run: the arguments form opens with the file's arguments (the person submits or cancels)", async () => {
    const calls = new files.SavedCallsFiles(log);
    const { d, forms } = deps(calls);
    modals.length = 0;
    modalAnswer = 'Run';
    await commands.runSavedCall(d, { name: 'wipe', location: '/repo/.vscode/mcp-calls.json' });
    assert.equal(modals.length, 1);
    assert.deepEqual(
      forms.map((f) => [f.server, f.kind, f.name, f.initial]),
      [['my-own-server', 'tool', 'delete_all', { path: '/' }]],
    );
    calls.dispose();
  });
});
