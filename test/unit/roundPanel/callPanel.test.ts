/**
 * The round panel's logic without VS Code (src/vscode/roundPanel): round grouping and when
 * the panel renders, Submit / Decline / Cancel semantics (field cases F1-F4), URL consent (F5),
 * the sampling review, carry-over of typed values, withdrawal on abort and message checks.
 */
import assert from 'node:assert/strict';
import type { CreateMessageRequestParams, CreateMessageResult, ElicitResult } from '@modelcontextprotocol/client';
import { HostError } from '../../../src/core/util/errors';
import type { SamplingBackend, SamplingReviewRequest } from '../../../src/core/sampling/samplingFlow';
import type { FormInputView, SamplingInputView, UrlInputView } from '../../../src/vscode/roundPanel/protocol';
import { CallPanel } from '../../../src/vscode/roundPanel/callPanel';
import { ctx, F1, F2, F3, F4, FakeHost, form, formItem, round, state, urlParams } from '../../support/panels';

describe('round panel: grouping a round', () => {
  it('renders a round once, when every elicitation and the roots of the round have arrived, in the server order', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const r = round([
      ['b', 'elicitation/create'],
      ['ws', 'roots/list'],
      ['a', 'elicitation/create'],
    ]);
    void flow.elicit(form(F4), ctx(r, 'a'));
    assert.equal(host.renders.length, 0, 'not rendered before the round is complete');
    void flow.elicit(form(F1), ctx(r, 'b'));
    assert.equal(host.renders.length, 0);
    flow.showRoots({ roots: [{ uri: 'file:///w', name: 'w' }] }, ctx(r, 'ws'));
    assert.equal(host.renders.length, 1);
    const v = host.last;
    assert.deepEqual(
      v.items.map((i) => [i.key, i.kind]),
      [
        ['b', 'form'],
        ['ws', 'roots'],
        ['a', 'form'],
      ],
    );
    assert.deepEqual([v.server, v.method, v.target, v.round, v.status], ['demo', 'tools/call', 'book_table', 1, 'open']);
    assert.equal(host.renders[0].reveal, true);
    assert.equal(host.timers.length, 0, 'the grace timer was cleared');
  });

  it('shows an incomplete round after the grace time, and adds late inputs in place', () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const r = round([
      ['a', 'elicitation/create'],
      ['b', 'elicitation/create'],
    ]);
    void flow.elicit(form(F1), ctx(r, 'a'));
    assert.equal(host.renders.length, 0);
    assert.equal(host.timers.length, 1);
    host.timers[0]();
    assert.deepEqual(
      host.last.items.map((i) => i.key),
      ['a'],
    );
    void flow.elicit(form(F4), ctx(r, 'b'));
    assert.deepEqual(
      host.last.items.map((i) => i.key),
      ['a', 'b'],
    );
  });

  it('never waits for a sampling review: a placeholder holds its place, and the review takes its id', () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const r = round([
      ['s', 'sampling/createMessage'],
      ['f', 'elicitation/create'],
    ]);
    void flow.elicit(form(F1), ctx(r, 'f'));
    assert.equal(host.renders.length, 1, 'rendered at once');
    const waiting = host.last.items[0];
    assert.equal(waiting.kind, 'waiting');
    void flow.reviewSampling(samplingRequest(), backendReturning(completion('x')), ctx(r, 's')).catch(() => {});
    const review = host.last.items[0];
    assert.equal(review.kind, 'sampling');
    assert.equal(review.id, waiting.id);
    assert.equal(host.last.items[1].kind, 'form');
  });

  it('reuses the panel across rounds: the next round replaces the answered one, with a new roundSeq and reveal', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const r1 = round([['who', 'elicitation/create']], 1);
    const p1 = flow.elicit(form({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }), ctx(r1, 'who'));
    const id1 = host.last.items[0].id;
    flow.receive({ type: 'submit', forms: { [id1]: { name: 'Placeholder Person' } } });
    assert.deepEqual(await p1, { action: 'accept', content: { name: 'Placeholder Person' } });
    assert.equal(host.last.status, 'sent');
    const seq1 = host.last.roundSeq;
    const r2 = round([['room', 'elicitation/create']], 2);
    void flow.elicit(
      form({ type: 'object', properties: { room: { type: 'string', enum: ['A', 'B'] } }, required: ['room'] }),
      ctx(r2, 'room'),
    );
    const last = host.renders[host.renders.length - 1];
    assert.deepEqual(
      last.view.items.map((i) => i.key),
      ['room'],
    );
    assert.equal(last.view.round, 2);
    assert.notEqual(last.view.roundSeq, seq1);
    assert.equal(last.reveal, true);
    assert.equal(host.closed, 0, 'one panel per call: not closed between rounds');
  });

  it('keeps what the person submitted for a key and pre-fills the same key next round (a re-asked round keeps typed input)', () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', minLength: 3 }, size: { type: 'integer' } },
      required: ['name'],
    };
    const r1 = round([['k', 'elicitation/create']], 1);
    void flow.elicit(form(schema), ctx(r1, 'k'));
    flow.receive({ type: 'submit', forms: { [host.last.items[0].id]: { name: 'Ada', size: '4', stray: 'x' } } });
    const r2 = round(
      [
        ['k', 'elicitation/create'],
        ['other', 'elicitation/create'],
      ],
      2,
    );
    void flow.elicit(form(schema), ctx(r2, 'k'));
    void flow.elicit(form(schema), ctx(r2, 'other'));
    const again = formItem(host.last, 'k').fields;
    assert.deepEqual(
      again.map((f) => [f.key, f.initial, f.initialSource]),
      [
        ['name', 'Ada', 'previous'],
        ['size', 4, 'previous'],
      ],
    );
    assert.deepEqual(
      formItem(host.last, 'other').fields.map((f) => f.initial),
      [undefined, undefined],
      'another key starts empty',
    );
  });
});

