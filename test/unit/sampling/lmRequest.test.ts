/** sampling/createMessage → LM request mapping: messages, system prompt, limits, tools (src/core/sampling/lmRequest.ts). */
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { HostError } from '../../../src/core/util/errors';
import { SYSTEM_PROMPT_HEADER, buildLmRequest } from '../../../src/core/sampling/lmRequest';

const params = (p: Partial<CreateMessageRequestParams> & Record<string, unknown>): CreateMessageRequestParams => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
  maxTokens: 64,
  ...p,
});
const plainModel = { id: 'm1' };
const isHostError = (kind: string, re: RegExp) => (e: unknown) => e instanceof HostError && e.kind === kind && re.test(e.message);

describe('sampling request mapping', () => {
  it('systemPrompt reaches the model as a first, marked user message; roles and order kept (F6)', () => {
    const r = buildLmRequest(
      params({
        systemPrompt: 'Answer with one word.',
        messages: [
          { role: 'user', content: { type: 'text', text: "Translate 'hello' to French." } },
          { role: 'assistant', content: { type: 'text', text: 'Bonjour' } },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'And' },
              { type: 'text', text: ' goodbye?' },
            ],
          },
        ],
      }),
      plainModel,
    );
    assert.deepEqual(
      r.messages.map((m) => m.role),
      ['user', 'user', 'assistant', 'user'],
    );
    assert.deepEqual(r.messages[0].parts, [{ kind: 'text', text: `${SYSTEM_PROMPT_HEADER}\nAnswer with one word.` }]);
    assert.match(SYSTEM_PROMPT_HEADER, /instructions/i);
    assert.deepEqual(r.messages[1].parts, [{ kind: 'text', text: "Translate 'hello' to French." }]);
    assert.deepEqual(r.messages[3].parts, [
      { kind: 'text', text: 'And' },
      { kind: 'text', text: ' goodbye?' },
    ]);
  });

  it('no systemPrompt: no instruction message', () => {
    assert.equal(buildLmRequest(params({}), plainModel).messages.length, 1);
  });

  it('maxTokens and temperature go into modelOptions; maxTokens is also the enforced limit', () => {
    const r = buildLmRequest(params({ maxTokens: 64, temperature: 0.2, stopSequences: ['END', ''] }), plainModel);
    assert.deepEqual(r.modelOptions, { maxTokens: 64, temperature: 0.2 });
    assert.equal(r.maxTokens, 64);
    assert.deepEqual(r.stopSequences, ['END']);
    assert.deepEqual(buildLmRequest(params({ maxTokens: 10 }), plainModel).modelOptions, { maxTokens: 10 });
  });

  it('maxTokens missing or not a positive integer: protocol error', () => {
    for (const bad of [undefined, 0, -1, 2.5, '64']) {
      assert.throws(() => buildLmRequest(params({ maxTokens: bad as never }), plainModel), isHostError('protocol', /maxTokens/));
    }
  });

  it('images become image parts (decoded) only for a model with image input', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64');
    const p = params({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', data: png, mimeType: 'image/png' },
          ],
        },
      ],
    });
    const r = buildLmRequest(p, { id: 'vision', imageInput: true });
    const img = r.messages[0].parts[1];
    assert.equal(img.kind, 'image');
    assert.deepEqual(img.kind === 'image' && [...img.data], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal(img.kind === 'image' && img.mimeType, 'image/png');
    assert.throws(() => buildLmRequest(p, { id: 'text-only' }), isHostError('declined', /"text-only" does not accept image input/));
    assert.throws(() => buildLmRequest(p, { id: 'text-only', imageInput: false }), isHostError('declined', /image/));
  });

  it('audio: a clear error, whatever the model', () => {
    const p = params({ messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }] });
    assert.throws(() => buildLmRequest(p, { id: 'any', imageInput: true }), isHostError('declined', /audio/));
  });

  it('malformed content: unknown type, bad base64, wrong role for tool blocks', () => {
    assert.throws(
      () => buildLmRequest(params({ messages: [{ role: 'user', content: { type: 'video' } }] as never }), plainModel),
      isHostError('protocol', /unknown content type "video"/),
    );
    assert.throws(
      () =>
        buildLmRequest(params({ messages: [{ role: 'user', content: { type: 'image', data: '%%%', mimeType: 'image/png' } }] }), {
          id: 'v',
          imageInput: true,
        }),
      isHostError('protocol', /base64/),
    );
    assert.throws(
      () =>
        buildLmRequest(
          params({ messages: [{ role: 'user', content: { type: 'tool_use', id: 't1', name: 'x', input: {} } }] as never }),
          plainModel,
        ),
      isHostError('protocol', /tool_use belongs in an assistant message/),
    );
    assert.throws(
      () =>
        buildLmRequest(
          params({ messages: [{ role: 'assistant', content: { type: 'tool_result', toolUseId: 't1', content: [] } }] as never }),
          plainModel,
        ),
      isHostError('protocol', /tool_result belongs in a user message/),
    );
    assert.throws(
      () => buildLmRequest(params({ messages: [{ role: 'system', content: { type: 'text', text: 'x' } }] as never }), plainModel),
      isHostError('protocol', /role "system"/),
    );
  });
});

