/**
 * Terminal forms say what a field takes before the first answer, show a titled choice by its title
 * and take it by its title, ask a boolean [y/n], and send only what the person set.
 */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { terminalInputs } from '../../../src/cli/terminalInputs';
import { fieldPrompt } from '../../../src/cli/terminalText';
import { buildFormModel } from '../../../src/core/elicitation/formFields';
import type { InputContext } from '../../../src/core/inputs/inputProvider';

const ctx = (): InputContext => ({
  key: 'q',
  signal: new AbortController().signal,
  round: { flowId: 1, server: 'heroes', method: 'tools/call', target: 'pick', round: 1, inputs: [], era: 'modern' },
});

/** A terminal whose user types `lines` one at a time, each after the previous prompt appeared. */
function terminal(lines: string[]) {
  const input = new PassThrough();
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => {
    const chunk = d.toString();
    text += chunk;
    if (chunk.endsWith(': ') && lines.length) input.write(lines.shift() + '\n');
  });
  return { input, out, text: () => text };
}

const ask = (lines: string[], properties: Record<string, unknown>, required: string[] = []) => {
  const t = terminal(lines);
  const answer = terminalInputs(t.out, t.input).elicit(
    { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties, required } } as never,
    ctx(),
  );
  return { t, answer };
};

const HERO = {
  type: 'string',
  oneOf: [
    { const: 'hero-1', title: 'Superman' },
    { const: 'hero-2', title: 'Batman' },
  ],
  default: 'hero-1',
};

describe('terminal forms', () => {
  it("a titled choice's default is shown by its title; Enter keeps its value", async () => {
    const { t, answer } = ask([''], { hero: HERO });
    assert.deepEqual(await answer, { action: 'accept', content: { hero: 'hero-1' } });
    assert.match(t.text(), /hero \(select; 1=Superman, 2=Batman; :unset leaves it unset\) \[Superman\]: /);
    assert.doesNotMatch(t.text(), /\[hero-1\]/);
  });

  it('a choice is taken by its title (any case) as well as by its value or number', async () => {
    for (const typed of ['batman', 'Batman', 'hero-2', '2']) {
      const { answer } = ask([typed], { hero: HERO }, ['hero']);
      assert.deepEqual(await answer, { action: 'accept', content: { hero: 'hero-2' } }, typed);
    }
  });

  it("a number's bounds and a string's format and length are said before the first answer", () => {
    const model = buildFormModel({
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1, maximum: 5 },
        min: { type: 'number', minimum: 0.5 },
        mail: { type: 'string', format: 'email' },
        code: { type: 'string', minLength: 3, maxLength: 8 },
        id: { type: 'string', format: 'uuid', maxLength: 36 },
      },
    });
    assert.deepEqual(
      model.fields.map((f) => fieldPrompt(f)),
      [
        'n (integer; 1 to 5)',
        'min (number; 0.5 or more)',
        'mail (email; like name@example.com)',
        'code (text; 3 to 8 characters)',
        'id (text; format uuid; at most 36 characters)',
      ],
    );
  });

  it('a boolean asks [y/n] (its default in capitals); a wrong answer says what to type', async () => {
    const { t, answer } = ask(['maybe', 'y'], { ok: { type: 'boolean', title: 'Agree' } }, ['ok']);
    assert.deepEqual(await answer, { action: 'accept', content: { ok: true } });
    assert.match(t.text(), /Agree \(yes or no; required\) \[y\/n\]: /);
    assert.match(t.text(), /Type y \(yes\) or n \(no\)\n/);
    const model = buildFormModel({ type: 'object', properties: { a: { type: 'boolean', default: true } } });
    assert.equal(fieldPrompt(model.fields[0]), 'a (yes or no; Enter leaves it unset) [Y/n]');
  });

  it('optional fields left empty are omitted: a boolean without default is not set, not false', async () => {
    const { answer } = ask(['', '', ''], {
      symbols: { type: 'boolean' },
      length: { type: 'integer', minimum: 8 },
      note: { type: 'string' },
    });
    assert.deepEqual(await answer, { action: 'accept', content: {} });
    const no = ask(['n', '', ''], { symbols: { type: 'boolean' }, length: { type: 'integer' }, note: { type: 'string' } });
    assert.deepEqual(await no.answer, { action: 'accept', content: { symbols: false } });
  });

  it(':unset empties an optional field that has a default', async () => {
    const { answer } = ask([':unset', ''], { hero: HERO, flag: { type: 'boolean', default: true } });
    assert.deepEqual(await answer, { action: 'accept', content: { flag: true } });
  });
});