describe('round panel: Submit, Decline, Cancel (F1-F4)', () => {
  function one(schema: Record<string, unknown>) {
    const host = new FakeHost();
    const flow = new CallPanel(11, host);
    const r = round([['q', 'elicitation/create']], 1, 11);
    const answer = flow.elicit(form(schema), ctx(r, 'q'));
    const id = host.last.items[0].id;
    return {
      host,
      flow,
      answer,
      id,
      submit: (values: Record<string, unknown>) => flow.receive({ type: 'submit', forms: { [id]: values } }),
    };
  }

  it('F1: empty, 0, 6, 3.5 and 3abc are refused with an error beside the field; 3 is sent as the number 3', async () => {
    const t = one(F1);
    for (const bad of ['', '0', '6', '3.5', '3abc']) {
      t.submit({ copies: bad });
      const sent = t.host.errorsSent[t.host.errorsSent.length - 1];
      assert.equal(sent.id, t.id);
      assert.ok(sent.errors.copies, `an error for ${JSON.stringify(bad)}`);
      assert.deepEqual(await state(t.answer), { done: false }, `no answer for ${JSON.stringify(bad)}`);
    }
    t.submit({ copies: '3' });
    const result = (await t.answer) as ElicitResult & { content: { copies: unknown } };
    assert.deepEqual(result, { action: 'accept', content: { copies: 3 } });
    assert.equal(typeof result.content.copies, 'number');
    assert.deepEqual(t.host.errorsSent[t.host.errorsSent.length - 1].errors, {}, 'errors cleared');
  });

  it('F1: an accept never goes out with missing required content (empty submit)', async () => {
    const t = one(F1);
    t.submit({});
    assert.deepEqual(await state(t.answer), { done: false });
  });

  it('F2: a required boolean without default blocks Submit until chosen; booleans go out as booleans', async () => {
    const t = one(F2);
    const fields = t.host.last.items[0].kind === 'form' ? t.host.last.items[0].fields : [];
    assert.deepEqual(
      fields.map((f) => [f.key, f.kind, f.initial]),
      [
        ['notify', 'boolean', false],
        ['archive', 'boolean', undefined],
      ],
    );
    t.submit({ notify: true, archive: null });
    assert.ok(t.host.errorsSent.at(-1)!.errors.archive);
    t.submit({ notify: true, archive: false });
    assert.deepEqual(await t.answer, { action: 'accept', content: { notify: true, archive: false } });
  });

  it('F3: labels are the titles; untouched defaults submit the consts; 12 is refused, 4 accepted', async () => {
    const a = one(F3);
    const fields = a.host.last.items[0].kind === 'form' ? a.host.last.items[0].fields : [];
    assert.deepEqual(
      fields[0].options?.map((o) => o.label),
      ['Europe (West)', 'US (East)', 'Asia Pacific (South)'],
    );
    assert.deepEqual(
      fields[1].options?.map((o) => o.label),
      ['Basic plan', 'Pro plan'],
    );
    a.submit(Object.fromEntries(fields.map((f) => [f.key, f.initial === undefined ? null : String(f.initial)])));
    assert.deepEqual(await a.answer, { action: 'accept', content: { region: 'us-e', tier: 'basic', replicas: 2 } });
    const b = one(F3);
    b.submit({ region: 'ap-s', tier: 'pro', replicas: '12' });
    assert.ok(b.host.errorsSent.at(-1)!.errors.replicas);
    b.submit({ region: 'ap-s', tier: 'pro', replicas: '4' });
    assert.deepEqual(await b.answer, { action: 'accept', content: { region: 'ap-s', tier: 'pro', replicas: 4 } });
  });

  it('F4 A and C: Decline answers {action: "decline"} with no content and no validation, whatever was typed', async () => {
    const t = one(F4);
    t.submit({ reason: 'ok' }); // too short: refused, stays pending
    t.flow.receive({ type: 'decline', id: t.id });
    const result = await t.answer;
    assert.deepEqual(result, { action: 'decline' });
    assert.equal('content' in result, false);
    assert.equal(t.host.last.status, 'sent');
    assert.equal((t.host.last.items[0] as FormInputView).state, 'declined');
  });

  it('F4 B: Cancel (and Escape, which sends cancel) answers {action: "cancel"} for every pending elicitation', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(1, host);
    const r = round([
      ['a', 'elicitation/create'],
      ['u', 'elicitation/create'],
    ]);
    const a = flow.elicit(form(F4), ctx(r, 'a'));
    const u = flow.elicit(urlParams('https://auth.example.test/x'), ctx(r, 'u'));
    flow.receive({ type: 'cancel' });
    assert.deepEqual(await a, { action: 'cancel' });
    assert.deepEqual(await u, { action: 'cancel' });
    assert.deepEqual(host.opened, []);
  });

  it('F4 B: closing the panel answers cancel; a late input of the cancelled round answers cancel at once', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(1, host);
    const r = round([
      ['a', 'elicitation/create'],
      ['b', 'elicitation/create'],
      ['s', 'sampling/createMessage'],
    ]);
    const a = flow.elicit(form(F4), ctx(r, 'a'));
    host.timers[0]();
    flow.closedByUser();
    assert.deepEqual(await a, { action: 'cancel' });
    assert.deepEqual(await flow.elicit(form(F4), ctx(r, 'b')), { action: 'cancel' });
    await assert.rejects(
      flow.reviewSampling(samplingRequest(), backendReturning(completion('x')), ctx(r, 's')),
      (e: unknown) => e instanceof HostError && e.kind === 'declined',
    );
  });

  it('Submit is all or nothing across the forms of a round', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(1, host);
    const r = round([
      ['a', 'elicitation/create'],
      ['b', 'elicitation/create'],
    ]);
    const a = flow.elicit(form(F1), ctx(r, 'a'));
    const b = flow.elicit(form(F4), ctx(r, 'b'));
    const [ia, ib] = host.last.items.map((i) => i.id);
    flow.receive({ type: 'submit', forms: { [ia]: { copies: '2' }, [ib]: { reason: 'no' } } });
    assert.deepEqual(await state(a), { done: false }, 'the valid form is not sent while the other is invalid');
    assert.deepEqual(
      host.errorsSent.map((e) => [e.id, Object.keys(e.errors)]),
      [
        [ia, []],
        [ib, ['reason']],
      ],
    );
    flow.receive({ type: 'submit', forms: { [ia]: { copies: '2' }, [ib]: { reason: 'because' } } });
    assert.deepEqual(await a, { action: 'accept', content: { copies: 2 } });
    assert.deepEqual(await b, { action: 'accept', content: { reason: 'because' } });
  });

  it('a form whose schema cannot be shown offers only Decline; Submit reports it and accepts nothing', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(1, host);
    const r = round([['n', 'elicitation/create']]);
    const p = flow.elicit(form({ type: 'object', properties: { addr: { type: 'object', properties: {} } } }), ctx(r, 'n'));
    const item = host.last.items[0] as FormInputView;
    assert.match(item.problem ?? '', /cannot be shown.*addr/);
    flow.receive({ type: 'submit', forms: { [item.id]: {} } });
    assert.ok(host.errorsSent.at(-1)!.errors['']);
    assert.deepEqual(await state(p), { done: false });
    flow.receive({ type: 'decline', id: item.id });
    assert.deepEqual(await p, { action: 'decline' });
  });

  it('ignores (and logs at debug) malformed messages, unknown ids and repeated answers', async () => {
    const t = one(F4);
    for (const m of [
      null,
      'submit',
      { type: 'nope' },
      { type: 'decline' },
      { type: 'decline', id: 5 },
      { type: 'decline', id: t.id, extra: 1 },
      { type: 'submit', forms: { [t.id]: { reason: { nested: true } } } },
      { type: 'decline', id: 'zzz' },
    ]) {
      t.flow.receive(m);
    }
    assert.equal(t.host.debugs.length, 8);
    assert.deepEqual(await state(t.answer), { done: false });
    t.flow.receive({ type: 'decline', id: t.id });
    t.flow.receive({ type: 'decline', id: t.id });
    t.flow.receive({ type: 'submit', forms: { [t.id]: { reason: 'long enough' } } });
    assert.deepEqual(await t.answer, { action: 'decline' });
    assert.equal(t.host.debugs.length, 10);
  });

  it('ready re-sends the current view (a reloaded webview)', () => {
    const t = one(F4);
    const n = t.host.renders.length;
    t.flow.receive({ type: 'ready' });
    assert.equal(t.host.renders.length, n + 1);
    assert.equal(t.host.renders[n].reveal, false);
  });
});

