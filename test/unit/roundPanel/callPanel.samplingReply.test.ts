/**
 * The sampling card's "Write the reply" and its models (src/vscode/roundPanel/inputs/samplingInput.ts):
 * writing, Back, an invalid reply refused with its errors by field, a tool call with arguments from
 * the tool's inputSchema, cancel while writing, no model at all, a model that cannot do the request,
 * and a model that went away.
 */
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import type { ModelOffer, SamplingBackend, SamplingReviewRequest } from '../../../src/core/sampling/samplingFlow';
import { REPLY_KEYS } from '../../../src/core/sampling/writtenReply';
import { HostError } from '../../../src/core/util/errors';
import { CallPanel } from '../../../src/vscode/roundPanel/callPanel';
import type { SamplingInputView } from '../../../src/vscode/roundPanel/protocol';
import { FakeHost, ctx, round, state } from '../../support/panels';

const WEATHER = {
  name: 'get_weather',
  description: 'Current weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const MODELS = [
  { id: 'tooler', name: 'Tooler', family: 'tooler', vendor: 'test', toolCalling: true },
  { id: 'plain', name: 'Plain', family: 'plain', vendor: 'test', toolCalling: false, unable: 'no tool calling' },
];

function request(over: Partial<SamplingReviewRequest> = {}, params: Record<string, unknown> = {}): SamplingReviewRequest {
  return {
    params: {
      messages: [{ role: 'user', content: { type: 'text', text: 'Weather in Paris?' } }],
      maxTokens: 50,
      tools: [WEATHER],
      ...params,
    } as unknown as CreateMessageRequestParams,
    models: MODELS,
    chosenModelId: 'tooler',
    chosenBecause: 'the first model that can do the request',
    ...over,
  };
}
const reply = (text: string): CreateMessageResult => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'tooler',
  stopReason: 'endTurn',
});
const backend = (over: Partial<SamplingBackend> = {}): SamplingBackend & { calls: string[] } => {
  const calls: string[] = [];
  return { calls, generate: (modelId) => (calls.push(modelId), Promise.resolve(reply(`from ${modelId}`))), ...over };
};
const tick = () => new Promise((r) => setImmediate(r));

function open(req = request(), b: SamplingBackend = backend()) {
  const host = new FakeHost();
  const flow = new CallPanel(4, host);
  const result = flow.reviewSampling(req, b, ctx(round([['s', 'sampling/createMessage']], 1, 4), 's'));
  result.catch(() => {});
  const view = () => host.last.items[0] as SamplingInputView;
  const id = view().id;
  const send = (values: Record<string, string>, args: Record<string, string> = {}) =>
    flow.receive({ type: 'sendReply', id, values: { [REPLY_KEYS.model]: 'human', [REPLY_KEYS.stopReason]: 'endTurn', ...values }, args });
  return { host, flow, result, view, id, send };
}

