/** Bounds on what a server's requestedSchema can make the host do (review). */
import assert from 'node:assert/strict';
import { checkFormContent } from '../../../src/core/elicitation/formCheck';
import { buildFormModel, MAX_FORM_FIELDS } from '../../../src/core/elicitation/formFields';

/**
 * A requestedSchema of `n` string properties, each property's schema behind a getter that counts its
 * reads: a refusal that comes before any property is looked at (let alone a check compiled) reads none.
 */
function schemaWith(n: number): { schema: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < n; i++)
    Object.defineProperty(properties, `p${i}`, {
      enumerable: true,
      get: () => {
        reads++;
        return { type: 'string', pattern: '^[a-z]+$' };
      },
    });
  return { schema: { type: 'object', properties }, reads: () => reads };
}

describe('requestedSchema size (review)', () => {
  it(`a form of ${MAX_FORM_FIELDS} fields is built; 100 000 properties are refused at once, before any check is compiled`, () => {
    const fits = schemaWith(MAX_FORM_FIELDS);
    assert.equal(buildFormModel(fits.schema).fields.length, MAX_FORM_FIELDS);
    assert.ok(fits.reads() >= MAX_FORM_FIELDS, 'a form that fits has each of its properties read');

    const huge = schemaWith(100_000);
    assert.throws(() => buildFormModel(huge.schema), /100000 properties; a form has at most 200/);
    const errors = checkFormContent(huge.schema, {});
    assert.match(errors[''] ?? '', /at most 200/);
    assert.equal(huge.reads(), 0, 'no property of the 100 000 was looked at');
  });
});