describe('round panel: URL consent (F5)', () => {
  const URL = 'https://auth.example.test/connect?session=abc123';
  function urlRound(url = URL, n = 1, flow = new CallPanel(21, new FakeHost())) {
    const host = (flow as unknown as { host: FakeHost }).host;
    const r = round([['link_acct', 'elicitation/create']], n, 21);
    const answer = flow.elicit(urlParams(url), ctx(r, 'link_acct'));
    const item = host.last.items[0] as UrlInputView;
    return { flow, host, answer, item };
  }

  it('shows the full URL with the host split out, and opens nothing before the click', async () => {
    const { host, item, answer } = urlRound();
    assert.equal(item.url, URL);
    assert.deepEqual(item.parts, { before: 'https://', host: 'auth.example.test', after: '/connect?session=abc123' });
    assert.equal(item.openable, true);
    assert.equal(item.repeated, false);
    assert.deepEqual(host.opened, []);
    assert.deepEqual(await state(answer), { done: false });
  });

  it('Open in browser opens exactly that URL once (even clicked twice), then answers accept without content', async () => {
    const { host, flow, item, answer } = urlRound();
    flow.receive({ type: 'openUrl', id: item.id });
    flow.receive({ type: 'openUrl', id: item.id });
    const result = await answer;
    assert.deepEqual(result, { action: 'accept' });
    assert.equal('content' in result, false);
    assert.deepEqual(host.opened, [URL]);
  });

  it('Decline never opens the URL', async () => {
    const { host, flow, item, answer } = urlRound();
    flow.receive({ type: 'decline', id: item.id });
    assert.deepEqual(await answer, { action: 'decline' });
    flow.receive({ type: 'openUrl', id: item.id });
    assert.deepEqual(host.opened, []);
  });

  it('a URL that is not http(s) cannot be opened', async () => {
    const { host, flow, item, answer } = urlRound('javascript:alert(1)');
    assert.equal(item.openable, false);
    flow.receive({ type: 'openUrl', id: item.id });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(host.opened, []);
    assert.deepEqual(await state(answer), { done: false });
  });

  it('when VS Code did not open it (refused or failed) the card stays pending with a note', async () => {
    for (const outcome of [false, new Error('no browser')]) {
      const t = urlRound();
      t.host.openResult = outcome;
      t.flow.receive({ type: 'openUrl', id: t.item.id });
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(await state(t.answer), { done: false });
      assert.ok((t.host.last.items[0] as UrlInputView).note);
    }
  });

  it('a re-asked URL is shown again with a note; Retry accepts without opening; nothing happens on its own', async () => {
    const first = urlRound();
    first.flow.receive({ type: 'openUrl', id: first.item.id });
    await first.answer;
    const again = urlRound(URL, 2, first.flow);
    assert.equal(again.item.repeated, true);
    assert.equal(again.item.retryable, true);
    assert.deepEqual(await state(again.answer), { done: false }, 'no automatic answer');
    assert.deepEqual(first.host.opened, [URL], 'not opened again on its own');
    first.flow.receive({ type: 'retryUrl', id: again.item.id });
    assert.deepEqual(await again.answer, { action: 'accept' });
    assert.deepEqual(first.host.opened, [URL]);
  });

  it('Retry is refused for a URL the person never opened', async () => {
    const first = urlRound();
    first.flow.receive({ type: 'decline', id: first.item.id });
    await first.answer;
    const again = urlRound(URL, 2, first.flow);
    assert.equal(again.item.repeated, true);
    assert.equal(again.item.retryable, false);
    first.flow.receive({ type: 'retryUrl', id: again.item.id });
    assert.deepEqual(await state(again.answer), { done: false });
  });
});

