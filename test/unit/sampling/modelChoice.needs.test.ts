/**
 * Model choice by what the request needs (src/core/sampling/modelNeeds.ts and chooseModel): tool
 * calling, image input, audio, the prompt against the input limit; then hints, priorities, the
 * user's default and the allow-list among the models that can do the request.
 */
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { chooseModel, describeChoice } from '../../../src/core/sampling/modelChoice';
import { type ModelInfo } from '../../../src/core/sampling/modelNeeds';
import { measurePrompt, requestNeeds, unableReason, type CountingModel } from '../../../src/core/sampling/modelNeeds';
import { HostError } from '../../../src/core/util/errors';

const m = (id: string, extra: Partial<ModelInfo> = {}): ModelInfo => ({ id, name: id, family: id, vendor: 'test', ...extra });
const ids = (list: ModelInfo[]) => list.map((x) => x.id);
const text = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });
const params = (over: Record<string, unknown> = {}) =>
  ({ messages: [text('hello')], maxTokens: 50, ...over }) as unknown as CreateMessageRequestParams;
const TOOLS = { tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }] };
const IMAGE = {
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
    },
  ],
};

// As VS Code lists them: the first one can neither call tools nor see images.
const PLAIN = m('plain-flash', { toolCalling: false, imageInput: false });
const VISION = m('vision-4.1', { toolCalling: false, imageInput: true });
const TOOLER = m('tooler-sonnet', { toolCalling: true, imageInput: false });
const BOTH = m('both-opus', { toolCalling: true, imageInput: true });
const LISTED = [PLAIN, VISION, TOOLER, BOTH];

describe('model choice: what the request needs', () => {
  it('tools offered, no hints: a tool-calling model is pre-selected; the others are marked "no tool calling" and listed last', () => {
    const needs = requestNeeds(params(TOOLS));
    assert.equal(needs.toolCalling, true);
    const c = chooseModel(LISTED, undefined, { needs });
    assert.equal(c.model?.id, 'tooler-sonnet');
    assert.equal(c.reason, 'first');
    assert.deepEqual(
      [...c.unable],
      [
        ['plain-flash', 'no tool calling'],
        ['vision-4.1', 'no tool calling'],
      ],
    );
    assert.deepEqual(ids(c.candidates), ['tooler-sonnet', 'both-opus', 'plain-flash', 'vision-4.1']);
    assert.equal(c.noModel, undefined);
  });

  it('image content: an image-input model is pre-selected (also for an image inside a tool result)', () => {
    assert.equal(chooseModel(LISTED, undefined, { needs: requestNeeds(params(IMAGE)) }).model?.id, 'vision-4.1');
    const inResult = params({
      messages: [
        { role: 'assistant', content: { type: 'tool_use', id: 'c1', name: 'shot', input: {} } },
        {
          role: 'user',
          content: { type: 'tool_result', toolUseId: 'c1', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
        },
      ],
    });
    assert.equal(requestNeeds(inResult).imageInput, true);
    const c = chooseModel(LISTED, undefined, { needs: requestNeeds(inResult) });
    assert.equal(c.model?.id, 'vision-4.1');
    assert.equal(c.unable.get('tooler-sonnet'), 'no image input');
  });

  it('tools and an image: only a model with both', () => {
    assert.equal(chooseModel(LISTED, undefined, { needs: requestNeeds(params({ ...TOOLS, ...IMAGE })) }).model?.id, 'both-opus');
  });

  it('toolChoice "none" offers no tool: any model will do', () => {
    const needs = requestNeeds(params({ ...TOOLS, toolChoice: { mode: 'none' } }));
    assert.equal(needs.toolCalling, false);
    assert.equal(chooseModel(LISTED, undefined, { needs }).model?.id, 'plain-flash');
  });

  it('unknown capabilities follow the request mapping: tools are tried (only false refuses), images are not (only true takes them)', () => {
    const unknown = m('unknown');
    assert.equal(unableReason(unknown, requestNeeds(params(TOOLS))), undefined);
    assert.equal(unableReason(unknown, requestNeeds(params(IMAGE))), 'no image input');
  });

  it("a prompt longer than a model's input limit: that model is unable, with the counts", () => {
    const small = m('small-mini', { maxInputTokens: 10 });
    const big = m('big', { maxInputTokens: 1000 });
    const c = chooseModel(
      [small, big],
      { speedPriority: 1 },
      { needs: requestNeeds(params()), promptTokens: new Map([['small-mini', 42]]) },
    );
    assert.equal(c.model?.id, 'big', 'speed would pick the small model, but the prompt does not fit it');
    assert.equal(c.unable.get('small-mini'), 'prompt too long (42 tokens, limit 10)');
  });

  it('audio: no VS Code model can take it; noModel names audio input', () => {
    const c = chooseModel(LISTED, undefined, {
      needs: requestNeeds(params({ messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }] })),
    });
    assert.equal(c.model, undefined);
    assert.equal(c.reason, 'none');
    assert.match(c.noModel ?? '', /needs audio input/);
    assert.equal(c.unable.size, 4);
  });
});

