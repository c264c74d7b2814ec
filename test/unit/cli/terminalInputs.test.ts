/** The CLI's interactive provider: fields asked one by one with validation (F1), decline, URL consent. */
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { terminalInputs } from '../../../src/cli/terminalInputs';
import { MAX_PROMPT_CHOICES, MAX_PROMPT_TEXT } from '../../../src/cli/terminalText';
import type { InputContext } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';
import { summarizeAnswer } from '../../../src/core/inputs/answers';
import { terminalInput } from '../../support/terminal';

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
      {
        mode: 'form',
        message: 'How many copies? (1-5)',
        requestedSchema: { type: 'object', properties: { copies: { type: 'integer', minimum: 1, maximum: 5 } }, required: ['copies'] },
      } as never,
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
      {
        message: 'Why?',
        requestedSchema: {
          type: 'object',
          properties: { reason: { type: 'string', minLength: 5 }, more: { type: 'string' } },
          required: ['reason'],
        },
      } as never,
      ctx(),
    );
    assert.deepEqual(result, { action: 'decline' });
  });

  it('URL mode: shows the full URL and host, and accepts only on yes', async () => {
    const yes = terminal(['y']);
    const a = await terminalInputs(yes.out, yes.input).elicit(
      { mode: 'url', message: 'Connect', url: 'https://auth.example.test/connect?session=abc123', elicitationId: 'e1' } as never,
      ctx(),
    );
    assert.deepEqual(a, { action: 'accept' });
    assert.match(yes.text(), /URL: {2}https:\/\/auth\.example\.test\/connect\?session=abc123/);
    assert.match(yes.text(), /host: auth\.example\.test/);
    const no = terminal(['n']);
    assert.deepEqual(await terminalInputs(no.out, no.input).elicit({ mode: 'url', message: 'x', url: 'https://a.test/' } as never, ctx()), {
      action: 'decline',
    });
  });

  it('a yes/no answer that is neither is asked again, never taken for no (URL consent, write the reply)', async () => {
    const t = terminal(['maybe', 'yes please', 'y']);
    const a = await terminalInputs(t.out, t.input).elicit(
      { mode: 'url', message: 'Connect', url: 'https://a.test/', elicitationId: 'e1' } as never,
      ctx(),
    );
    assert.deepEqual(a, { action: 'accept' });
    assert.equal(t.text().match(/Type one of: y, yes, n, no/g)?.length, 2, t.text());
    const s = terminal(['sure', 'y', 'Hi.', '.', '', '']);
    const r = await terminalInputs(s.out, s.input).sample({ messages: [], systemPrompt: 'x', maxTokens: 5 }, ctx());
    assert.deepEqual(r.content, { type: 'text', text: 'Hi.' });
    assert.match(s.text(), /Type one of: y, yes, n, no/);
  });

  it('sampling: the prompt is shown and the person writes the reply (several lines), model "human", stopReason endTurn', async () => {
    const t = terminal(['y', 'Day 1: Alfama.', '  Day 2: Belém.', '.', '', '']);
    const r = await terminalInputs(t.out, t.input).sample(
      { systemPrompt: 'Be brief.', messages: [{ role: 'user', content: { type: 'text', text: 'Plan Lisbon' } }], maxTokens: 50 } as never,
      ctx(),
    );
    assert.deepEqual(r, {
      role: 'assistant',
      content: { type: 'text', text: 'Day 1: Alfama.\n  Day 2: Belém.' },
      model: 'human',
      stopReason: 'endTurn',
    });
    assert.match(t.text(), /System prompt: Be brief\./);
    assert.match(t.text(), /Message 1 \(user\): Plan Lisbon/);
    assert.match(summarizeAnswer({ key: 'qty', method: 'sampling/createMessage', params: {} }, r), /written by a person at the terminal/);
  });

  it('sampling with tools: a tool call picked by number, its arguments asked and checked, stopReason toolUse', async () => {
    const t = terminal(['y', '.', '1', '', 'Paris', '', '']);
    const weather = { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
    const r = await terminalInputs(t.out, t.input).sample(
      {
        messages: [{ role: 'user', content: { type: 'text', text: 'Weather?' } }],
        maxTokens: 50,
        tools: [weather],
        toolChoice: { mode: 'required' },
      } as never,
      ctx(),
    );
    const [call] = r.content as unknown as { type: string; name: string; input: unknown }[];
    assert.deepEqual([call.type, call.name, call.input], ['tool_use', 'get_weather', { city: 'Paris' }]);
    assert.equal(r.stopReason, 'toolUse');
    assert.match(t.text(), /Tool offered: get_weather/);
    assert.match(t.text(), /city \(text; required\)/);
    assert.match(t.chunks.filter((c) => c.startsWith('    ')).join(''), /Required/, 'the empty city was refused before it was kept');
  });

  it('sampling: an empty reply is refused and asked again; no, :decline and :cancel decline', async () => {
    const t = terminal(['y', '.', '', '', 'Hello', '.']);
    const r = await terminalInputs(t.out, t.input).sample({ messages: [], systemPrompt: 'x', maxTokens: 5 }, ctx());
    assert.deepEqual(r.content, { type: 'text', text: 'Hello' });
    assert.match(t.text(), /reply: Write a reply\./);
    for (const lines of [['n'], ['y', ':decline'], ['y', 'text', '.', ':cancel']]) {
      const d = terminal(lines);
      await assert.rejects(
        terminalInputs(d.out, d.input).sample({ messages: [], systemPrompt: 'x', maxTokens: 5 }, ctx()),
        (e: unknown) => e instanceof HostError && e.kind === 'declined',
        lines.join(' '),
      );
    }
  });

  it('sampling: escape sequences in the prompt and tool names never reach the terminal', async () => {
    const ESC = '\u001b';
    const t = terminal(['n']);
    const evil = `${ESC}[2J${ESC}]0;PWNED\u0007\u202Eexe`;
    await assert.rejects(
      terminalInputs(t.out, t.input).sample(
        {
          systemPrompt: evil,
          messages: [{ role: evil, content: { type: 'text', text: evil } }],
          maxTokens: 5,
          tools: [{ name: evil, description: evil, inputSchema: { type: 'object' } }],
        } as never,
        ctx(),
      ),
    );
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(t.text(), /[\u001b\u0007\u202e]/);
  });
});

