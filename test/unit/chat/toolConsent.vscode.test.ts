/**
 * `@roundtrip`'s consent dialog with lasting rules (issue 43): **Always Allow This Tool** and, for a
 * tool the server marks read-only, **Always Allow Read-Only Tools of This Server** keep a rule that
 * outlives the window (a new session reads it), in the workspace's storage for a workspace server and
 * the global storage for the person's own; **Reset Chat Permissions** forgets them; an untrusted
 * workspace is offered none and none applies. Runs `src/vscode` under the `vscode` stand-in.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';

interface Dialog {
  message: string;
  detail?: string;
  buttons: string[];
}

describe("@roundtrip's lasting chat rules", () => {
  useVscodeStub();
  let vscode: { window: Record<string, unknown>; workspace: Record<string, unknown> };
  let consentModule: typeof import('../../../src/vscode/chat/toolConsent');
  let permissionsModule: typeof import('../../../src/vscode/chat/chatPermissions');
  let registerChat: typeof import('../../../src/vscode/chat/registerChat');
  let stub: { __context(p: string, pkg: Record<string, unknown>): import('vscode').ExtensionContext };
  const saved: Record<string, unknown> = {};
  let dialogs: Dialog[];
  let answer: string | undefined;

  before(() => {
    vscode = require(VSCODE_STUB) as typeof vscode;
    stub = require(VSCODE_STUB) as typeof stub;
    consentModule = require('../../../src/vscode/chat/toolConsent') as typeof consentModule;
    permissionsModule = require('../../../src/vscode/chat/chatPermissions') as typeof permissionsModule;
    registerChat = require('../../../src/vscode/chat/registerChat') as typeof registerChat;
    saved.showWarningMessage = vscode.window.showWarningMessage;
    saved.showInformationMessage = vscode.window.showInformationMessage;
    saved.isTrusted = vscode.workspace.isTrusted;
  });
  after(() => {
    vscode.window.showWarningMessage = saved.showWarningMessage;
    vscode.window.showInformationMessage = saved.showInformationMessage;
    vscode.workspace.isTrusted = saved.isTrusted;
  });
  beforeEach(() => {
    dialogs = [];
    answer = undefined;
    vscode.workspace.isTrusted = true;
    vscode.window.showWarningMessage = async (message: string, options: { detail?: string }, ...buttons: string[]) => (
      dialogs.push({ message, detail: options.detail, buttons }),
      answer
    );
    vscode.window.showInformationMessage = async () => undefined;
  });

  const workspaceServer = { name: 'repo-tools', def: { source: { kind: 'workspaceFile' } } };
  const userServer = { name: 'files', def: { source: { kind: 'userFile' } } };

  function setUp() {
    const context = stub.__context(path.resolve('.'), { name: 'x', publisher: 'y' });
    const permissions = new permissionsModule.ChatPermissions(context.workspaceState, context.globalState);
    /** A new window: this session's allowances gone, the stored rules kept. */
    const session = () => new consentModule.ChatToolConsent(permissions);
    return { context, permissions, session };
  }

  it('Always Allow This Tool runs it without asking in later sessions, kept in the workspace for a workspace server', async () => {
    const { context, permissions, session } = setUp();
    answer = 'Always Allow This Tool';
    assert.equal(await session().mayRun(workspaceServer, 'lint', { path: 'src' }), true);
    assert.deepEqual(dialogs[0].buttons, ['Run', 'Allow in this Session', 'Always Allow This Tool']);
    assert.deepEqual(context.workspaceState.get('mcpRoundtrip.chatRules'), { 'repo-tools': { tools: ['lint'], readOnlyTools: false } });
    assert.equal(context.globalState.get('mcpRoundtrip.chatRules'), undefined);
    answer = undefined;
    assert.equal(await session().mayRun(workspaceServer, 'lint', {}), true);
    assert.equal(dialogs.length, 1, 'no dialog: the rule allows it');
    assert.equal(await session().mayRun(workspaceServer, 'deploy', {}), false, 'another tool still asks (dismissed: not run)');
    assert.equal(dialogs.length, 2);
    assert.equal(permissions.describe(workspaceServer), 'always allowed in chat: lint');
  });

  it('Always Allow Read-Only Tools of This Server is offered for a read-only tool only, kept user-level for a user server', async () => {
    const { context, session } = setUp();
    answer = 'Always Allow Read-Only Tools of This Server';
    assert.equal(await session().mayRun(userServer, 'read_file', {}, true), true);
    assert.deepEqual(dialogs[0].buttons, [
      'Run',
      'Allow in this Session',
      'Always Allow This Tool',
      'Always Allow Read-Only Tools of This Server',
    ]);
    assert.match(dialogs[0].detail ?? '', /readOnlyHint/);
    assert.deepEqual(context.globalState.get('mcpRoundtrip.chatRules'), { files: { tools: [], readOnlyTools: true } });
    answer = undefined;
    assert.equal(await session().mayRun(userServer, 'list_directory', {}, true), true, 'another read-only tool runs');
    assert.equal(dialogs.length, 1);
    assert.equal(await session().mayRun(userServer, 'write_file', {}, false), false, 'a tool not marked read-only asks');
    assert.deepEqual(dialogs[1].buttons, ['Run', 'Allow in this Session', 'Always Allow This Tool']);
  });

  it('Reset Chat Permissions forgets the rules and the session: every tool asks again', async () => {
    const { permissions, session } = setUp();
    const consent = session();
    answer = 'Always Allow This Tool';
    await consent.mayRun(workspaceServer, 'lint', {});
    await consent.mayRun(userServer, 'read_file', {}, true);
    answer = undefined;
    await registerChat.resetChatPermissions({ permissions, consent }, 'files');
    assert.equal(permissions.describe(userServer), undefined);
    assert.equal(permissions.describe(workspaceServer), 'always allowed in chat: lint');
    assert.equal(await consent.mayRun(userServer, 'read_file', {}, true), false, 'files asks again, even in this session');
    await registerChat.resetChatPermissions({ permissions, consent });
    assert.equal(await consent.mayRun(workspaceServer, 'lint', {}), false);
    assert.equal(dialogs.length, 4);
  });

  it('an untrusted workspace is offered no lasting rule, and a stored one does not apply', async () => {
    const { context, session } = setUp();
    await context.workspaceState.update('mcpRoundtrip.chatRules', { 'repo-tools': { tools: ['deploy'] } });
    vscode.workspace.isTrusted = false;
    assert.equal(await session().mayRun(workspaceServer, 'deploy', {}, true), false);
    assert.deepEqual(dialogs[0].buttons, ['Run', 'Allow in this Session']);
    vscode.workspace.isTrusted = true;
    assert.equal(await session().mayRun(workspaceServer, 'deploy', {}), true, 'trusted again: the rule applies');
  });
});