describe('round panel: writing the sampling reply', () => {
  it('Write the reply opens the form (tool picker from the offered tools); Back returns to the review; nothing is sent', async () => {
    const t = open();
    assert.equal(t.view().write, undefined, 'the form is built only when asked for');
    t.flow.receive({ type: 'write', id: t.id });
    assert.equal(t.view().stage, 'writing');
    assert.deepEqual(
      t.view().write?.tool?.options?.map((o) => o.label),
      ['get_weather'],
    );
    assert.deepEqual(
      t.view().write?.tools[0].fields.map((f) => f.key),
      ['city'],
    );
    t.flow.receive({ type: 'back', id: t.id });
    assert.equal(t.view().stage, 'review');
    assert.deepEqual(await state(t.result), { done: false });
  });

  it('an invalid reply is refused with its errors by field (tool arguments under "arguments/"), and the card stays open', async () => {
    const t = open();
    t.flow.receive({ type: 'write', id: t.id });
    t.send({ [REPLY_KEYS.text]: '', [REPLY_KEYS.model]: '' });
    assert.deepEqual(t.host.errorsSent.pop(), {
      id: t.id,
      errors: { [REPLY_KEYS.model]: 'Required', [REPLY_KEYS.text]: 'Write a reply, or pick a tool call.' },
    });
    t.send({ [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }, {});
    assert.deepEqual(t.host.errorsSent.pop(), { id: t.id, errors: { 'arguments/city': 'Required' } });
    assert.equal(t.view().stage, 'writing');
    assert.deepEqual(await state(t.result), { done: false });
  });

  it('a valid tool call is sent as the person\'s answer: tool_use with the typed arguments, model "human", stopReason toolUse', async () => {
    const t = open();
    t.flow.receive({ type: 'write', id: t.id });
    t.send({ [REPLY_KEYS.tool]: '0', [REPLY_KEYS.stopReason]: 'toolUse' }, { city: 'Paris' });
    const answer = await t.result;
    assert.equal(answer.author, 'person');
    assert.equal(answer.result.model, 'human');
    assert.equal(answer.result.stopReason, 'toolUse');
    const [call] = answer.result.content as unknown as { type: string; name: string; input: unknown }[];
    assert.deepEqual([call.type, call.name, call.input], ['tool_use', 'get_weather', { city: 'Paris' }]);
    assert.equal(t.view().stage, 'sent');
    assert.deepEqual(t.host.errorsSent.pop(), { id: t.id, errors: {} }, 'earlier errors are cleared');
  });

  it('cancel while writing: declined; a reply sent afterwards changes nothing', async () => {
    const t = open();
    t.flow.receive({ type: 'write', id: t.id });
    t.flow.receive({ type: 'cancel' });
    await assert.rejects(
      t.result,
      (e: unknown) => e instanceof HostError && e.kind === 'declined' && /cancelled the round/.test(e.message),
    );
    t.send({ [REPLY_KEYS.text]: 'too late' });
    assert.equal(t.view().stage, 'declined');
    assert.ok(t.host.debugs.some((d) => d.includes('ignored sendReply')));
  });

  it('no model at all: the card says so, Approve is refused, writing the reply answers', async () => {
    const b = backend();
    const t = open(
      request(
        { models: [], chosenModelId: undefined, noModel: 'No language model is available in VS Code.', chosenBecause: 'none' },
        { tools: undefined },
      ),
      b,
    );
    assert.equal(t.view().noModel, 'No language model is available in VS Code.');
    assert.equal(t.view().chosenModelId, undefined);
    t.flow.receive({ type: 'approve', id: t.id, modelId: 'tooler', systemPrompt: '', edits: [] });
    assert.deepEqual(b.calls, []);
    t.flow.receive({ type: 'write', id: t.id });
    assert.equal(t.view().write?.tool, undefined);
    t.send({ [REPLY_KEYS.text]: 'Day 1: Alfama.' });
    assert.deepEqual((await t.result).result, {
      role: 'assistant',
      content: { type: 'text', text: 'Day 1: Alfama.' },
      model: 'human',
      stopReason: 'endTurn',
    });
  });

  it('a model marked unable cannot be approved', async () => {
    const b = backend();
    const t = open(request(), b);
    t.flow.receive({ type: 'approve', id: t.id, modelId: 'plain', systemPrompt: '', edits: [] });
    await tick();
    assert.deepEqual(b.calls, []);
    assert.ok(t.host.debugs.some((d) => d.includes('cannot do this request (no tool calling)')));
  });

  it('a model that went away: the failure is shown, the models are listed again, and another can be approved', async () => {
    const after: ModelOffer = {
      models: [{ id: 'other', name: 'Other', family: 'o', vendor: 'test' }],
      chosenModelId: 'other',
      chosenBecause: 'the first model that can do the request',
    };
    let refreshed = 0;
    const b = backend({
      generate: (modelId) =>
        modelId === 'tooler'
          ? Promise.reject(new HostError('declined', 'The language model "tooler" failed: the model is no longer available'))
          : Promise.resolve(reply('from other')),
      refresh: async () => (refreshed++, after),
    });
    const t = open(request(), b);
    t.flow.receive({ type: 'approve', id: t.id, modelId: 'tooler', systemPrompt: '', edits: [] });
    await tick();
    await tick();
    assert.equal(refreshed, 1);
    assert.equal(t.view().stage, 'review');
    assert.match(t.view().error ?? '', /no longer available/);
    assert.deepEqual(
      t.view().models.map((m) => m.id),
      ['other'],
    );
    assert.equal(t.view().chosenModelId, 'other');
    t.flow.receive({ type: 'approve', id: t.id, modelId: 'other', systemPrompt: '', edits: [] });
    await tick();
    t.flow.receive({ type: 'send', id: t.id, texts: ['from other'] });
    assert.deepEqual(await t.result, { result: reply('from other'), author: 'model', edited: false });
  });

  it('Write the reply from a completion starts from its text; Back returns to the completion', async () => {
    const t = open();
    t.flow.receive({ type: 'approve', id: t.id, modelId: 'tooler', systemPrompt: '', edits: [] });
    await tick();
    assert.equal(t.view().stage, 'completion');
    t.flow.receive({ type: 'write', id: t.id });
    assert.equal(t.view().write?.text.initial, 'from tooler');
    t.flow.receive({ type: 'back', id: t.id });
    assert.equal(t.view().stage, 'completion');
  });
});
