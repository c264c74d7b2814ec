/** The CLI's interactive provider: fields asked one by one with validation (F1), decline, URL consent. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { terminalInputs } from '../../src/cli/terminalInputs';
import type { InputContext } from '../../src/core/inputs';
import { HostError } from '../../src/core/errors';

const ctx = (): InputContext => ({
  key: 'qty',
  signal: new AbortController().signal,
  round: { flowId: 1, server: 'label-printer', method: 'tools/call', target: 'print_label', round: 1, inputs: [], era: 'modern' },
});

/** A terminal whose user types `lines` one at a time, each only after the previous prompt appeared. */
function terminal(lines: string[]) {
  const input = new PassThrough();
  const out = new PassThrough();
  let text = '';
  const chunks: string[] = [];
  out.on('data', (d: Buffer) => {
    const chunk = d.toString();
    text += chunk;
    chunks.push(chunk);
    // readline writes each prompt as one chunk ending in ": ": answer it then, like a person would.
    if (chunk.endsWith(': ') && lines.length) input.write(lines.shift() + '\n');
  });
  return { input, out, text: () => text, chunks };
}

describe('terminal inputs (CLI on a TTY)', () => {
  it('F1: rejects empty, 0, 6, 3.5 and 3abc with a message, then sends copies: 3 as a number', async () => {
    const t = terminal(['', '0', '6', '3.5', '3abc', '3']);
    const provider = terminalInputs(t.out, t.input);
    const result = await provider.elicit(
      { mode: 'form', message: 'How many copies? (1-5)', requestedSchema: { type: 'object', properties: { copies: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['copies'] } } as never,
      ctx(),
    );
    assert.deepEqual(result, { action: 'accept', content: { copies: 3 } });
    assert.ok(Number.isInteger((result.content as { copies: number }).copies));
    // One field error per rejected input, each naming what was wrong.
    const errors = t.chunks.filter((c) => c.startsWith('    '));
    assert.equal(errors.length, 5, t.text());
    assert.match(errors[0], /required/i);
    assert.match(t.text(), /label-printer asks \(tools\/call print_label, round 1, "qty"\)/);
  });

  it(':decline declines without sending what was typed (F4)', async () => {
    const t = terminal(['ok', ':decline']);
    const provider = terminalInputs(t.out, t.input);
    const result = await provider.elicit(
      { message: 'Why?', requestedSchema: { type: 'object', properties: { reason: { type: 'string', minLength: 5 }, more: { type: 'string' } }, required: ['reason'] } } as never,
      ctx(),
    );
    assert.deepEqual(result, { action: 'decline' });
  });

  it('URL mode: shows the full URL and host, and accepts only on yes', async () => {
    const yes = terminal(['y']);
    const a = await terminalInputs(yes.out, yes.input).elicit({ mode: 'url', message: 'Connect', url: 'https://auth.example.test/connect?session=abc123', elicitationId: 'e1' } as never, ctx());
    assert.deepEqual(a, { action: 'accept' });
    assert.match(yes.text(), /URL: {2}https:\/\/auth\.example\.test\/connect\?session=abc123/);
    assert.match(yes.text(), /host: auth\.example\.test/);
    const no = terminal(['n']);
    assert.deepEqual(await terminalInputs(no.out, no.input).elicit({ mode: 'url', message: 'x', url: 'https://a.test/' } as never, ctx()), { action: 'decline' });
  });

  it('sampling is declined (the CLI has no model)', async () => {
    const t = terminal([]);
    await assert.rejects(terminalInputs(t.out, t.input).sample({ messages: [], maxTokens: 5 } as never, ctx()), (e: unknown) => e instanceof HostError && e.kind === 'declined');
  });
});