describe('terminal inputs: hostile server text and Ctrl+C (review)', () => {
  const ESC = '\u001b';
  const evil = `${ESC}[2J${ESC}]0;PWNED\u0007${ESC}[31mred\u009b31m \u202Eexe.txt`;
  // eslint-disable-next-line no-control-regex
  const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  it('escape sequences, C1 controls and bidi overrides in the key, message, labels, options and URL never reach the terminal', async () => {
    const t = terminal([':cancel', 'n']);
    const c = ctx();
    const p = terminalInputs(t.out, t.input);
    await p.elicit(
      {
        mode: 'form',
        message: `Hello ${evil}\r\n  (type :decline or :cancel at any prompt)`,
        requestedSchema: {
          type: 'object',
          properties: { f: { type: 'string', title: `T ${evil}`, enum: ['a', 'b'], enumNames: [`A ${evil}`, 'B'] } },
        },
      } as never,
      { ...c, key: `k${evil}` },
    );
    await p.elicit({ mode: 'url', message: evil, url: `https://example.com/${ESC}[2J`, elicitationId: 'e' } as never, c);
    assert.ok(!unsafe.test(t.text()), JSON.stringify(t.text()));
    // A server's line break cannot forge a line of the host's own: what follows it is indented.
    assert.equal(t.text().split('\n  (type :decline').length - 1, 1, t.text()); // only the host's own line, not the forged one
  });

  it('Ctrl+C or Ctrl+D at a prompt cancels the call (HostError cancelled: exit code 130), not a failure', async () => {
    for (const key of ['\u0003', '\u0004']) {
      const input = terminalInput();
      const out = new PassThrough();
      out.on('data', (d: Buffer) => {
        if (d.toString().endsWith(': ')) input.write(key);
      });
      await assert.rejects(
        terminalInputs(out, input).elicit(
          { mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: { n: { type: 'integer' } } } } as never,
          ctx(),
        ),
        (e: unknown) => e instanceof HostError && e.kind === 'cancelled',
      );
    }
  });
});

