/**
 * Settings that decide what is kept or logged of what a person types, which models sampling may go
 * to, whether the demo is listed and which servers chat gets: a trusted workspace's
 * `.vscode/settings.json` must not decide them, only the person's user settings (as
 * `sampling.autoApprove`, autoApproveScope.vscode.test.ts). Runs a call from chat under the `vscode`
 * stand-in against an in-memory scripted server and reads what the history kept.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { scriptedConnection } from '../../support/inMemory';
import { scriptedProvider } from '../../support/providers';
import { askName, done } from '../../support/scripted';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

describe('settings read from the user settings only', () => {
  useVscodeStub();
  let vscode: typeof import('vscode');
  let chatCalls: typeof import('../../../src/vscode/chat/chatCalls');
  let workspaceHistory: typeof import('../../../src/vscode/history/workspaceHistory');
  let userSettings: typeof import('../../../src/vscode/shared/userSettings');
  let sampler: typeof import('../../../src/vscode/sampling/sampler');
  let stub: { __context(p: string, pkg: Record<string, unknown>): import('vscode').ExtensionContext };
  let saved: unknown;
  /** Each setting's user value and workspace value, as VS Code's `inspect` reports them. */
  let values: Record<string, { user?: unknown; workspace?: unknown }> = {};

  before(() => {
    vscode = require('vscode') as typeof import('vscode');
    chatCalls = require('../../../src/vscode/chat/chatCalls') as typeof chatCalls;
    workspaceHistory = require('../../../src/vscode/history/workspaceHistory') as typeof workspaceHistory;
    userSettings = require('../../../src/vscode/shared/userSettings') as typeof userSettings;
    sampler = require('../../../src/vscode/sampling/sampler') as typeof sampler;
    stub = require(VSCODE_STUB) as typeof stub;
    const ws = vscode.workspace as unknown as Record<string, unknown>;
    saved = ws.getConfiguration;
    ws.getConfiguration = () => ({
      get: (key: string, fallback?: unknown) => values[key]?.workspace ?? values[key]?.user ?? fallback,
      inspect: (key: string) => ({ key, globalValue: values[key]?.user, workspaceValue: values[key]?.workspace }),
      has: () => false,
      update: async () => {},
    });
  });
  after(() => ((vscode.workspace as unknown as Record<string, unknown>).getConfiguration = saved));

  /** The values the history kept of one answered form (`undefined`: none). */
  async function keptValues(): Promise<unknown> {
    const provider = scriptedProvider({ who: { action: 'accept', content: { name: 'Ada' } } });
    const s = scriptedConnection((_m, n) => (n === 1 ? askName('who', 'S1') : done('booked')), { provider });
    const registry = { connection: async () => s.conn, touch: () => {} } as never;
    const history = new workspaceHistory.WorkspaceHistory(stub.__context(path.resolve('.'), { name: 'x', publisher: 'y' }));
    const log = { event: () => {}, warn: () => {}, info: () => {}, secrets: { add: () => {} } } as never;
    const calls = new chatCalls.ChatCalls(registry, log, { markAskedFrom: () => {}, endFlow: () => {} }, provider, history);
    await calls.callTool(
      { name: 'scripted' } as ServerEntry,
      { name: 'book', arguments: {} },
      { signal: new AbortController().signal, progress: () => {} },
    );
    await s.conn.close();
    const [record] = history.store.list() as unknown as { rounds: { inputs: { answer?: { values?: unknown } }[] }[] }[];
    return record.rounds[0].inputs[0].answer?.values;
  }

  it("a workspace's history.keepValues keeps no typed value; the user's does", async () => {
    values = { 'history.keepValues': { workspace: true } };
    assert.equal(await keptValues(), undefined, 'the workspace turned keepValues on: nothing typed is kept');
    values = { 'history.keepValues': { user: true } };
    assert.deepEqual(await keptValues(), { name: 'Ada' });
  });

  it("log.wire: a workspace's value is not read, the user's is", () => {
    values = { 'log.wire': { workspace: true } };
    assert.equal(userSettings.userSetting('log.wire'), undefined);
    values = { 'log.wire': { user: true, workspace: false } };
    assert.equal(userSettings.userSetting('log.wire'), true);
  });

  it("sampling: a workspace's allowedModels and defaultModel are not read; the user's are", () => {
    values = { 'sampling.allowedModels': { workspace: ['gpt-4o'] }, 'sampling.defaultModel': { workspace: 'gpt-4o' } };
    assert.deepEqual(sampler.readSamplingSettings(), { allowedModels: [], autoApprove: {} });
    values = { 'sampling.allowedModels': { user: ['local-only'], workspace: ['gpt-4o'] }, 'sampling.defaultModel': { user: 'local-only' } };
    assert.deepEqual(sampler.readSamplingSettings(), { allowedModels: ['local-only'], autoApprove: {}, defaultModel: 'local-only' });
  });

  it("a workspace's demoServer.enabled false does not hide the demo; the user's does", async () => {
    const sources = require('../../../src/vscode/servers/serverSources') as typeof import('../../../src/vscode/servers/serverSources');
    const context = stub.__context(path.resolve('.'), { name: 'x', publisher: 'y' });
    values = { 'demoServer.enabled': { workspace: false } };
    assert.deepEqual(
      (await sources.readDefinitions(context)).defs.map((d) => d.name),
      ['demo'],
    );
    values = { 'demoServer.enabled': { user: false } };
    assert.deepEqual(
      (await sources.readDefinitions(context)).defs.map((d) => d.name),
      [],
    );
  });
});
