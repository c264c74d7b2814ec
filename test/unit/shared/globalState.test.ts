/** The global state as this window wrote it (src/vscode/shared/globalState.ts), against a memento that echoes as VS Code's does. */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { GlobalState } from '../../../src/vscode/shared/globalState';

/**
 * A memento that behaves as VS Code 1.139's extension memento: `update` changes the value in memory
 * and joins the next send; `send()` stores a copy of the whole value; `echo()` brings the oldest send
 * back, which replaces the whole value in memory and resolves the updates it carried.
 */
function echoingMemento() {
  let value: Record<string, unknown> = {};
  let stored: Record<string, unknown> = {};
  let waiting: (() => void)[] = [];
  const sent: { copy: Record<string, unknown>; done: (() => void)[] }[] = [];
  const memento: vscode.Memento = {
    keys: () => Object.keys(value),
    get: <T>(key: string, fallback?: T) => (value[key] === undefined ? fallback : (value[key] as T)),
    update: (key: string, v: unknown) => {
      value[key] = v === undefined ? undefined : JSON.parse(JSON.stringify(v));
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
  return {
    memento,
    stored: () => stored,
    send() {
      stored = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
      sent.push({ copy: stored, done: waiting });
      waiting = [];
    },
    echo() {
      const s = sent.shift()!;
      value = JSON.parse(JSON.stringify(s.copy)) as Record<string, unknown>;
      for (const done of s.done) done();
    },
    get pending() {
      return waiting.length;
    },
  };
}

/** Let the promise callbacks run (no time passes). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('GlobalState', () => {
  it('a write made while an earlier one is on its way is read back, and stored again when the echo undid it', async () => {
    const m = echoingMemento();
    const state = new GlobalState(m.memento);
    const first = state.update('walkthroughShown', true);
    m.send();
    const second = state.update('eras', { a: { era: 'modern', legacyHandshake: false } });
    m.echo(); // the echo of the first send, which does not have the second write
    assert.equal(m.memento.get('eras'), undefined, 'the bare memento has lost the second write');
    assert.deepEqual(state.get('eras'), { a: { era: 'modern', legacyHandshake: false } }, 'read as this window wrote it');
    await first;
    m.send(); // the second write's send carries the stale value
    assert.equal(m.stored().eras, undefined);
    m.echo();
    await settle();
    assert.equal(m.pending, 1, 'written again, since what came back lacked it');
    m.send();
    m.echo();
    await second;
    assert.deepEqual(m.stored().eras, { a: { era: 'modern', legacyHandshake: false } }, 'stored at last');
    assert.equal(m.stored().walkthroughShown, true);
  });

  it('reads what it did not write from the memento; removes with undefined; a caller changing its object later changes nothing', async () => {
    const m = echoingMemento();
    const before = m.memento.update('other', 1);
    m.send();
    m.echo();
    await before;
    const state = new GlobalState(m.memento);
    assert.equal(state.get('other'), 1);
    assert.equal(state.get('missing', 'fallback'), 'fallback');
    const rules = { tools: ['a'] };
    const written = state.update('rules', rules);
    rules.tools.push('b');
    assert.deepEqual(state.get('rules'), { tools: ['a'] });
    m.send();
    m.echo();
    await written;
    const removed = state.update('other', undefined);
    assert.equal(state.get('other', 'gone'), 'gone');
    assert.deepEqual([...state.keys()].sort(), ['rules']);
    m.send();
    m.echo();
    await removed;
    assert.equal(m.stored().other, undefined);
  });
});
