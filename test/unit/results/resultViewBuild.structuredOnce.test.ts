/** The result view shows a tool's structuredContent once when it only repeats a text block (the spec's mirror). */
import assert from 'node:assert/strict';
import { buildResultView } from '../../../src/core/results/resultViewBuild';

const view = (result: Record<string, unknown>, outputSchema?: Record<string, unknown>) =>
  buildResultView({ server: 's', method: 'tools/call', target: 't', result, ...(outputSchema ? { outputSchema } : {}) }).blocks;

describe('result view: structuredContent shown once', () => {
  it('a text block that serializes it: the text only, the structured block says so (no second tree)', () => {
    const data = { temperature: 22.5, conditions: 'Partly cloudy' };
    const blocks = view({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data });
    assert.deepEqual(
      blocks.map((b) => b.kind),
      ['text', 'structured'],
    );
    assert.deepEqual(blocks[1], { kind: 'structured', repeatsText: true });
  });

  it("the outputSchema check stays; structuredContent that is not the text's is shown as a tree", () => {
    const data = { n: 1 };
    const checked = view(
      { content: [{ type: 'text', text: '{"n": 1}' }], structuredContent: data },
      { type: 'object', properties: { n: { type: 'number' } } },
    );
    assert.deepEqual(checked[1], { kind: 'structured', repeatsText: true, check: { state: 'valid' } });
    const other = view({ content: [{ type: 'text', text: 'one' }], structuredContent: data });
    assert.deepEqual(other[1], { kind: 'structured', json: data });
  });
});
