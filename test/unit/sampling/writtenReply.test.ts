/** A sampling reply written by a person (src/core/sampling/writtenReply.ts): its form and its check. */
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { HUMAN_MODEL, MAX_WRITABLE_TOOLS, REPLY_KEYS, writtenReply } from '../../../src/core/sampling/writtenReply';

const params = (over: Record<string, unknown> = {}) =>
  ({
    messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }],
    maxTokens: 50,
    ...over,
  }) as unknown as CreateMessageRequestParams;
const WEATHER = {
  name: 'get_weather',
  description: 'Current weather',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1 } },
    required: ['city'],
  },
};
const values = (v: Record<string, string>) => ({ [REPLY_KEYS.model]: HUMAN_MODEL, [REPLY_KEYS.stopReason]: 'endTurn', ...v });

describe('written reply: the form', () => {
  it('text, model name "human", stop reason endTurn; no tool field when no tool is offered', () => {
    const { form } = writtenReply(params());
    assert.equal(form.text.label, 'Reply');
    assert.equal(form.model.initial, 'human');
    assert.equal(form.stopReason.initial, 'endTurn');
    assert.deepEqual(
      form.stopReason.options?.map((o) => o.value),
      ['endTurn', 'stopSequence', 'maxTokens', 'toolUse'],
    );
    assert.equal(form.tool, undefined);
  });

  it('offered tools become a tool picker, each with its arguments form from the inputSchema', () => {
    const { form } = writtenReply(params({ tools: [WEATHER] }));
    assert.equal(form.tool?.label, 'Tool call');
    assert.deepEqual(
      form.tool?.options?.map((o) => [o.value, o.label]),
      [['0', 'get_weather']],
    );
    assert.deepEqual(
      form.tools[0].fields.map((f) => [f.key, f.kind, f.required]),
      [
        ['city', 'text', true],
        ['days', 'integer', false],
      ],
    );
    assert.equal(
      writtenReply(params({ tools: [WEATHER], toolChoice: { mode: 'none' } })).form.tool,
      undefined,
      'toolChoice none offers no tool',
    );
  });

  it('hostile tool lists: a network $ref, a non-object schema, repeated names and too many tools are bounded and named', () => {
    const many = Array.from({ length: MAX_WRITABLE_TOOLS + 5 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const { form } = writtenReply(
      params({
        tools: [
          { name: 'remote', inputSchema: { type: 'object', properties: { a: { $ref: 'https://evil.example/schema.json' } } } },
          { name: 'scalar', inputSchema: { type: 'string' } },
          { name: 'remote', inputSchema: { type: 'object' } },
          { inputSchema: { type: 'object' } },
          ...many,
        ],
      }),
    );
    assert.equal(form.tools.length, MAX_WRITABLE_TOOLS);
    assert.match(form.tools[0].problem ?? '', /cannot be used/);
    assert.match(form.tools[1].problem ?? '', /must describe an object/);
    assert.equal(form.toolsLeftOut, 2 + 2 + 5, 'the repeated name, the nameless tool, and those past the limit');
    const r = writtenReply(
      params({ tools: [{ name: 'remote', inputSchema: { type: 'object', properties: { a: { $ref: 'https://evil.example/x' } } } }] }),
    ).build(values({ [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }), {});
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.errors[REPLY_KEYS.tool] : '', /cannot be used/);
  });
});

describe('written reply: the check', () => {
  it('a text reply becomes one text block, model "human", stopReason endTurn', () => {
    const r = writtenReply(params()).build(values({ [REPLY_KEYS.text]: 'Sunny, 21 °C.' }), {});
    assert.deepEqual(r, {
      ok: true,
      result: { role: 'assistant', content: { type: 'text', text: 'Sunny, 21 °C.' }, model: 'human', stopReason: 'endTurn' },
    });
  });

  it('nothing written, no model name, an unknown stop reason: each field says what is wrong, nothing is built', () => {
    const r = writtenReply(params()).build(
      { [REPLY_KEYS.text]: '  ', [REPLY_KEYS.model]: '', [REPLY_KEYS.stopReason]: 'becauseISaidSo' },
      {},
    );
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(r.errors[REPLY_KEYS.text], 'Write a reply.');
    assert.equal(r.errors[REPLY_KEYS.model], 'Required');
    assert.match(r.errors[REPLY_KEYS.stopReason], /choose one of the options/i);
  });

  it('a tool call: its arguments are checked against the inputSchema, then sent as a tool_use block (nothing is run)', () => {
    const reply = writtenReply(params({ tools: [WEATHER], toolChoice: { mode: 'required' } }));
    const bad = reply.build(values({ [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }), { city: 'P', days: '1.5' });
    assert.equal(bad.ok, false);
    if (!bad.ok) {
      assert.deepEqual(Object.keys(bad.errors), []);
      assert.match(bad.argumentErrors.days, /whole number/i);
    }
    const schemaBad = reply.build(values({ [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }), { city: 'P' });
    assert.ok(!schemaBad.ok && /2/.test(schemaBad.argumentErrors.city), 'minLength from the schema (ajv)');
    const ok = reply.build(values({ [REPLY_KEYS.text]: 'Checking.', [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }), {
      city: 'Paris',
      days: '2',
    });
    assert.equal(ok.ok, true);
    if (!ok.ok) return;
    const content = ok.result.content as unknown as { type: string; id?: string; name?: string; input?: unknown }[];
    assert.deepEqual(content[0], { type: 'text', text: 'Checking.' });
    assert.equal(content[1].type, 'tool_use');
    assert.equal(content[1].name, 'get_weather');
    assert.deepEqual(content[1].input, { city: 'Paris', days: 2 });
    assert.match(content[1].id ?? '', /^call_[0-9a-f-]{36}$/);
    assert.equal(ok.result.stopReason, 'toolUse');
  });

  it('toolChoice "required" needs a tool call; a tool call stops with toolUse, and toolUse needs a tool call', () => {
    const required = writtenReply(params({ tools: [WEATHER], toolChoice: { mode: 'required' } })).build(
      values({ [REPLY_KEYS.text]: 'No tool.' }),
      {},
    );
    assert.ok(!required.ok && /requires a tool call/.test(required.errors[REPLY_KEYS.tool]));
    const reply = writtenReply(params({ tools: [WEATHER] }));
    const noToolUse = reply.build(values({ [REPLY_KEYS.tool]: '0' }), { city: 'Paris' });
    assert.ok(!noToolUse.ok && /stops with toolUse/.test(noToolUse.errors[REPLY_KEYS.stopReason]));
    const toolUseAlone = reply.build(values({ [REPLY_KEYS.text]: 'hi', [REPLY_KEYS.stopReason]: 'toolUse' }), {});
    assert.ok(!toolUseAlone.ok && /needs a tool call/.test(toolUseAlone.errors[REPLY_KEYS.stopReason]));
    assert.ok(!reply.build(values({ [REPLY_KEYS.tool]: '7', [REPLY_KEYS.stopReason]: 'toolUse' }), {}).ok, 'only an offered tool');
  });

  it('a tool is picked by its position, so a name the panel cannot show as sent (bidi controls) still calls that exact tool', () => {
    const name = 'report\u202Eexe';
    const r = writtenReply(params({ tools: [{ name, inputSchema: { type: 'object' } }] })).build(
      values({ [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }),
      {},
    );
    assert.equal(r.ok && (r.result.content as unknown as { name: string }[])[0].name, name);
  });

  it('an argument named "__proto__" stays a plain key of the tool call input', () => {
    const tool = {
      name: 'odd',
      inputSchema: JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"]}'),
    };
    const r = writtenReply(params({ tools: [tool] })).build(
      values({ [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }),
      JSON.parse('{"__proto__":"own"}'),
    );
    assert.equal(r.ok, true);
    const input = r.ok ? (r.result.content as unknown as { input: Record<string, unknown> }[])[0].input : {};
    assert.ok(Object.prototype.hasOwnProperty.call(input, '__proto__'));
    assert.equal(Object.getPrototypeOf(input), Object.prototype);
  });

  it('a reply opened from a completion starts with its text', () => {
    assert.equal(writtenReply(params(), 'Bonjour').form.text.initial, 'Bonjour');
  });
});