describe('sampling tools mapping', () => {
  const weather = {
    name: 'get_weather',
    description: 'Weather for a city',
    inputSchema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] },
  };

  it('tools become LM tools; toolChoice auto/absent → auto, required → required, none → no tools', () => {
    const auto = buildLmRequest(
      params({ tools: [weather, { name: 'titled', title: 'A title', inputSchema: { type: 'object' } }] }),
      plainModel,
    );
    assert.deepEqual(auto.tools, [
      { name: 'get_weather', description: 'Weather for a city', inputSchema: weather.inputSchema },
      { name: 'titled', description: 'A title', inputSchema: { type: 'object' } },
    ]);
    assert.equal(auto.toolMode, 'auto');
    assert.equal(buildLmRequest(params({ tools: [weather], toolChoice: { mode: 'auto' } }), plainModel).toolMode, 'auto');
    assert.equal(buildLmRequest(params({ tools: [weather], toolChoice: { mode: 'required' } }), plainModel).toolMode, 'required');
    const none = buildLmRequest(params({ tools: [weather], toolChoice: { mode: 'none' } }), plainModel);
    assert.equal(none.tools, undefined);
    assert.equal(none.toolMode, undefined);
    assert.equal(buildLmRequest(params({}), plainModel).tools, undefined);
  });

  it('a model that declares no tool calling refuses tools; required without tools is malformed', () => {
    assert.throws(
      () => buildLmRequest(params({ tools: [weather] }), { id: 'no-tools', toolCalling: false }),
      isHostError('declined', /"no-tools" does not support tool calling/),
    );
    assert.ok(buildLmRequest(params({ tools: [weather], toolChoice: { mode: 'none' } }), { id: 'no-tools', toolCalling: false }));
    assert.throws(() => buildLmRequest(params({ toolChoice: { mode: 'required' } }), plainModel), isHostError('protocol', /required/));
  });

  it('tool_use and tool_result messages map to tool call and tool result parts', () => {
    const r = buildLmRequest(
      params({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Let me check.' },
              { type: 'tool_use', id: 'tu1', name: 'get_weather', input: { city: 'Paris' } },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                toolUseId: 'tu1',
                content: [
                  { type: 'text', text: '18°C' },
                  { type: 'resource_link', uri: 'file:///w.json', name: 'w' },
                ],
              },
              { type: 'tool_result', toolUseId: 'tu2', content: [], structuredContent: { temp: 18 }, isError: true },
            ],
          },
        ],
        tools: [weather],
      }),
      plainModel,
    );
    assert.deepEqual(r.messages[1].parts[1], { kind: 'toolCall', callId: 'tu1', name: 'get_weather', input: { city: 'Paris' } });
    assert.deepEqual(r.messages[2].parts[0], {
      kind: 'toolResult',
      callId: 'tu1',
      content: [
        { kind: 'text', text: '18°C' },
        { kind: 'text', text: '[resource link: file:///w.json (w)]' },
      ],
    });
    assert.deepEqual(r.messages[2].parts[1], {
      kind: 'toolResult',
      callId: 'tu2',
      content: [
        { kind: 'text', text: '(The tool reported an error.)' },
        { kind: 'text', text: '{"temp":18}' },
      ],
    });
  });
});
