// HostError is matched with `instanceof` across the extension's bundles: a lazily loaded bundle (the
// chat bridge) has its own copy of the class and is handed errors made by the main bundle's copy.
import assert from 'node:assert/strict';
import { HostError, isHostError } from '../../../src/core/util/errors';
import { SignInNeeded } from '../../../src/core/oauth/challenge';

/** A second, independent copy of the errors module, as a second bundle has. */
function secondCopy(): typeof import('../../../src/core/util/errors') {
  const id = require.resolve('../../../src/core/util/errors');
  const saved = require.cache[id];
  delete require.cache[id];
  try {
    return require(id) as typeof import('../../../src/core/util/errors');
  } finally {
    require.cache[id] = saved;
  }
}

describe('HostError across bundles', () => {
  it('an error of one copy of the class is an instance of the other copy, with its kind and code', () => {
    const other = secondCopy();
    assert.notEqual(other.HostError, HostError, 'the test needs two copies of the class');
    const fromOther = new other.HostError('server', 'no such tool', -32602);
    assert.ok(fromOther instanceof HostError);
    assert.ok(isHostError(fromOther, 'server'));
    assert.ok(new HostError('cancelled', 'stop') instanceof other.HostError);
    assert.ok(other.isHostError(new HostError('cancelled', 'stop'), 'cancelled'));
  });

  it('other errors are not, and a subclass keeps its own strict check', () => {
    assert.ok(!(new Error('x') instanceof HostError));
    assert.ok(!({ kind: 'server', message: 'x' } instanceof HostError));
    assert.ok(!((null as unknown as object) instanceof HostError));
    const signIn = Object.create(SignInNeeded.prototype) as SignInNeeded;
    assert.ok(signIn instanceof HostError);
    assert.ok(!(new HostError('auth', 'x') instanceof SignInNeeded));
  });
});
