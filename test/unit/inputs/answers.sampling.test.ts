/** checkAnswer for sampling: nothing that is not a CreateMessageResult is ever sent (review). */
import assert from 'node:assert/strict';
import { checkAnswer } from '../../../src/core/inputs/answers';
import { HostError } from '../../../src/core/util/errors';

const entry = { key: 's', method: 'sampling/createMessage' as const, params: { messages: [], maxTokens: 10 } };
const answer = (content: unknown, extra: Record<string, unknown> = {}) => ({ role: 'assistant', model: 'm', content, ...extra });

describe('sampling answers are checked against the spec types (review)', () => {
  it('refuses a text block whose text is missing or not a string, an image without data/mimeType, a non-string stopReason', () => {
    for (const bad of [
      answer({ type: 'text' }),
      answer({ type: 'text', text: 5 }),
      answer({ type: 'image' }),
      answer({ type: 'audio', data: 'AA==' }),
      answer({ type: 'text', text: 'x' }, { stopReason: 5 }),
      answer([{ type: 'text', text: 'ok' }, { type: 'text' }]),
    ]) {
      assert.throws(
        () => checkAnswer(entry, bad),
        (e: unknown) =>
          e instanceof HostError &&
          e.kind === 'protocol' &&
          /Answer to sampling\/createMessage "s" is invalid: content|stopReason/.test(e.message),
        JSON.stringify(bad),
      );
    }
  });

  it('accepts a text block, an image, an array of blocks and a tool_use block', () => {
    for (const good of [
      answer({ type: 'text', text: 'x' }, { stopReason: 'endTurn' }),
      answer({ type: 'image', data: 'AA==', mimeType: 'image/png' }),
      answer([
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ]),
      answer({ type: 'tool_use', id: '1', name: 't', input: {} }, { stopReason: 'toolUse' }),
    ]) {
      assert.deepEqual(checkAnswer(entry, good), good);
    }
  });
});