describe('terminal inputs: a form asked again (review)', () => {
  it('is pre-filled with what was typed last time in this call (Enter keeps it), and shows field descriptions', async () => {
    const t = terminal(['Lisbon', '3', '', '']);
    const p = terminalInputs(t.out, t.input);
    const params = {
      mode: 'form',
      message: 'Where and how many?',
      requestedSchema: {
        type: 'object',
        properties: { city: { type: 'string', description: 'City or region.' }, nights: { type: 'integer', minimum: 1 } },
        required: ['city', 'nights'],
      },
    } as never;
    assert.deepEqual(await p.elicit(params, ctx()), { action: 'accept', content: { city: 'Lisbon', nights: 3 } });
    // Round 2 of the same call, same key: Enter, Enter.
    const again = ctx();
    again.round = { ...again.round, round: 2 };
    assert.deepEqual(await p.elicit(params, again), { action: 'accept', content: { city: 'Lisbon', nights: 3 } });
    assert.match(t.text(), /city \(text; required\) \[Lisbon\]: /);
    assert.match(t.text(), /City or region\./);
  });
});

describe('terminal inputs: a hostile server', () => {
  it('a field named "__proto__" can be accepted: its value is an own key of the content', async () => {
    const t = terminal(['kept']);
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}');
    const result = await terminalInputs(t.out, t.input).elicit({ mode: 'form', message: 'm', requestedSchema: schema } as never, ctx());
    assert.equal(result.action, 'accept', t.text());
    assert.ok(Object.prototype.hasOwnProperty.call(result.content, '__proto__'));
    assert.equal(JSON.stringify(result.content), '{"__proto__":"kept"}');
  });

  it(`a million choices: the prompt lists ${MAX_PROMPT_CHOICES} and counts the rest; any is still taken by its number`, async () => {
    const t = terminal(['1000000']);
    const values = Array.from({ length: 1_000_000 }, (_, i) => `v${i}`);
    const result = await terminalInputs(t.out, t.input).elicit(
      {
        mode: 'form',
        message: 'm',
        requestedSchema: { type: 'object', properties: { pick: { type: 'string', enum: values } }, required: ['pick'] },
      } as never,
      ctx(),
    );
    assert.deepEqual(result, { action: 'accept', content: { pick: 'v999999' } });
    const prompt = t.chunks.find((c) => c.includes('pick ('))!;
    assert.ok(prompt.length < 2000, `${prompt.length} chars`);
    assert.match(prompt, /20=v19, … 999980 more \(1000000 choices: type a number up to 1000000, or the value\)/);
  });

  it('when one form of a round fails, the other forms of the round are not asked: no header of theirs is printed', async () => {
    const input = terminalInput();
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => {
      text += d.toString();
      if (d.toString().endsWith(': ')) input.write('\u0004'); // Ctrl+D at the first prompt
    });
    const p = terminalInputs(out, input);
    const params = (m: string) =>
      ({ mode: 'form', message: m, requestedSchema: { type: 'object', properties: { n: { type: 'integer' } } } }) as never;
    const first = p.elicit(params('first form'), { ...ctx(), key: 'a' });
    const second = p.elicit(params('second form'), { ...ctx(), key: 'b' });
    await assert.rejects(first, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
    await assert.rejects(second, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
    assert.match(text, /first form/);
    assert.doesNotMatch(text, /second form|"b"/);
  });

  it('a form the server got wrong is not asked field by field: it says why, and can be declined', async () => {
    const t = terminal(['d']);
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`p${i}`, { type: 'string' }])),
    };
    assert.deepEqual(await terminalInputs(t.out, t.input).elicit({ mode: 'form', message: 'm', requestedSchema: wide } as never, ctx()), {
      action: 'decline',
    });
    assert.match(t.text(), /This form cannot be shown: requestedSchema has 100000 properties; a form has at most 200/);
  });
});

describe('terminal inputs: a server message of 5 MB', () => {
  it(`is shown cut at ${MAX_PROMPT_TEXT} characters, counting the rest`, async () => {
    const t = terminal([':decline']);
    await terminalInputs(t.out, t.input).elicit(
      { mode: 'form', message: 'm'.repeat(5_000_000), requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } } as never,
      ctx(),
    );
    assert.ok(t.text().length < MAX_PROMPT_TEXT + 1000, `${t.text().length} chars written`);
    assert.match(t.text(), /m … \(4990000 more characters\)/);
  });
});