function samplingRequest(over: Partial<CreateMessageRequestParams> = {}): SamplingReviewRequest {
  return {
    params: {
      messages: [
        { role: 'user', content: { type: 'text', text: "Translate 'hello' to French." } },
        {
          role: 'user',
          content: [
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            { type: 'text', text: 'and this' },
          ],
        },
      ],
      systemPrompt: 'Answer with one word.',
      maxTokens: 64,
      ...over,
    },
    models: [
      { id: 'gemini-2.5-flash', name: 'Gemini Flash', family: 'gemini', vendor: 'google' },
      { id: 'claude-sonnet-4', name: 'Sonnet', family: 'claude', vendor: 'anthropic' },
    ],
    chosenModelId: 'gemini-2.5-flash',
    chosenBecause: 'hint "flash"',
  };
}

function completion(text: string): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model: 'gemini-2.5-flash', stopReason: 'endTurn' };
}

function backendReturning(
  result: CreateMessageResult | Error,
  calls: { modelId: string; params: CreateMessageRequestParams; signal: AbortSignal }[] = [],
): SamplingBackend {
  return {
    generate: (modelId, params, signal) => {
      calls.push({ modelId, params, signal });
      return result instanceof Error ? Promise.reject(result) : Promise.resolve(result);
    },
  };
}

