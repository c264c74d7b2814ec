/** The host's check of the arguments form's suggestion requests (src/vscode/roundPanel/parseMessage.ts, `complete`). */
import assert from 'node:assert/strict';
import { parseWebviewMessage } from '../../../src/vscode/roundPanel/parseMessage';
import { MAX_COMPLETE_CONTEXT, MAX_COMPLETE_TEXT } from '../../../src/vscode/roundPanel/protocol';

describe('webview message check: complete', () => {
  const ok = { type: 'complete', key: 'department', value: 'Eng', context: { name: 'Ada' }, seq: 3 };

  it('passes a key, a value, the other fields as strings and a seq', () => {
    assert.deepEqual(parseWebviewMessage(ok), { ok: true, message: ok });
  });

  it('refuses anything else: extra keys, wrong types, a negative or fractional seq', () => {
    for (const bad of [
      { ...ok, extra: 1 },
      { ...ok, key: '' },
      { ...ok, key: 5 },
      { ...ok, value: null },
      { ...ok, seq: -1 },
      { ...ok, seq: 1.5 },
      { ...ok, context: [] },
      { ...ok, context: { name: 7 } },
      { type: 'complete', key: 'a', value: '', seq: 1 },
    ])
      assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad));
  });

  it('is bounded: the value, each context value and the number of context entries', () => {
    assert.equal(parseWebviewMessage({ ...ok, value: 'x'.repeat(MAX_COMPLETE_TEXT) }).ok, true);
    assert.equal(parseWebviewMessage({ ...ok, value: 'x'.repeat(MAX_COMPLETE_TEXT + 1) }).ok, false);
    assert.equal(parseWebviewMessage({ ...ok, context: { a: 'x'.repeat(MAX_COMPLETE_TEXT + 1) } }).ok, false);
    const wide = Object.fromEntries(Array.from({ length: MAX_COMPLETE_CONTEXT + 1 }, (_, i) => [`k${i}`, 'v']));
    assert.equal(parseWebviewMessage({ ...ok, context: wide }).ok, false);
  });
});
