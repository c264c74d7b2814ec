/**
 * What a server's patterns may cost the host to compile (src/core/jsonSchema/safeRegExp.ts): each
 * pattern's program estimated before it is compiled, one schema's patterns within one budget, equal
 * patterns compiled once. A form of 200 fields whose pattern was `[\s\S]{1000}` written a thousand
 * times held the extension host for minutes on Submit.
 */
import assert from 'node:assert/strict';
import { RE2JS } from 're2js';
import { MAX_PATTERN_PROGRAM, PATTERN_BUDGET_PER_SCHEMA, patternCost, safeRegExp } from '../../../src/core/jsonSchema/safeRegExp';
import { compileOnce, newAjv } from '../../../src/core/jsonSchema/validator';

describe('pattern compilation, bounded', () => {
  it('the estimate is at least the program RE2 compiles to, and of its order', () => {
    for (const p of [
      '^[a-z]+$',
      'a{1000}',
      '[\\s\\S]{1000}'.repeat(3),
      '(ab|cd){10,20}',
      '^(?:[0-9]{3}-){2}[0-9]{4}$',
      '(a+)+b',
      'x{5,}',
      '\\d{2}\\.\\d{2}',
    ]) {
      const size = RE2JS.compile(p).programSize();
      const cost = patternCost(p);
      assert.ok(cost >= size * 0.5 && cost <= size * 4 + 10, `${p}: estimate ${cost}, program ${size}`);
    }
  });

  it('a pattern past its bound is left to the server (accepts), never compiled', () => {
    const huge = '[\\s\\S]{1000}'.repeat(1000);
    assert.ok(patternCost(huge) > MAX_PATTERN_PROGRAM);
    const re = safeRegExp(huge);
    assert.equal(re.toString(), `/${huge}/re2-unchecked`);
    assert.equal(re.test(''), true);
  });

  it('200 fields with costly patterns: the schema compiles within its budget; the first patterns are checked, the rest left to the server', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`f${i}`, { type: 'string', pattern: `^${'[a-z]{1000}'.repeat(4)}x${i}$` }]),
    );
    const validate = compileOnce(newAjv('2020-12'), { type: 'object', properties });
    const each = patternCost(properties.f0.pattern);
    const checked = Math.floor(PATTERN_BUDGET_PER_SCHEMA / each);
    assert.ok(checked >= 1 && checked < 200);
    // A value that breaks every pattern: only the checked ones say so.
    assert.equal(validate(Object.fromEntries(Object.keys(properties).map((k) => [k, 'no']))), false);
    assert.equal(validate.errors?.filter((e) => e.keyword === 'pattern').length, checked);
  });

  it('an equal pattern in another schema is compiled once and still checked', () => {
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } } };
    const one = compileOnce(newAjv('2020-12'), schema);
    const two = compileOnce(newAjv('2020-12'), structuredClone(schema));
    assert.equal(one({ code: 'ABC' }), true);
    assert.equal(two({ code: 'abc' }), false);
  });
});