describe('round panel: sampling review', () => {
  function sampling(backend: SamplingBackend, request = samplingRequest()) {
    const host = new FakeHost();
    const flow = new CallPanel(3, host);
    const r = round([['tr', 'sampling/createMessage']], 1, 3);
    const result = flow.reviewSampling(request, backend, ctx(r, 'tr'));
    result.catch(() => {});
    const view = () => host.last.items[0] as SamplingInputView;
    return { host, flow, result, view };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  it('shows the request as data: system prompt, messages (text, image), maxTokens, models with the chosen one', () => {
    const { view } = sampling(backendReturning(completion('Bonjour')));
    const v = view();
    assert.equal(v.stage, 'review');
    assert.equal(v.systemPrompt, 'Answer with one word.');
    assert.equal(v.maxTokens, 64);
    assert.equal(v.chosenModelId, 'gemini-2.5-flash');
    assert.deepEqual(
      v.messages[1].blocks.map((b) => b.kind),
      ['image', 'text'],
    );
  });

  it('Approve runs the chosen model with the edited prompt; Send returns the edited completion', async () => {
    const calls: Parameters<typeof backendReturning>[1] = [];
    const t = sampling(backendReturning(completion('Bonjour'), calls));
    const id = t.view().id;
    t.flow.receive({
      type: 'approve',
      id,
      modelId: 'claude-sonnet-4',
      systemPrompt: 'One word only.',
      edits: [
        { message: 0, block: 0, text: "Translate 'bye'" },
        { message: 1, block: 0, text: 'not a text block' },
      ],
    });
    assert.equal(t.view().stage, 'generating');
    await tick();
    assert.equal(calls.length, 1);
    assert.equal(calls[0].modelId, 'claude-sonnet-4');
    assert.equal(calls[0].params.systemPrompt, 'One word only.');
    assert.deepEqual((calls[0].params.messages[0] as { content: unknown }).content, { type: 'text', text: "Translate 'bye'" });
    assert.equal((calls[0].params.messages[1] as { content: { type: string }[] }).content[0].type, 'image', 'only text blocks are edited');
    assert.equal(calls[0].params.maxTokens, 64);
    assert.equal(t.view().stage, 'completion');
    assert.deepEqual(t.view().completion?.blocks, [{ kind: 'text', text: 'Bonjour' }]);
    assert.deepEqual(await state(t.result), { done: false }, 'nothing is sent before Send');
    t.flow.receive({ type: 'send', id, texts: ['Salut'] });
    assert.deepEqual(await t.result, {
      result: { role: 'assistant', content: { type: 'text', text: 'Salut' }, model: 'gemini-2.5-flash', stopReason: 'endTurn' },
      author: 'model',
      edited: true,
    });
  });

  it('Decline at the review or at the completion rejects with HostError declined', async () => {
    const a = sampling(backendReturning(completion('x')));
    a.flow.receive({ type: 'decline', id: a.view().id });
    await assert.rejects(a.result, (e: unknown) => e instanceof HostError && e.kind === 'declined');
    const b = sampling(backendReturning(completion('x')));
    b.flow.receive({ type: 'approve', id: b.view().id, modelId: 'gemini-2.5-flash', systemPrompt: 'Answer with one word.', edits: [] });
    await tick();
    b.flow.receive({ type: 'decline', id: b.view().id });
    await assert.rejects(b.result, (e: unknown) => e instanceof HostError && e.kind === 'declined');
  });

  it('Stop aborts the generation and goes back to the review; a failure is shown and Approve may be tried again', async () => {
    let signal: AbortSignal | undefined;
    const t = sampling({
      generate: (_m, _p, s) => ((signal = s), new Promise((_, reject) => s.addEventListener('abort', () => reject(s.reason)))),
    });
    const id = t.view().id;
    t.flow.receive({ type: 'approve', id, modelId: 'gemini-2.5-flash', systemPrompt: '', edits: [] });
    t.flow.receive({ type: 'stop', id });
    assert.equal(signal?.aborted, true);
    await tick();
    assert.equal(t.view().stage, 'review');
    assert.match(t.view().error ?? '', /Stopped/);
    const f = sampling(backendReturning(new HostError('declined', 'model exploded')));
    f.flow.receive({ type: 'approve', id: f.view().id, modelId: 'gemini-2.5-flash', systemPrompt: '', edits: [] });
    await tick();
    assert.equal(f.view().stage, 'review');
    assert.match(f.view().error ?? '', /model exploded/);
    assert.deepEqual(await state(f.result), { done: false });
  });

  it('refuses a model that was not offered', async () => {
    const calls: Parameters<typeof backendReturning>[1] = [];
    const t = sampling(backendReturning(completion('x'), calls));
    t.flow.receive({ type: 'approve', id: t.view().id, modelId: 'claude-opus-4', systemPrompt: '', edits: [] });
    await tick();
    assert.equal(calls.length, 0);
    assert.equal(t.view().stage, 'review');
  });

  it('does not disturb the forms of the round while it runs (their items and ids stay)', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(3, host);
    const r = round(
      [
        ['f', 'elicitation/create'],
        ['s', 'sampling/createMessage'],
      ],
      1,
      3,
    );
    const f = flow.elicit(form(F4), ctx(r, 'f'));
    const formId = host.last.items[0].id;
    void flow.reviewSampling(samplingRequest(), backendReturning(completion('x')), ctx(r, 's')).catch(() => {});
    const sId = host.last.items[1].id;
    flow.receive({ type: 'approve', id: sId, modelId: 'gemini-2.5-flash', systemPrompt: '', edits: [] });
    await tick();
    assert.equal(host.last.items[0].id, formId);
    assert.equal((host.last.items[0] as FormInputView).state, 'pending');
    flow.receive({ type: 'submit', forms: { [formId]: { reason: 'because' } } });
    assert.deepEqual(await f, { action: 'accept', content: { reason: 'because' } });
    assert.equal((host.last.items[1] as SamplingInputView).stage, 'completion', 'Submit leaves the sampling card alone');
  });
});

