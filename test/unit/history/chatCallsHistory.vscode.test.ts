/**
 * Calls asked from chat are kept in the Call History like any call (issue 43): `@roundtrip`'s and the
 * bridge's calls each get an entry with their rounds and where they were asked (`from`), which the
 * view shows; a failed call from chat is kept too. Runs `src/vscode` under the `vscode` stand-in
 * against an in-memory scripted server.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { HostError } from '../../../src/core/util/errors';
import { isCallRecord } from '../../../src/core/history/historyStore';
import { scriptedConnection } from '../../support/inMemory';
import { scriptedProvider } from '../../support/providers';
import { askName, done } from '../../support/scripted';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

describe('calls from chat in the Call History', () => {
  useVscodeStub();
  let chatCalls: typeof import('../../../src/vscode/chat/chatCalls');
  let workspaceHistory: typeof import('../../../src/vscode/history/workspaceHistory');
  let historyView: typeof import('../../../src/vscode/history/historyView');
  let stub: { __context(p: string, pkg: Record<string, unknown>): import('vscode').ExtensionContext };

  before(() => {
    chatCalls = require('../../../src/vscode/chat/chatCalls') as typeof chatCalls;
    workspaceHistory = require('../../../src/vscode/history/workspaceHistory') as typeof workspaceHistory;
    historyView = require('../../../src/vscode/history/historyView') as typeof historyView;
    stub = require(VSCODE_STUB) as typeof stub;
  });

  const log = { event: () => {}, warn: () => {}, info: () => {}, secrets: { add: () => {} } } as never;
  const panels = { markAskedFrom: () => {}, endFlow: () => {} };
  const entry = { name: 'scripted' } as ServerEntry;

  function setUp(script: Parameters<typeof scriptedConnection>[0]) {
    const provider = scriptedProvider({ who: { action: 'accept', content: { name: 'Ada' } } });
    const s = scriptedConnection(script, { provider });
    const registry = { connection: async () => s.conn, touch: () => {} } as never;
    const history = new workspaceHistory.WorkspaceHistory(stub.__context(path.resolve('.'), { name: 'x', publisher: 'y' }));
    return { s, history, calls: new chatCalls.ChatCalls(registry, log, panels, provider, history) };
  }

  it("@roundtrip's call is kept with its round and from 'chat', and the view says so", async () => {
    const { s, history, calls } = setUp((_m, n) => (n === 1 ? askName('who', 'S1') : done('booked')));
    const options = { signal: new AbortController().signal, progress: () => {} };
    const result = await calls.callTool(entry, { name: 'book', arguments: { date: '2026-12-01', apiKey: 'sk-1234' } }, options);
    assert.deepEqual(result.content, [{ type: 'text', text: 'booked' }]);
    const [record] = history.store.list();
    assert.ok(record, 'the call is in the history');
    assert.equal(isCallRecord(record), true);
    assert.equal(record.from, 'chat');
    assert.equal(record.target, 'book');
    assert.equal(record.status, 'complete');
    assert.equal(record.rounds.length, 1);
    assert.equal(record.rounds[0].inputs[0].key, 'who');
    assert.deepEqual(record.arguments, { date: '2026-12-01' }, 'a secret argument (by its key) is not kept');
    assert.deepEqual(record.omittedArguments, ['apiKey']);
    assert.match(historyView.callDescription(record), /from @roundtrip$/);
    await s.conn.close();
  });

  it("the bridge's call is kept with from 'bridge'; a failed call is kept too", async () => {
    const { s, history, calls } = setUp(() => ({ error: { code: -32000, message: 'no seats' } }));
    const options = { signal: new AbortController().signal, progress: () => {}, from: 'bridge' as const };
    await assert.rejects(calls.callTool(entry, { name: 'book', arguments: {} }, options), HostError);
    const [record] = history.store.list();
    assert.equal(record?.from, 'bridge');
    assert.equal(record.status, 'error');
    assert.match(record.error ?? '', /no seats/);
    assert.match(historyView.callDescription(record), /from chat \(bridge\)$/);
    await s.conn.close();
  });

  it('a stored entry with an unknown origin is not read as a call', () => {
    const record = {
      id: 'h1',
      server: 's',
      method: 'tools/call',
      target: 't',
      startedAt: 1,
      totalMs: 1,
      waitingMs: 0,
      status: 'complete',
      rounds: [],
    };
    assert.equal(isCallRecord({ ...record, from: 'chat' }), true);
    assert.equal(isCallRecord({ ...record, from: 'elsewhere' }), false);
  });
});
