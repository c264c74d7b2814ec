/** Bounds on what a server's requestedSchema can make the host do (review). */
import assert from 'node:assert/strict';
import { checkFormContent } from '../../../src/core/elicitation/formCheck';
import { buildFormModel, MAX_FORM_FIELDS } from '../../../src/core/elicitation/formFields';

const schemaWith = (n: number) => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: 'string', pattern: '^[a-z]+$' }])),
});

describe('requestedSchema size (review)', () => {
  it(`a form of ${MAX_FORM_FIELDS} fields is built; 100 000 properties are refused at once, before any check is compiled`, () => {
    assert.equal(buildFormModel(schemaWith(MAX_FORM_FIELDS)).fields.length, MAX_FORM_FIELDS);
    const started = Date.now();
    assert.throws(() => buildFormModel(schemaWith(100_000)), /100000 properties; a form has at most 200/);
    const errors = checkFormContent(schemaWith(100_000), {});
    assert.match(errors[''] ?? '', /at most 200/);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
  });
});
