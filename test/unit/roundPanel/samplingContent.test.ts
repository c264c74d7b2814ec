/** The sampling review card's content helpers (src/vscode/roundPanel/inputs/samplingContent.ts). */
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { applyCompletionEdits, applySamplingEdits, blockView, MAX_BLOCK_JSON } from '../../../src/vscode/roundPanel/inputs/samplingContent';

describe('round panel: sampling content helpers', () => {
  it('blockView keeps text, image and audio as data and shows anything else as JSON', () => {
    assert.deepEqual(blockView({ type: 'text', text: 'hi' }), { kind: 'text', text: 'hi' });
    assert.deepEqual(blockView({ type: 'audio', data: 'AAA=', mimeType: 'audio/wav' }), {
      kind: 'audio',
      mimeType: 'audio/wav',
      data: 'AAA=',
    });
    const other = blockView({ type: 'tool_use', id: 't1', name: 'f', input: {} });
    assert.equal(other.kind, 'other');
    assert.equal(other.kind === 'other' && other.type, 'tool_use');
    assert.match(other.kind === 'other' ? other.json : '', /"name": "f"/);
  });

  it("blockView cuts a large block's JSON as every shown server text is cut, counting what it left out", () => {
    const big = blockView({ type: 'resource', data: 'x'.repeat(3 * MAX_BLOCK_JSON) });
    const json = big.kind === 'other' ? big.json : '';
    const whole = JSON.stringify({ type: 'resource', data: 'x'.repeat(3 * MAX_BLOCK_JSON) }, null, 2);
    assert.equal(json, `${whole.slice(0, MAX_BLOCK_JSON)} … (${whole.length - MAX_BLOCK_JSON} more characters)`);
  });

  it('applySamplingEdits leaves an absent system prompt absent when left empty, and keeps the shape of content', () => {
    const params = {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }],
      maxTokens: 5,
    } as unknown as CreateMessageRequestParams;
    const { params: out, rejected } = applySamplingEdits(params, '', [
      { message: 0, block: 0, text: 'b' },
      { message: 3, block: 0, text: 'x' },
    ]);
    assert.equal('systemPrompt' in out, false);
    assert.equal(rejected, 1);
    assert.deepEqual(out.messages[0].content, [{ type: 'text', text: 'b' }]);
    assert.deepEqual((params.messages[0].content as unknown[])[0], { type: 'text', text: 'a' }, 'the original is not changed');
  });

  it('applyCompletionEdits replaces text blocks in order and keeps the others', () => {
    const r = {
      role: 'assistant',
      model: 'm',
      content: [
        { type: 'text', text: 'a' },
        { type: 'tool_use', id: '1', name: 'f', input: {} },
        { type: 'text', text: 'b' },
      ],
    } as unknown as CreateMessageResult;
    assert.deepEqual(applyCompletionEdits(r, ['A', 'B']).content, [
      { type: 'text', text: 'A' },
      { type: 'tool_use', id: '1', name: 'f', input: {} },
      { type: 'text', text: 'B' },
    ]);
  });
});
