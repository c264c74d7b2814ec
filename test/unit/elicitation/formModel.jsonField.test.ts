/** The JSON-text field rule shared by the webview and the extension (coerceJsonField, src/core/elicitation/formModel.ts). */
import assert from 'node:assert/strict';
import { coerceJsonField } from '../../../src/core/elicitation/formModel';
import { coerceToolArguments } from '../../../src/core/arguments/toolArguments';
import { prepareToolSchema, type PreparedToolSchemaOk } from '../../../src/core/arguments/toolSchema';

describe('JSON-text fields', () => {
  it('empty text is omitted, or Required when the field is required', () => {
    assert.deepEqual(coerceJsonField('  ', false, false), {});
    assert.deepEqual(coerceJsonField('', true, false), { error: 'Required' });
    assert.deepEqual(coerceJsonField(undefined, true, false), { error: 'Required' });
  });

  it('text must parse; the whole-arguments field must hold an object', () => {
    assert.deepEqual(coerceJsonField('[1, 2]', true, false), { value: [1, 2] });
    assert.match(coerceJsonField('{"a":', true, false).error ?? '', /^Not valid JSON: /);
    assert.deepEqual(coerceJsonField('[1]', true, true), { error: 'Must be a JSON object' });
    assert.deepEqual(coerceJsonField('{"a": 1}', true, true), { value: { a: 1 } });
  });

  it('a value that is not text counts as already parsed (arguments given by a script)', () => {
    assert.deepEqual(coerceJsonField({ from: '2026-11-01' }, true, false), { value: { from: '2026-11-01' } });
    assert.deepEqual(coerceJsonField(null, false, false), { value: null });
  });

  it('the tool arguments use the same rule: the same messages, the whole object spread into the arguments', () => {
    const whole = prepareToolSchema({ type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] }) as PreparedToolSchemaOk;
    assert.equal(whole.wholeArguments, true);
    assert.deepEqual(coerceToolArguments(whole, { '': '[1]' }).errors, { '': 'Must be a JSON object' });
    assert.deepEqual(coerceToolArguments(whole, { '': '{"a": 1, "b": 2}' }).args, { a: 1, b: 2 });
    const nested = prepareToolSchema({
      type: 'object',
      properties: { w: { type: 'object', properties: { x: { type: 'string' } } } },
      required: ['w'],
    }) as PreparedToolSchemaOk;
    assert.deepEqual(coerceToolArguments(nested, { w: '' }).errors, { w: 'Required' });
    assert.match(coerceToolArguments(nested, { w: '{' }).errors.w, /^Not valid JSON: /);
  });
});
