/** Checks on JSON values shared by the host (src/core/util/json.ts), with server-chosen keys. */
import assert from 'node:assert/strict';
import { isPlainObject, ownValue, put } from '../../../src/core/util/json';

describe('JSON values', () => {
  it('isPlainObject: objects only, not null or arrays', () => {
    assert.deepEqual([{}, Object.create(null), [], null, 'x', 1, undefined].map(isPlainObject), [
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('ownValue reads own properties only: an inherited "constructor" or "toString" is not a value', () => {
    const o = { a: 1 } as Record<string, unknown>;
    assert.equal(ownValue(o, 'a'), 1);
    assert.equal(ownValue(o, 'constructor'), undefined);
    assert.equal(ownValue(o, 'toString'), undefined);
    assert.equal(ownValue(undefined, 'a'), undefined);
  });

  it('put defines "__proto__" as a plain key instead of setting the prototype', () => {
    const o: Record<string, unknown> = {};
    put(o, '__proto__', { polluted: true });
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.deepEqual(Object.keys(o), ['__proto__']);
    assert.equal(JSON.stringify(o), '{"__proto__":{"polluted":true}}');
  });
});