describe("model choice: the server's preferences among the able models", () => {
  const needs = requestNeeds(params(TOOLS));

  it('hints in order: a hint naming only an unable model is passed over (and reported), the next one decides', () => {
    const c = chooseModel(LISTED, { hints: [{ name: 'flash' }, { name: 'opus' }] }, { needs });
    assert.equal(c.model?.id, 'both-opus');
    assert.equal(c.reason, 'hint');
    assert.equal(c.hint, 'opus');
    assert.deepEqual(c.unableHints, ['flash']);
  });

  it('priorities only among able models: speed picks the fastest model that can call tools', () => {
    const fast = m('fast-mini', { toolCalling: false });
    const c = chooseModel([fast, TOOLER, BOTH], { speedPriority: 1 }, { needs });
    assert.equal(c.model?.id, 'tooler-sonnet', 'the mini is faster but cannot call tools; sonnet (medium) beats opus (large)');
    assert.equal(c.reason, 'priorities');
    assert.equal(chooseModel([fast, TOOLER, BOTH], { intelligencePriority: 1 }, { needs }).model?.id, 'both-opus');
  });

  it('the user default applies only when it can do the request', () => {
    assert.equal(chooseModel(LISTED, undefined, { needs, defaultModel: 'plain-flash' }).model?.id, 'tooler-sonnet');
    const c = chooseModel(LISTED, undefined, { needs, defaultModel: 'both-opus' });
    assert.equal(c.model?.id, 'both-opus');
    assert.equal(c.reason, 'default');
  });

  it('the allow-list still applies: when only non-tool models are allowed, none is able and noModel says what is missing', () => {
    const c = chooseModel(LISTED, undefined, { needs, allowList: ['plain-flash', 'vision-4.1'] });
    assert.equal(c.model, undefined);
    assert.deepEqual(ids(c.candidates), ['plain-flash', 'vision-4.1'], 'the unable models are still shown, a disallowed one never');
    assert.match(c.noModel ?? '', /^No allowed language model can do this request, which needs tool calling \(it offers tools\)\./);
    assert.match(c.noModel ?? '', /plain-flash: no tool calling; vision-4\.1: no tool calling\.$/);
    // A tool-calling model is chosen whenever one is allowed.
    assert.equal(chooseModel(LISTED, undefined, { needs, allowList: ['plain-flash', 'both-opus'] }).model?.id, 'both-opus');
  });

  it('describeChoice says why, for the log and the card', () => {
    const prefs = { hints: [{ name: 'zzz' }], speedPriority: 0.4, costPriority: 0 };
    assert.equal(
      describeChoice(chooseModel(LISTED, prefs, { needs }), prefs),
      "the server's priorities (speed 0.4) (2 allowed model(s) cannot do this request)",
    );
    assert.equal(
      describeChoice(chooseModel(LISTED, { hints: [{ name: 'opus' }] }, { needs }), undefined),
      'hint "opus" (2 allowed model(s) cannot do this request)',
    );
    assert.equal(
      describeChoice(chooseModel([BOTH], undefined, { defaultModel: 'both-opus' }), undefined),
      'your default model (mcpRoundtrip.sampling.defaultModel)',
    );
  });
});

describe('measuring the prompt against input limits', () => {
  const counting = (
    id: string,
    maxInputTokens: number,
    count: (text: string, signal: AbortSignal) => Promise<number>,
    calls: string[],
  ): CountingModel => ({
    ...m(id, { maxInputTokens }),
    countTokens: (t, s) => (calls.push(id), count(t, s)),
  });
  const words = async (t: string) => (t.match(/\S+/g) ?? []).length;

  it("counts only for models whose limit the prompt's bytes exceed, with their own tokenizer", async () => {
    const calls: string[] = [];
    const prompt = 'one two three four five six seven eight nine ten eleven twelve';
    const got = await measurePrompt(
      [counting('tiny', 5, words, calls), counting('roomy', 10_000, words, calls)],
      prompt,
      new AbortController().signal,
    );
    assert.deepEqual(calls, ['tiny']);
    assert.deepEqual([...got], [['tiny', 12]]);
  });

  it('a tokenizer that fails or never answers leaves the model out (it counts as fitting), within the time bound', async () => {
    const calls: string[] = [];
    const hang = () => new Promise<number>(() => {});
    const fail = () => Promise.reject(new Error('no tokenizer'));
    const got = await measurePrompt(
      [counting('hangs', 1, hang, calls), counting('fails', 1, fail, calls), counting('ok', 1, words, calls)],
      'a b c',
      new AbortController().signal,
      50,
    );
    assert.deepEqual([...got], [['ok', 3]]);
  });

  it('cancelled while counting: HostError cancelled', async () => {
    const ac = new AbortController();
    const p = measurePrompt([counting('hangs', 1, () => new Promise<number>(() => {}), [])], 'a b c', ac.signal);
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
  });
});
