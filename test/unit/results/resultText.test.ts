/** Field cases F12 (resource_link, unknown blocks) and F13 (structuredContent) in text rendering. */
import assert from 'node:assert/strict';
import { resultToText, toolResultBlocks } from '../../../src/core/results/resultText';

describe('result rendering', () => {
  it('F12: links shown with title or name and URI, unknown block a placeholder, nothing lost', () => {
    const result = {
      resultType: 'complete',
      isError: false,
      content: [
        { type: 'text', text: 'Render finished.' },
        {
          type: 'resource_link',
          uri: 'https://cdn.example.test/out/clip-7.mp4',
          name: 'clip-7.mp4',
          title: 'Rendered clip',
          mimeType: 'video/mp4',
          size: 1048576,
        },
        { type: 'resource_link', uri: 'file:///home/dev/app/src/main.rs', name: 'main.rs' },
        { type: 'mystery_block', foo: 1 },
      ],
    };
    const text = resultToText('tools/call', result);
    assert.deepEqual(text.split('\n'), [
      'Render finished.',
      '[link] Rendered clip <https://cdn.example.test/out/clip-7.mp4> (video/mp4)',
      '[link] main.rs <file:///home/dev/app/src/main.rs>',
      '[unsupported content: mystery_block]',
    ]);
  });
  it('F13: structuredContent shown when content is empty (object or array), beside content otherwise', () => {
    const a = resultToText('tools/call', { content: [], structuredContent: { status: 'available', slots: 3 } });
    assert.deepEqual(JSON.parse(a), { status: 'available', slots: 3 });
    const c = resultToText('tools/call', { content: [], structuredContent: [{ id: 'r1' }, { id: 'r2' }] });
    assert.deepEqual(JSON.parse(c), [{ id: 'r1' }, { id: 'r2' }]);
    const d = toolResultBlocks({ content: [{ type: 'text', text: '3 slots free' }], structuredContent: { slots: 3 } });
    assert.deepEqual(
      d.map((b) => b.kind),
      ['text', 'structured'],
    );
  });
  it('an error result says so; an empty result says so', () => {
    assert.match(
      resultToText('tools/call', { isError: true, content: [{ type: 'text', text: 'boom' }] }),
      /^\[tool reported an error\]\nboom$/,
    );
    assert.equal(resultToText('tools/call', { content: [] }), '(empty result)');
  });
  it('prompt messages and resource contents', () => {
    assert.equal(
      resultToText('prompts/get', { messages: [{ role: 'user', content: { type: 'text', text: 'Review this' } }] }),
      '## user\n\nReview this',
    );
    assert.equal(resultToText('resources/read', { contents: [{ uri: 'demo://x', text: 'secret' }] }), 'secret');
  });
});
