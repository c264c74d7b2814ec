/** The sampling flow (src/core/sampling/samplingFlow.ts): F6 end to end with fake models, review, auto-approval, queue, cancel. */
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { HostError } from '../../../src/core/util/errors';
import type { InputContext } from '../../../src/core/inputs/inputProvider';
import {
  createSamplingFlow,
  type ReviewedAnswer,
  type SamplingBackend,
  type SamplingModel,
  type SamplingReviewRequest,
  type SamplingSettings,
} from '../../../src/core/sampling/samplingFlow';
import type { LmResponsePart } from '../../../src/core/sampling/lmCompletion';
import { SYSTEM_PROMPT_HEADER, type LmRequest } from '../../../src/core/sampling/lmRequest';
import { summarizeAnswer } from '../../../src/core/inputs/answers';

interface Sent {
  model: string;
  request: LmRequest;
  signal: AbortSignal;
  /** Parts the model produced. */
  yielded: number;
}

/** A fake model: replies with `reply(request)` in 3-word chunks, or hangs until aborted; counts words as tokens. */
function fakeModel(
  id: string,
  sent: Sent[],
  opts: {
    reply?: (r: LmRequest) => LmResponsePart[];
    hang?: boolean;
    fail?: boolean;
    toolCalling?: boolean;
    imageInput?: boolean;
    maxInputTokens?: number;
  } = {},
): SamplingModel {
  return {
    id,
    name: id,
    family: id,
    vendor: 'fake',
    maxInputTokens: opts.maxInputTokens ?? 100000,
    ...(opts.toolCalling !== undefined ? { toolCalling: opts.toolCalling } : {}),
    ...(opts.imageInput !== undefined ? { imageInput: opts.imageInput } : {}),
    async send(request, signal) {
      const entry: Sent = { model: id, request, signal, yielded: 0 };
      sent.push(entry);
      if (opts.fail) throw new Error('quota exceeded');
      const parts = opts.reply ? opts.reply(request) : chunks(`reply from ${id}`);
      return (async function* () {
        if (opts.hang) await new Promise((resolve) => signal.addEventListener('abort', resolve));
        for (const p of parts) {
          if (signal.aborted) return;
          entry.yielded++;
          yield p;
        }
      })();
    },
    countTokens: async (text) => (text.match(/\S+/g) ?? []).length,
  };
}
const chunks = (text: string): LmResponsePart[] =>
  (text.match(/\S+\s*/g) ?? []).reduce<LmResponsePart[]>(
    (acc, w, i) => (i % 3 === 0 ? [...acc, { kind: 'text', text: w }] : (((acc[acc.length - 1] as { text: string }).text += w), acc)),
    [],
  );
const longReply = () => chunks(Array.from({ length: 400 }, (_, i) => `w${i + 1}`).join(' '));

let flowIds = 0;
function ctxFor(server: string, key = 'tr', signal = new AbortController().signal): InputContext {
  return {
    round: { flowId: ++flowIds, server, method: 'tools/call', target: 'translate', round: 1, inputs: [], era: 'modern' },
    key,
    signal,
  };
}

// F6 request (key "tr").
const F6_PARAMS = {
  messages: [{ role: 'user', content: { type: 'text', text: "Translate 'hello' to French." } }],
  systemPrompt: 'Answer with one word.',
  modelPreferences: { hints: [{ name: 'FLASH' }, { name: 'sonnet' }], speedPriority: 0.9 },
  maxTokens: 64,
} as CreateMessageRequestParams;
const F6_SETTINGS: SamplingSettings = {
  allowedModels: ['gpt-4.1', 'claude-sonnet-4', 'gemini-2.5-flash'],
  autoApprove: {},
  defaultModel: 'claude-sonnet-4',
};

interface ReviewCall {
  request: SamplingReviewRequest;
  backend: SamplingBackend;
  ctx: InputContext;
  sentBefore: number;
}

