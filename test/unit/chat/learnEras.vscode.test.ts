/**
 * Chat waits for the eras it needs within bounds: `ChatExposure.learnEras` returns at its time limit or
 * when its signal is aborted, and a server whose probe has not ended stays out of chat (still offered to
 * VS Code, to be decided when it is started). Creating the exposure and changing the server list probe
 * nothing.
 */
import assert from 'node:assert/strict';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';

describe('chat exposure: the wait for eras is bounded', function () {
  // Loading the modules under test takes seconds on a loaded machine; the waits themselves are short.
  this.timeout(30_000);
  useVscodeStub();

  function exposure() {
    const vscode = require(VSCODE_STUB) as typeof import('vscode');
    const { ChatExposure } = require('../../../src/vscode/chat/chatExposure') as typeof import('../../../src/vscode/chat/chatExposure');
    const changed = new vscode.EventEmitter<void>();
    const entries = [{ name: 'slow', def: { type: 'stdio', command: 'never-run' } } as unknown as ServerEntry];
    let specs = 0;
    // A server whose start never ends: its probe is still running when the wait ends.
    const registry = { list: () => entries, onDidChange: changed.event, spec: () => (specs++, new Promise(() => {})) };
    const memento = { get: () => undefined, update: async () => {} };
    const x = new ChatExposure(registry as never, memento as never, { info: () => {}, warn: () => {} } as never, () => undefined);
    return { x, entries, changed, specs: () => specs };
  }

  it('returns at its time limit; the server is still undecided, offered but not in chat', async () => {
    const { x, entries, changed, specs } = exposure();
    changed.fire();
    assert.equal(specs(), 0, 'a server-list change probes nothing');
    assert.deepEqual(
      x.pending().map((e) => e.name),
      ['slow'],
    );
    await x.learnEras(entries, undefined, 50);
    assert.equal(specs(), 1, 'the probe started when asked');
    assert.deepEqual(x.exposed(), []);
    assert.deepEqual(
      x.offered().map((e) => e.name),
      ['slow'],
    );
    x.dispose();
  });

  it('returns when its signal is aborted, long before its time limit', async () => {
    const { x, entries } = exposure();
    const abort = new AbortController();
    const waited = x.learnEras(entries, abort.signal, 10 * 60_000);
    abort.abort();
    await waited;
    assert.deepEqual(x.exposed(), []);
    x.dispose();
  });
});
