/** Parsing an `input_required` result (src/core/inputs/inputRequired.ts): the entries, the exact state, and each fault named. */
import assert from 'node:assert/strict';
import { MAX_INPUT_REQUESTS_PER_ROUND } from '../../../src/core/limits';
import { parseInputRequired } from '../../../src/core/inputs/inputRequired';
import { HostError } from '../../../src/core/util/errors';

const WHERE = 'tools/call book_table';
const fault = (raw: unknown) => {
  try {
    parseInputRequired(raw, WHERE);
  } catch (e) {
    assert.ok(e instanceof HostError && e.kind === 'protocol');
    return e.message.replace(`Malformed input_required result for ${WHERE}: `, '');
  }
  assert.fail('no fault reported');
};

describe('input_required results', () => {
  it('splits inputRequests into entries in the server order, params defaulting to {}', () => {
    const parsed = parseInputRequired(
      {
        resultType: 'input_required',
        inputRequests: { b: { method: 'roots/list' }, a: { method: 'elicitation/create', params: { message: 'x' } } },
        requestState: 'S1',
      },
      WHERE,
    );
    assert.deepEqual(parsed, {
      inputs: [
        { key: 'b', method: 'roots/list', params: {} },
        { key: 'a', method: 'elicitation/create', params: { message: 'x' } },
      ],
      requestState: 'S1',
      hasRequestState: true,
    });
  });

  it('keeps requestState exactly, an empty one included, and says when there is none', () => {
    assert.deepEqual(parseInputRequired({ requestState: '' }, WHERE), { inputs: [], requestState: '', hasRequestState: true });
    assert.deepEqual(parseInputRequired({ requestState: '  {"a":1.0}\n' }, WHERE).requestState, '  {"a":1.0}\n');
    const none = parseInputRequired({ inputRequests: { k: { method: 'roots/list' } } }, WHERE);
    assert.equal(none.hasRequestState, false);
    assert.equal('requestState' in none, false);
  });

  it('names each fault', () => {
    assert.equal(fault([]), 'the result is not an object');
    assert.equal(fault({ resultType: 'input_required' }), 'it carries neither inputRequests nor requestState (at least one is required)');
    assert.equal(fault({ requestState: null }), 'requestState must be a string, got null');
    assert.equal(fault({ inputRequests: ['x'] }), 'inputRequests must be an object keyed by request id, got an array');
    assert.equal(fault({ inputRequests: { k: 'x' } }), 'inputRequests["k"] is not an object');
    assert.equal(fault({ inputRequests: { k: {} } }), 'inputRequests["k"] has no method');
    assert.equal(
      fault({ inputRequests: { k: { method: 'tools/call' } } }),
      'inputRequests["k"] has unknown method "tools/call" (allowed: elicitation/create, sampling/createMessage, roots/list)',
    );
    assert.equal(fault({ inputRequests: { k: { method: 'roots/list', params: [] } } }), 'inputRequests["k"].params is not an object');
    assert.equal(fault({ inputRequests: {} }), 'inputRequests is empty and there is no requestState');
  });

  it('a "__proto__" key is an entry like any other', () => {
    const raw = JSON.parse('{"inputRequests": {"__proto__": {"method": "roots/list"}}}');
    assert.deepEqual(parseInputRequired(raw, WHERE).inputs, [{ key: '__proto__', method: 'roots/list', params: {} }]);
  });

  it(`at most ${MAX_INPUT_REQUESTS_PER_ROUND} inputRequests in one round; more are refused, naming the server and the limit`, () => {
    const round = (n: number) => ({
      inputRequests: Object.fromEntries(Array.from({ length: n }, (_, i) => [`r${i}`, { method: 'roots/list' }])),
    });
    assert.equal(parseInputRequired(round(MAX_INPUT_REQUESTS_PER_ROUND), WHERE, 'many').inputs.length, MAX_INPUT_REQUESTS_PER_ROUND);
    assert.throws(
      () => parseInputRequired(round(100_000), WHERE, 'many'),
      (e: unknown) =>
        e instanceof HostError &&
        e.kind === 'protocol' &&
        e.message === `many asked for 100000 inputs in one round of ${WHERE}; the host answers at most 32 (MAX_INPUT_REQUESTS_PER_ROUND)`,
    );
  });
});