function setup(
  options: {
    settings?: Partial<SamplingSettings>;
    models?: (sent: Sent[]) => SamplingModel[];
    review?: (call: ReviewCall) => Promise<CreateMessageResult | ReviewedAnswer>;
  } = {},
) {
  const sent: Sent[] = [];
  const reviews: ReviewCall[] = [];
  const logs: string[] = [];
  const defaults = ['gpt-4.1', 'claude-sonnet-4', 'gemini-2.5-flash', 'claude-opus-4'].map((id) => fakeModel(id, sent));
  // Listed again for each request (and each refresh), as VS Code's models are.
  const flow = createSamplingFlow({
    listModels: async () => (options.models ? options.models(sent) : defaults),
    settings: () => ({ ...F6_SETTINGS, ...options.settings }),
    review: (request, backend, ctx) => {
      const call = { request, backend, ctx, sentBefore: sent.length };
      reviews.push(call);
      // Default review: the person approves the prompt as shown, then the completion.
      const answer = options.review ? options.review(call) : backend.generate(request.chosenModelId!, request.params, ctx.signal);
      return answer.then((a) => ('author' in a ? (a as ReviewedAnswer) : { result: a, author: 'model' as const }));
    },
    log: { info: (t) => logs.push(t), warn: (t) => logs.push(t) },
  });
  return { flow, sent, reviews, logs };
}

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
};
const tick = () => new Promise((r) => setImmediate(r));

describe('sampling flow (F6)', () => {
  it('main case: reviewed before anything is sent, answered by gemini-2.5-flash, maxTokens ≤ 64, system prompt first', async () => {
    const { flow, sent, reviews } = setup();
    const result = await flow.sample(F6_PARAMS, ctxFor('translator'));
    assert.equal(reviews.length, 1);
    const review = reviews[0];
    assert.equal(review.sentBefore, 0); // the person saw the prompt before any model request
    assert.equal(review.request.params.systemPrompt, 'Answer with one word.');
    assert.deepEqual(review.request.params.messages, F6_PARAMS.messages);
    assert.equal(review.request.chosenModelId, 'gemini-2.5-flash');
    assert.deepEqual(
      review.request.models.map((m) => m.id),
      ['gemini-2.5-flash', 'gpt-4.1', 'claude-sonnet-4'],
    );
    assert.ok(review.request.models.every((m) => !('send' in m))); // plain data for the webview

    assert.equal(result.model, 'gemini-2.5-flash');
    assert.equal(result.role, 'assistant');
    assert.equal((result.content as { type: string }).type, 'text');
    assert.equal(result.stopReason, 'endTurn');

    assert.equal(sent.length, 1);
    assert.equal(sent[0].model, 'gemini-2.5-flash');
    assert.ok(sent[0].request.modelOptions.maxTokens <= 64);
    assert.equal(sent[0].request.modelOptions.maxTokens, 64);
    const first = sent[0].request.messages[0];
    assert.equal(first.role, 'user');
    assert.deepEqual(first.parts, [{ kind: 'text', text: `${SYSTEM_PROMPT_HEADER}\nAnswer with one word.` }]);
  });

  it('no match (ultra-9000) and not allowed (opus): the priorities decide (speed → gemini-2.5-flash), else the default claude-sonnet-4', async () => {
    for (const hint of ['ultra-9000', 'opus']) {
      const { flow, sent, logs } = setup();
      const fast = await flow.sample(
        { ...F6_PARAMS, modelPreferences: { hints: [{ name: hint }], speedPriority: 0.9 } },
        ctxFor('translator'),
      );
      assert.equal(fast.model, 'gemini-2.5-flash', hint);
      const r = await flow.sample({ ...F6_PARAMS, modelPreferences: { hints: [{ name: hint }] } }, ctxFor('translator'));
      assert.equal(r.model, 'claude-sonnet-4', hint);
      assert.deepEqual(
        sent.map((s) => s.model),
        ['gemini-2.5-flash', 'claude-sonnet-4'],
      );
      if (hint === 'opus') assert.ok(logs.some((l) => l.includes('hint "opus"') && l.includes('not allowed')));
    }
  });

  it('the model stops for length: stopReason maxTokens, reply cut to 64 tokens, model request cancelled', async () => {
    const { flow, sent } = setup({ models: (s) => [fakeModel('gemini-2.5-flash', s, { reply: longReply })] });
    const r = await flow.sample(F6_PARAMS, ctxFor('translator'));
    assert.equal(r.stopReason, 'maxTokens');
    const text = (r.content as { text: string }).text;
    assert.equal((text.match(/\S+/g) ?? []).length, 64);
    assert.ok(sent[0].yielded < longReply().length / 2, `${sent[0].yielded} parts produced`); // the rest of the reply is not produced
  });
});

