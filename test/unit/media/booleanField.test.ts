/**
 * A boolean field of the round panel and the arguments form (media/src/roundPanel/fields/boolean.ts),
 * under Node: without a value to start from it starts unset and can go back to unset, so Submit
 * without touching it sends nothing for it (the case of 1password-mcp's `password_generate`).
 */
import assert from 'node:assert/strict';
import { booleanControl, booleanRadios, radioValue } from '../../../media/src/roundPanel/fields/boolean';
import { buildToolArguments } from '../../../src/core/arguments/toolArguments';
import { prepareToolSchema } from '../../../src/core/arguments/toolSchema';
import { buildElicitResult } from '../../../src/core/elicitation/formCheck';
import { buildFormModel } from '../../../src/core/elicitation/formFields';

/** password_generate's input schema (three optional booleans without default). */
const PASSWORD_GENERATE = {
  type: 'object',
  properties: {
    length: { type: 'integer', minimum: 8, maximum: 128 },
    includeNumbers: { type: 'boolean' },
    includeSymbols: { type: 'boolean' },
    includeUppercase: { type: 'boolean' },
  },
};

describe('round panel fields: booleans', () => {
  it('optional without default: Yes / No / Not set, starting at Not set; required without default: Yes / No; with a value: a checkbox', () => {
    assert.equal(booleanControl({ required: false, initial: undefined }), 'yes-no-unset');
    assert.equal(booleanControl({ required: true, initial: undefined }), 'yes-no');
    assert.equal(booleanControl({ required: false, initial: false }), 'checkbox');
    assert.deepEqual(
      booleanRadios('yes-no-unset').map((r) => r.text),
      ['Yes', 'No', 'Not set'],
    );
    assert.deepEqual(
      booleanRadios('yes-no').map((r) => r.text),
      ['Yes', 'No'],
    );
  });

  it('the radio picked reads as true, false, or null (not set: left out)', () => {
    const [yes, no, unset] = booleanRadios('yes-no-unset');
    assert.equal(radioValue(yes.value), true);
    assert.equal(radioValue(no.value), false);
    assert.equal(radioValue(unset.value), null);
    assert.equal(radioValue(undefined), null);
  });

  it("the arguments form: Submit without touching password_generate's booleans sends none of them, not false", () => {
    const prepared = prepareToolSchema(PASSWORD_GENERATE);
    assert.ok(prepared.ok);
    const booleans = prepared.fields.filter((f) => f.kind === 'boolean');
    assert.equal(booleans.length, 3);
    for (const f of booleans) assert.equal(booleanControl(f as never), 'yes-no-unset', f.key);
    // What the untouched form reads: an empty number and each boolean's "Not set".
    const untouched = Object.fromEntries(booleans.map((f) => [f.key, radioValue('')]));
    assert.deepEqual(buildToolArguments(prepared, { length: '', ...untouched }), { ok: true, args: {} });
    // Set one back and forth: only that one is sent.
    assert.deepEqual(buildToolArguments(prepared, { ...untouched, includeSymbols: radioValue('false') }), {
      ok: true,
      args: { includeSymbols: false },
    });
  });

  it('an elicitation form: an optional boolean left at Not set is left out of the content', () => {
    const model = buildFormModel({ type: 'object', properties: { subscribe: { type: 'boolean' }, name: { type: 'string' } } });
    assert.equal(booleanControl(model.fields[0]), 'yes-no-unset');
    assert.deepEqual(buildElicitResult(model, 'accept', { subscribe: radioValue(''), name: 'Ada' }), {
      ok: true,
      result: { action: 'accept', content: { name: 'Ada' } },
    });
  });
});
