/** The model's reply as a CreateMessageResult: maxTokens, stop sequences, tool_use (src/core/sampling/lmCompletion.ts). */
import assert from 'node:assert/strict';
import { HostError } from '../../../src/core/util/errors';
import {
  collectCompletion,
  completionResult,
  findStopSequence,
  truncateToTokens,
  type LmResponsePart,
} from '../../../src/core/sampling/lmCompletion';

const words = async (t: string) => (t.match(/\S+/g) ?? []).length;
const isHostError = (kind: string, re: RegExp) => (e: unknown) => e instanceof HostError && e.kind === kind && re.test(e.message);

/** A stream of parts that counts how many were pulled. */
function streamOf(parts: LmResponsePart[]): AsyncIterable<LmResponsePart> & { pulled: number } {
  const s = {
    pulled: 0,
    async *[Symbol.asyncIterator]() {
      for (const p of parts) {
        s.pulled++;
        yield p;
      }
    },
  };
  return s;
}
const text = (t: string): LmResponsePart => ({ kind: 'text', text: t });

describe('sampling reply: stop reasons, maxTokens, stop sequences, tool_use', () => {
  it('a normal end is endTurn with the whole text', async () => {
    const c = await collectCompletion(streamOf([text('Bon'), text('jour')]), { maxTokens: 64, countTokens: words });
    assert.deepEqual(c, { text: 'Bonjour', toolCalls: [], stopReason: 'endTurn' });
    assert.deepEqual(completionResult(c, 'gemini-2.5-flash'), {
      role: 'assistant',
      content: { type: 'text', text: 'Bonjour' },
      model: 'gemini-2.5-flash',
      stopReason: 'endTurn',
    });
  });

  it('maxTokens: the reply is cut to the limit (counted by the model tokenizer) and reading stops', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) =>
      text(
        `w${i * 10 + 1} w${i * 10 + 2} w${i * 10 + 3} w${i * 10 + 4} w${i * 10 + 5} w${i * 10 + 6} w${i * 10 + 7} w${i * 10 + 8} w${i * 10 + 9} w${i * 10 + 10} `,
      ),
    );
    const s = streamOf(chunks);
    const c = await collectCompletion(s, { maxTokens: 64, countTokens: words });
    assert.equal(c.stopReason, 'maxTokens');
    assert.equal(await words(c.text), 64);
    assert.ok(c.text.startsWith('w1 w2 '));
    assert.match(c.text, /w64 ?$/);
    assert.equal(s.pulled, 7); // 70 words read, not 400
  });

  it('a stop sequence cuts before its first occurrence, even across chunks', async () => {
    const s = streamOf([text('one two ST'), text('OP three'), text(' four')]);
    const c = await collectCompletion(s, { maxTokens: 64, stopSequences: ['STOP'], countTokens: words });
    assert.deepEqual({ text: c.text, stopReason: c.stopReason }, { text: 'one two ', stopReason: 'stopSequence' });
    assert.equal(s.pulled, 2);
    assert.equal(findStopSequence('a;b.c', ['.', ';']), 1);
    assert.equal(findStopSequence('abc', ['x', '']), -1);
  });

  it('when the text before a stop sequence is already too long, maxTokens wins', async () => {
    const c = await collectCompletion(streamOf([text('a b c d e END f')]), { maxTokens: 3, stopSequences: ['END'], countTokens: words });
    assert.equal(c.stopReason, 'maxTokens');
    assert.equal(await words(c.text), 3);
  });

  it('tool calls: stopReason toolUse and tool_use blocks (text first when any)', async () => {
    const c = await collectCompletion(
      streamOf([
        text('Calling get_weather.'),
        { kind: 'toolCall', callId: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
        { kind: 'other' },
      ]),
      { maxTokens: 64, countTokens: words },
    );
    assert.equal(c.stopReason, 'toolUse');
    assert.deepEqual(completionResult(c, 'm').content, [
      { type: 'text', text: 'Calling get_weather.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    const only = completionResult({ text: '', toolCalls: [{ callId: 'c', name: 'n', input: {} }], stopReason: 'toolUse' }, 'm');
    assert.deepEqual(only.content, [{ type: 'tool_use', id: 'c', name: 'n', input: {} }]);
    assert.equal(only.stopReason, 'toolUse');
  });

  it('truncation never splits a code point', async () => {
    const chars = async (t: string) => Array.from(t).length;
    assert.equal(await truncateToTokens('ab😀cd', 3, chars), 'ab😀');
  });

  it('cancel: a silent stream is abandoned at once with HostError cancelled, and told to stop', async () => {
    let returned = false;
    const silent: AsyncIterable<LmResponsePart> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<LmResponsePart>>(() => {}),
        return: async () => {
          returned = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const ac = new AbortController();
    const p = collectCompletion(silent, { maxTokens: 64, countTokens: words, signal: ac.signal });
    ac.abort();
    await assert.rejects(p, isHostError('cancelled', /cancelled/));
    assert.ok(returned);
  });
});