describe('sampling flow: review, auto-approval, limits', () => {
  it('the review backend refuses models outside the allow-list and never raises maxTokens', async () => {
    const { flow, sent } = setup({
      review: async ({ backend, ctx }) => {
        await assert.rejects(
          backend.generate('claude-opus-4', F6_PARAMS, ctx.signal),
          (e: unknown) => e instanceof HostError && e.kind === 'declined' && /not allowed/.test(e.message),
        );
        // The person edits the prompt and tries a bigger limit, and picks another allowed model.
        return backend.generate('gpt-4.1', { ...F6_PARAMS, systemPrompt: 'Two words.', maxTokens: 5000 }, ctx.signal);
      },
    });
    const r = await flow.sample(F6_PARAMS, ctxFor('translator'));
    assert.equal(r.model, 'gpt-4.1');
    assert.deepEqual(
      sent.map((s) => s.model),
      ['gpt-4.1'],
    );
    assert.equal(sent[0].request.modelOptions.maxTokens, 64);
    assert.match((sent[0].request.messages[0].parts[0] as { text: string }).text, /Two words\.$/);
  });

  it('declined in the review: the HostError propagates', async () => {
    const { flow, sent } = setup({ review: async () => Promise.reject(new HostError('declined', 'You declined the sampling request.')) });
    await assert.rejects(flow.sample(F6_PARAMS, ctxFor('translator')), (e: unknown) => e instanceof HostError && e.kind === 'declined');
    assert.equal(sent.length, 0);
  });

  it('auto-approval (autoApprove[server] === true): no review, logged', async () => {
    const { flow, reviews, logs, sent } = setup({ settings: { autoApprove: { translator: true, other: 'true' } } });
    const r = await flow.sample(F6_PARAMS, ctxFor('translator'));
    assert.equal(reviews.length, 0);
    assert.equal(r.model, 'gemini-2.5-flash');
    assert.equal(sent.length, 1);
    assert.ok(logs.some((l) => l.includes('[translator]') && l.includes('auto-approved')));
    // Only a real `true` skips the review.
    await flow.sample(F6_PARAMS, ctxFor('other'));
    assert.equal(reviews.length, 1);
  });

  it('a malformed request fails before the review opens', async () => {
    const { flow, reviews } = setup();
    await assert.rejects(
      flow.sample({ ...F6_PARAMS, maxTokens: undefined } as never, ctxFor('s')),
      (e: unknown) => e instanceof HostError && e.kind === 'protocol' && /maxTokens/.test(e.message),
    );
    assert.equal(reviews.length, 0);
  });

  it('a failing model request becomes a HostError naming the model', async () => {
    const { flow } = setup({ settings: { autoApprove: { s: true } }, models: (s) => [fakeModel('gemini-2.5-flash', s, { fail: true })] });
    await assert.rejects(
      flow.sample(F6_PARAMS, ctxFor('s')),
      (e: unknown) => e instanceof HostError && e.kind === 'declined' && /"gemini-2\.5-flash" failed: quota exceeded/.test(e.message),
    );
  });

  it('tools: tool calls come back as tool_use blocks with stopReason toolUse (never run)', async () => {
    const { flow, sent } = setup({
      settings: { autoApprove: { s: true }, allowedModels: [] },
      models: (s) => [
        fakeModel('tool-model', s, {
          toolCalling: true,
          reply: () => [
            { kind: 'text', text: 'Checking.' },
            { kind: 'toolCall', callId: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        }),
      ],
    });
    const r = await flow.sample(
      {
        ...F6_PARAMS,
        modelPreferences: undefined,
        tools: [{ name: 'get_weather', description: 'Weather', inputSchema: { type: 'object' } }],
        toolChoice: { mode: 'required' },
      },
      ctxFor('s'),
    );
    assert.equal(r.stopReason, 'toolUse');
    assert.deepEqual(r.content, [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    assert.equal(sent[0].request.toolMode, 'required');
    assert.deepEqual(
      sent[0].request.tools?.map((t) => t.name),
      ['get_weather'],
    );
  });

  it('cancel (ctx.signal) stops a running model request', async () => {
    const { flow, sent } = setup({
      settings: { autoApprove: { s: true } },
      models: (s) => [fakeModel('gemini-2.5-flash', s, { hang: true })],
    });
    const ac = new AbortController();
    const p = flow.sample(F6_PARAMS, ctxFor('s', 'tr', ac.signal));
    while (!sent.length) await tick();
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
    assert.ok(sent[0].signal.aborted);
  });
});

describe('sampling rate limit: one review per server, FIFO', () => {
  it('a second request of the same server waits for the first; another server does not', async () => {
    const gates: { resolve: (r: CreateMessageResult) => void }[] = [];
    const { flow, reviews, logs } = setup({
      review: () => {
        const d = deferred<CreateMessageResult>();
        gates.push(d);
        return d.promise;
      },
    });
    const answer = (n: number): CreateMessageResult => ({
      role: 'assistant',
      content: { type: 'text', text: `answer ${n}` },
      model: 'gpt-4.1',
    });
    const p1 = flow.sample(F6_PARAMS, ctxFor('A', 'k1'));
    const p2 = flow.sample(F6_PARAMS, ctxFor('A', 'k2'));
    const p3 = flow.sample(F6_PARAMS, ctxFor('B', 'k3'));
    while (reviews.length < 2) await tick();
    await tick();
    assert.deepEqual(
      reviews.map((r) => r.ctx.key),
      ['k1', 'k3'],
    );
    assert.ok(logs.some((l) => l.includes('"k2" waits')));
    gates[0].resolve(answer(1));
    assert.equal(((await p1).content as { text: string }).text, 'answer 1');
    while (reviews.length < 3) await tick();
    assert.equal(reviews[2].ctx.key, 'k2');
    gates[1].resolve(answer(3));
    gates[2].resolve(answer(2));
    assert.equal(((await p2).content as { text: string }).text, 'answer 2');
    assert.equal(((await p3).content as { text: string }).text, 'answer 3');
  });
});

describe('sampling flow: models that cannot do the request, and replies written by a person', () => {
  const TOOL_PARAMS = {
    ...F6_PARAMS,
    modelPreferences: undefined,
    tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }],
  } as CreateMessageRequestParams;
  const line = (r: CreateMessageResult) => summarizeAnswer({ key: 'tr', method: 'sampling/createMessage', params: {} }, r);
  const written = (text: string): ReviewedAnswer => ({
    result: { role: 'assistant', content: { type: 'text', text }, model: 'human', stopReason: 'endTurn' },
    author: 'person',
  });

  it('tools, no hints: the review is pre-set to the tool-calling model, the others are offered marked unable, and the backend refuses them', async () => {
    const { flow, reviews, sent, logs } = setup({
      settings: { allowedModels: [] },
      models: (s) => [fakeModel('plain', s, { toolCalling: false }), fakeModel('tooler', s, { toolCalling: true })],
      review: async ({ request, backend, ctx }) => {
        await assert.rejects(
          backend.generate('plain', request.params, ctx.signal),
          (e: unknown) => e instanceof HostError && e.kind === 'declined' && /cannot do this request: no tool calling/.test(e.message),
        );
        return backend.generate(request.chosenModelId!, request.params, ctx.signal);
      },
    });
    const r = await flow.sample(TOOL_PARAMS, ctxFor('s'));
    const req = reviews[0].request;
    assert.equal(req.chosenModelId, 'tooler');
    assert.deepEqual(
      req.models.map((x) => [x.id, x.unable]),
      [
        ['tooler', undefined],
        ['plain', 'no tool calling'],
      ],
    );
    assert.equal(req.noModel, undefined);
    assert.deepEqual(
      sent.map((x) => x.model),
      ['tooler'],
    );
    assert.ok(logs.some((l) => l.includes('cannot do this request: plain (no tool calling)')));
    assert.match(
      line(r),
      /; answered by model tooler, chosen by the first model that can do the request \(1 allowed model\(s\) cannot do this request\)$/,
    );
  });

  it("a prompt longer than a model's input limit (counted with its tokenizer): that model is unable", async () => {
    const { flow, reviews } = setup({
      settings: { allowedModels: [] },
      models: (s) => [fakeModel('tiny', s, { maxInputTokens: 3 }), fakeModel('roomy', s)],
    });
    await flow.sample(F6_PARAMS, ctxFor('s'));
    assert.equal(reviews[0].request.chosenModelId, 'roomy');
    assert.match(reviews[0].request.models.find((x) => x.id === 'tiny')?.unable ?? '', /^prompt too long \(\d+ tokens, limit 3\)$/);
  });

  it('no model available: the review still opens, says so, proposes none, and a written reply is the answer', async () => {
    const { flow, reviews, sent } = setup({ models: () => [], review: async () => written('Day 1: Alfama.') });
    const r = await flow.sample(F6_PARAMS, ctxFor('translator'));
    const req = reviews[0].request;
    assert.equal(req.chosenModelId, undefined);
    assert.deepEqual(req.models, []);
    assert.match(req.noModel ?? '', /No language model is available/);
    assert.equal(r.model, 'human');
    assert.equal(sent.length, 0);
    assert.match(
      line(r),
      /^model human, text 14 chars, stopReason endTurn; written by a person in the review card \(no allowed model could answer\)$/,
    );
  });

  it('audio: no model can take it, but the review opens for the person to answer', async () => {
    const { flow, reviews } = setup({ review: async () => written('It says hello.') });
    const audio = {
      ...F6_PARAMS,
      messages: [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }],
    } as CreateMessageRequestParams;
    assert.equal((await flow.sample(audio, ctxFor('s'))).model, 'human');
    assert.match(reviews[0].request.noModel ?? '', /needs audio input/);
    assert.ok(reviews[0].request.models.every((x) => x.unable === 'no audio input'));
  });

  it('auto-approved server, but no model can: the review opens instead of failing the call', async () => {
    const { flow, reviews, logs } = setup({
      settings: { autoApprove: { s: true }, allowedModels: [] },
      models: (s) => [fakeModel('plain', s, { toolCalling: false })],
      review: async () => written('x'),
    });
    await flow.sample(TOOL_PARAMS, ctxFor('s'));
    assert.equal(reviews.length, 1);
    assert.ok(logs.some((l) => l.includes('not auto-approved, as no model can answer')));
  });

  it('the log note says when the person picked another model, or edited the completion, or wrote the reply instead', async () => {
    const picked = setup({ review: ({ backend, ctx }) => backend.generate('gpt-4.1', F6_PARAMS, ctx.signal) });
    assert.match(
      line(await picked.flow.sample(F6_PARAMS, ctxFor('t'))),
      /answered by model gpt-4\.1, picked in the review \(proposed: gemini-2\.5-flash, by hint "FLASH"\)$/,
    );
    const edited = setup({
      review: async ({ request, backend, ctx }) => ({
        result: await backend.generate(request.chosenModelId!, F6_PARAMS, ctx.signal),
        author: 'model',
        edited: true,
      }),
    });
    assert.match(
      line(await edited.flow.sample(F6_PARAMS, ctxFor('t'))),
      /answered by model gemini-2\.5-flash, chosen by hint "FLASH", completion edited in the review$/,
    );
    const instead = setup({ review: async () => written('oui') });
    assert.match(
      line(await instead.flow.sample(F6_PARAMS, ctxFor('t'))),
      /written by a person in the review card \(proposed: model gemini-2\.5-flash, by hint "FLASH"\)$/,
    );
  });

  it('refresh: after a model went away, the models are listed and judged again', async () => {
    let listed = ['tooler', 'other-tooler'];
    const { flow, reviews } = setup({
      settings: { allowedModels: [] },
      models: (s) => listed.map((id) => fakeModel(id, s, { toolCalling: true })),
      review: async ({ backend, ctx }) => {
        listed = listed.slice(1);
        const offer = await backend.refresh!(ctx.signal);
        assert.deepEqual(
          offer.models.map((x) => x.id),
          ['other-tooler'],
        );
        assert.equal(offer.chosenModelId, 'other-tooler');
        await assert.rejects(backend.generate('tooler', TOOL_PARAMS, ctx.signal), /not offered/);
        return backend.generate('other-tooler', TOOL_PARAMS, ctx.signal);
      },
    });
    assert.equal((await flow.sample(TOOL_PARAMS, ctxFor('s'))).model, 'other-tooler');
    assert.equal(reviews[0].request.chosenModelId, 'tooler');
  });
});
