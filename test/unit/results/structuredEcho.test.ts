/** A tool result's structuredContent that only repeats a text block is shown once. */
import assert from 'node:assert/strict';
import { structuredRepeatsText, withoutRepeatedStructured } from '../../../src/core/results/structuredEcho';

describe('structured content that repeats the text', () => {
  it('equal to the parsed JSON of a text block (key order and spacing aside): left out of what is shown', () => {
    const result = { content: [{ type: 'text', text: '{ "b": [1, 2], "a": "x" }' }], structuredContent: { a: 'x', b: [1, 2] } };
    assert.equal(structuredRepeatsText(result), true);
    assert.deepEqual(withoutRepeatedStructured(result), { content: result.content });
    assert.ok('structuredContent' in result, 'the result itself is not changed');
  });

  it('an object holding only the text of text blocks ({"content": text}): left out', () => {
    const result = {
      content: [{ type: 'text', text: 'Allowed directories:\n/tmp' }],
      structuredContent: { content: 'Allowed directories:\n/tmp' },
    };
    assert.equal(structuredRepeatsText(result), true);
    const more = { content: result.content, structuredContent: { content: 'Allowed directories:\n/tmp', count: 1 } };
    assert.equal(structuredRepeatsText(more), false);
  });

  it('different data, text that is no JSON, or no text block: kept', () => {
    const differs = { content: [{ type: 'text', text: '{"a":"y"}' }], structuredContent: { a: 'x' } };
    const prose = { content: [{ type: 'text', text: 'It is cloudy.' }], structuredContent: { a: 'x' } };
    const image = { content: [{ type: 'image', data: '', mimeType: 'image/png' }], structuredContent: {} };
    for (const r of [differs, prose, image]) assert.equal(withoutRepeatedStructured(r), r);
  });
});