describe('round panel: abort and end of the call', () => {
  it('an aborted signal closes that input (removed from the view) and rejects it as cancelled', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(5, host);
    const r = round([
      ['a', 'elicitation/create'],
      ['b', 'elicitation/create'],
    ]);
    const ac = new AbortController();
    const a = flow.elicit(form(F4), ctx(r, 'a', ac.signal));
    const b = flow.elicit(form(F4), ctx(r, 'b'));
    ac.abort();
    await assert.rejects(a, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
    assert.deepEqual(
      host.last.items.map((i) => i.key),
      ['b'],
    );
    assert.deepEqual(await state(b), { done: false });
  });

  it('aborting a sampling review also aborts its generation', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(5, host);
    const r = round([['s', 'sampling/createMessage']]);
    const ac = new AbortController();
    let genSignal: AbortSignal | undefined;
    const p = flow.reviewSampling(
      samplingRequest(),
      { generate: (_m, _p, s) => ((genSignal = s), new Promise(() => {})) },
      ctx(r, 's', ac.signal),
    );
    flow.receive({ type: 'approve', id: host.last.items[0].id, modelId: 'gemini-2.5-flash', systemPrompt: '', edits: [] });
    ac.abort();
    await assert.rejects(p, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
    assert.equal(genSignal?.aborted, true);
  });

  it('end() withdraws every pending input, closes the panel, and refuses later inputs', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(5, host);
    const r = round([['a', 'elicitation/create']]);
    const a = flow.elicit(form(F4), ctx(r, 'a'));
    flow.end();
    await assert.rejects(a, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
    assert.equal(host.closed, 1);
    await assert.rejects(flow.elicit(form(F4), ctx(round([['b', 'elicitation/create']], 2), 'b')));
    const n = host.renders.length;
    flow.receive({ type: 'ready' });
    assert.equal(host.renders.length, n, 'nothing rendered after the end');
  });

  it('an already aborted signal is refused at once, with nothing shown', async () => {
    const host = new FakeHost();
    const flow = new CallPanel(5, host);
    const ac = new AbortController();
    ac.abort();
    await assert.rejects(flow.elicit(form(F4), ctx(round([['a', 'elicitation/create']]), 'a', ac.signal)));
    assert.equal(host.renders.length, 0);
  });
});
