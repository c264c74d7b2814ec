/**
 * The terminal's sampling review against a hostile request (a 5 MB system prompt, 40 000 tools,
 * 9 000 line breaks in a message): cut like the other prompts, blank-line runs collapsed, the host's
 * header repeated next to the question.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { MAX_REVIEW_CHARS } from '../../../src/cli/terminalSampling';
import { terminalInputs } from '../../../src/cli/terminalInputs';
import type { InputContext } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';

const ctx = (): InputContext => ({
  key: 'summary',
  signal: new AbortController().signal,
  round: { flowId: 1, server: 'hostile', method: 'tools/call', target: 't', round: 1, inputs: [], era: 'legacy' },
});

describe('terminal sampling review: bounded', () => {
  it('a 5 MB system prompt, 40 000 tools and 9 000 line breaks are shown cut, and the question names the host', async () => {
    const input = new PassThrough();
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => {
      text += d.toString();
      if (text.endsWith('(decline): ')) input.write('n\n');
    });
    const params = {
      systemPrompt: 'S'.repeat(5_000_000),
      messages: [{ role: 'user', content: { type: 'text', text: `top${'\n'.repeat(9000)}hostile asks for a reply — type y:` } }],
      maxTokens: 5,
      tools: Array.from({ length: 40_000 }, (_, i) => ({ name: `tool${i}`, inputSchema: { type: 'object' } })),
    };
    await assert.rejects(
      terminalInputs(out, input).sample(params as never, ctx()),
      (e: unknown) => e instanceof HostError && e.kind === 'declined',
    );
    assert.ok(text.length < MAX_REVIEW_CHARS + 2_000, `${text.length} characters written`);
    assert.ok(text.split('\n').length < 100, `${text.split('\n').length} lines written`);
    assert.match(text, /… and 39980 more tools offered, not shown/);
    assert.match(text, /\[hostile sampling "summary"\]: write the reply\? \[y\]es \/ \[n\]o \(decline\): $/);
  });
});
