/** Webview display hygiene: bidi controls removed from server text, keys kept as plain keys. */
import assert from 'node:assert/strict';
import { forDisplay } from '../../../media/src/shared/displayText';

describe('webview display text', () => {
  it('removes bidi override and isolate controls from every string, deep', () => {
    const view = { title: 'report\u202Eexe.live', fields: [{ label: 'a\u2066b\u2069c', help: 'ok' }] };
    assert.deepEqual(forDisplay(view), { title: 'reportexe.live', fields: [{ label: 'abc', help: 'ok' }] });
  });
  it('keeps "__proto__" as an ordinary own key', () => {
    const out = forDisplay(JSON.parse('{"__proto__":{"x":"y\u202E"},"k":1}')) as Record<string, unknown>;
    assert.ok(Object.prototype.hasOwnProperty.call(out, '__proto__'));
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { x: 'y' });
  });
});
