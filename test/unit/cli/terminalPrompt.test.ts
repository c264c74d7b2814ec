/** The CLI's one line reader: lines typed ahead or pasted together answer the next questions; an ended input cancels. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { createPrompter, MAX_TYPED_AHEAD } from '../../../src/cli/terminalPrompt';
import { terminalInputs } from '../../../src/cli/terminalInputs';
import type { InputContext } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';
import { terminalInput } from '../../support/terminal';

const live = () => new AbortController().signal;
const isCancelled = (e: unknown) => e instanceof HostError && e.kind === 'cancelled';

describe('terminal prompt: type-ahead and paste', () => {
  it('three lines pasted at the first question answer it and the next two, in order, each question still written', async () => {
    const input = new PassThrough();
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    const ask = createPrompter(out, input);
    const first = ask('a: ', live());
    input.write('one\n  two  \nthree\n');
    assert.equal(await first, 'one');
    assert.equal(await ask('b: ', live()), 'two');
    assert.equal(await ask('c: ', live(), true), 'three');
    assert.match(text, /a: [\s\S]*b: \n[\s\S]*c: \n/);
  });

  it('a whole form pasted before its first field is asked fills every field (terminal inputs)', async () => {
    const input = new PassThrough();
    const out = new PassThrough();
    input.write('Lisbon\n3\n');
    const ctx: InputContext = {
      key: 'trip',
      signal: live(),
      round: { flowId: 1, server: 's', method: 'tools/call', target: 't', round: 1, inputs: [], era: 'modern' },
    };
    const result = await terminalInputs(out, input).elicit(
      {
        mode: 'form',
        message: 'Where?',
        requestedSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, nights: { type: 'integer' } },
          required: ['city', 'nights'],
        },
      } as never,
      ctx,
    );
    assert.deepEqual(result, { action: 'accept', content: { city: 'Lisbon', nights: 3 } });
  });

  it('a question open when the input ends is cancelled, not left waiting; so is one asked after', async () => {
    const input = new PassThrough();
    const ask = createPrompter(new PassThrough(), input);
    const open = ask('a: ', live());
    input.end();
    await assert.rejects(open, isCancelled);
    await assert.rejects(ask('b: ', live()), isCancelled);
  });

  it(`lines left over from an ended input are still answers; past ${MAX_TYPED_AHEAD} kept lines the rest of a paste is dropped`, async () => {
    const input = new PassThrough();
    const ask = createPrompter(new PassThrough(), input);
    const first = ask('q: ', live());
    input.end(Array.from({ length: MAX_TYPED_AHEAD + 5 }, (_, i) => `line ${i}`).join('\n') + '\n');
    assert.equal(await first, 'line 0');
    for (let i = 1; i <= MAX_TYPED_AHEAD; i++) assert.equal(await ask('q: ', live()), `line ${i}`);
    await assert.rejects(ask('q: ', live()), isCancelled);
  });

  it('an aborted signal rejects with its reason before anything is asked, and a kept line stays for the next question', async () => {
    const input = new PassThrough();
    const ask = createPrompter(new PassThrough(), input);
    const first = ask('a: ', live());
    input.write('one\ntwo\n');
    assert.equal(await first, 'one');
    const ac = new AbortController();
    ac.abort(new Error('call timed out'));
    await assert.rejects(ask('b: ', ac.signal), /call timed out/);
    assert.equal(await ask('b: ', live()), 'two');
  });

  it("Ctrl+C typed at a terminal question is the run's own Ctrl+C: the call cancelled through its signal, the input left open", async () => {
    const input = terminalInput();
    const ac = new AbortController();
    let presses = 0;
    const ask = createPrompter(new PassThrough(), input, () => {
      presses++;
      ac.abort(new Error('cancelled by Ctrl-C'));
    });
    const open = ask('a: ', ac.signal);
    input.write('\x03');
    await assert.rejects(open, /cancelled by Ctrl-C/);
    assert.equal(presses, 1);
    // Not closed: a later question still reads the terminal.
    const next = ask('b: ', live());
    input.write('yes\n');
    assert.equal(await next, 'yes');
  });

  it('without the run to tell, Ctrl+C at a terminal question cancels it saying so (not "the input ended")', async () => {
    const input = terminalInput();
    const ask = createPrompter(new PassThrough(), input);
    const open = ask('a: ', live());
    input.write('\x03');
    await assert.rejects(open, (e: unknown) => isCancelled(e) && (e as Error).message === 'cancelled at the terminal (Ctrl+C)');
  });

  it("a question cut by a bare abort (the run's Ctrl+C gives no reason) is cancelled, not the platform's AbortError", async () => {
    const input = terminalInput();
    const ac = new AbortController();
    const ask = createPrompter(new PassThrough(), input, () => ac.abort());
    const open = ask('a: ', ac.signal);
    input.write('\x03');
    await assert.rejects(open, (e: unknown) => isCancelled(e) && (e as Error).message === 'cancelled at the terminal (Ctrl+C)');
    // And a question asked after it, as the next field of a form would be.
    await assert.rejects(ask('b: ', ac.signal), isCancelled);
  });
});
