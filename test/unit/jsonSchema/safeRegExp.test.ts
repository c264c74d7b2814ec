/**
 * A server's `pattern` cannot freeze the host (review): the host's JSON Schema checks run patterns
 * with RE2 (linear time), for elicitation forms and tool arguments alike.
 */
import assert from 'node:assert/strict';
import { checkFormContent } from '../../../src/core/elicitation/formCheck';
import { validateToolArguments } from '../../../src/core/arguments/toolArguments';

const EVIL = { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } }, required: ['s'] };
const timed = <T>(f: () => T): [T, number] => {
  const started = Date.now();
  const r = f();
  return [r, Date.now() - started];
};

describe('pattern checks run in linear time (review)', () => {
  // 40 a's and a b: a backtracking engine tries 2^40 ways (hours); the bounds are far from it, not tight.
  it('elicitation: "^(a+)+$" against 40 a\'s and a b answers at once (a backtracking engine takes hours), then against 100 000', () => {
    const [errors, ms] = timed(() => checkFormContent(EVIL, { s: 'a'.repeat(40) + 'b' }));
    assert.ok(ms < 10_000, `took ${ms} ms`);
    assert.deepEqual(errors, { s: 'Must match the pattern ^(a+)+$' });
    const [long, ms2] = timed(() => checkFormContent(EVIL, { s: 'a'.repeat(100_000) + 'b' }));
    assert.ok(ms2 < 10_000, `took ${ms2} ms`);
    assert.deepEqual(long, { s: 'Must match the pattern ^(a+)+$' });
    assert.deepEqual(checkFormContent(EVIL, { s: 'aaaa' }), {});
  });

  it('tool arguments: the same pattern, the same bound', () => {
    const [check, ms] = timed(() => validateToolArguments(EVIL, { s: 'a'.repeat(40) + 'b' }));
    assert.ok(ms < 10_000, `took ${ms} ms`);
    assert.equal(check.ok, false);
    assert.deepEqual(validateToolArguments(EVIL, { s: 'aaaa' }), { ok: true });
  });

  it('each pattern of a schema is its own check (two patterns, two verdicts)', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', pattern: '^[A-Z]+$' }, b: { type: 'string', pattern: '^[0-9]+$' } },
    };
    assert.deepEqual(checkFormContent(schema, { a: 'ABC', b: '123' }), {});
    assert.deepEqual(Object.keys(checkFormContent(schema, { a: '123', b: 'ABC' })), ['a', 'b']);
    assert.equal(validateToolArguments(schema, { a: 'ABC', b: '123' }).ok, true);
    assert.equal(validateToolArguments(schema, { a: '123', b: '123' }).ok, false);
  });

  it('a pattern RE2 cannot express (lookahead) is left to the server: the host does not block the answer', () => {
    const schema = { type: 'object', properties: { p: { type: 'string', pattern: '^(?=.*[0-9]).{8,}$' } } };
    assert.deepEqual(checkFormContent(schema, { p: 'no digits here' }), {});
  });
});
