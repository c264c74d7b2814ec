/**
 * What a round panel is given to draw (src/vscode/roundPanel/shownView.ts): the server's display text
 * cut, its values whole.
 */
import assert from 'node:assert/strict';
import type { ArgumentsView, RoundView, SamplingInputView } from '../../../src/vscode/roundPanel/protocol';
import { MAX_SHOWN_PANEL_LABEL, MAX_SHOWN_PANEL_TEXT, shownErrors, shownView } from '../../../src/vscode/roundPanel/shownView';

const BIG = 'x'.repeat(1_000_000);
const cutText = `${'x'.repeat(MAX_SHOWN_PANEL_TEXT)} … (${BIG.length - MAX_SHOWN_PANEL_TEXT} more characters)`;
const cutLabel = `${'x'.repeat(MAX_SHOWN_PANEL_LABEL)} … (${BIG.length - MAX_SHOWN_PANEL_LABEL} more characters)`;

const sampling = {
  kind: 'sampling',
  id: 's',
  key: 's',
  stage: 'review',
  systemPrompt: BIG,
  messages: [{ role: 'user', blocks: [{ kind: 'text', text: BIG }] }],
  models: [],
} as SamplingInputView;

const round: RoundView = {
  kind: 'round',
  server: BIG,
  method: 'tools/call',
  target: BIG,
  round: 1,
  roundSeq: 1,
  era: 'modern',
  status: 'open',
  items: [
    {
      kind: 'form',
      id: 'f',
      key: 'k',
      message: BIG,
      state: 'pending',
      fields: [
        {
          key: BIG,
          label: BIG,
          description: BIG,
          required: true,
          kind: 'select',
          options: [
            { value: BIG, label: BIG },
            { value: 'a', label: 'A' },
          ],
          initial: BIG,
        },
      ],
    },
    {
      kind: 'url',
      id: 'u',
      key: 'u',
      message: BIG,
      url: `https://example.com/${BIG}`,
      parts: { before: 'https://', host: 'example.com', after: `/${BIG}` },
      warnings: [],
      openable: true,
      repeated: false,
      retryable: false,
      state: 'pending',
    },
    sampling,
  ],
};

describe('shownView (what a round panel draws)', () => {
  it("cuts a round's messages, labels, descriptions and choice labels, and the URL after its host", () => {
    const v = shownView(round);
    const [form, url] = v.items as [
      Extract<RoundView['items'][number], { kind: 'form' }>,
      Extract<RoundView['items'][number], { kind: 'url' }>,
    ];
    assert.equal(v.server, cutLabel);
    assert.equal(v.target, cutLabel);
    assert.equal(form.message, cutText);
    assert.equal(form.fields[0].label, cutLabel);
    assert.equal(form.fields[0].description, cutText);
    assert.deepEqual(
      form.fields[0].options?.map((o) => o.label),
      [cutLabel, 'A'],
    );
    assert.equal(url.message, cutText);
    assert.equal(url.parts.host, 'example.com', 'a host of ordinary length is whole');
    assert.equal(url.parts.after.length, MAX_SHOWN_PANEL_TEXT + ` … (${BIG.length + 1 - MAX_SHOWN_PANEL_TEXT} more characters)`.length);
  });

  it('keeps values whole: field keys, choice values, defaults, the URL that opens, and sampling content', () => {
    const v = shownView(round);
    const [form, url, s] = v.items as [
      Extract<RoundView['items'][number], { kind: 'form' }>,
      Extract<RoundView['items'][number], { kind: 'url' }>,
      SamplingInputView,
    ];
    assert.equal(form.fields[0].key, BIG);
    assert.equal(form.fields[0].options?.[0].value, BIG);
    assert.equal(form.fields[0].initial, BIG);
    assert.equal(url.url, `https://example.com/${BIG}`);
    assert.equal(s.systemPrompt, BIG, "a sampling request's system prompt is sent on as it is");
    assert.deepEqual(s.messages, sampling.messages, 'and so are its messages');
  });

  it("cuts an arguments form's title, description and fields", () => {
    const args: ArgumentsView = {
      kind: 'arguments',
      server: 'demo',
      argKind: 'tool',
      name: 'n',
      title: BIG,
      description: BIG,
      fields: [{ key: 'j', label: BIG, description: BIG, required: false, kind: 'json', schema: {}, reason: 'r', initial: BIG }],
    };
    const v = shownView(args);
    assert.equal(v.title, cutLabel);
    assert.equal(v.description, cutText);
    assert.equal(v.fields[0].label, cutLabel);
    assert.equal(v.fields[0].description, cutText);
    assert.equal((v.fields[0] as { initial?: string }).initial, BIG, 'the JSON text to start with is a value');
  });

  it("cuts what else a round draws: the inputs' keys, a form's problem, a JSON field's reason, the URL's host and warnings", () => {
    const v = shownView({
      ...round,
      items: [
        { kind: 'form', id: 'f', key: BIG, message: 'm', state: 'pending', problem: BIG, fields: [] },
        {
          kind: 'url',
          id: 'u',
          key: 'u',
          message: 'm',
          url: 'https://x/',
          parts: { before: 'https://', host: BIG, after: '/' },
          warnings: [BIG],
          openable: true,
          repeated: false,
          retryable: false,
          state: 'pending',
        },
        { kind: 'waiting', id: 'w', key: BIG, method: 'sampling/createMessage' },
      ],
    });
    const [form, url, waiting] = v.items as [
      Extract<RoundView['items'][number], { kind: 'form' }>,
      Extract<RoundView['items'][number], { kind: 'url' }>,
      Extract<RoundView['items'][number], { kind: 'waiting' }>,
    ];
    assert.equal(form.key, cutLabel);
    assert.equal(form.problem, cutText);
    assert.equal(url.parts.host, cutLabel);
    assert.deepEqual(url.warnings, [cutText]);
    assert.equal(waiting.key, cutLabel);
    const args = shownView({
      kind: 'arguments',
      server: 's',
      argKind: 'tool',
      name: 'n',
      fields: [{ key: 'j', label: 'J', required: false, kind: 'json', schema: {}, reason: BIG }],
    });
    assert.equal((args.fields[0] as { reason: string }).reason, cutText);
  });

  it("cuts what a sampling review only shows (tools, roles, hints, stop sequences, the written reply's tools) and keeps what it sends on", () => {
    const field = { key: 'a', label: BIG, description: BIG, required: false, kind: 'text' as const };
    const review = {
      ...sampling,
      key: BIG,
      messages: [{ role: BIG, blocks: [{ kind: 'text' as const, text: BIG }] }],
      stopSequences: [BIG],
      tools: [{ name: BIG, description: BIG }],
      hints: [BIG],
      write: {
        text: field,
        model: field,
        stopReason: field,
        tools: [{ name: BIG, description: BIG, fields: [field] }],
        toolsLeftOut: 0,
        toolRequired: false,
      },
    } as SamplingInputView;
    const v = shownView({ ...round, items: [review] }).items[0];
    assert.equal(v.key, cutLabel);
    assert.equal(v.messages[0].role, cutLabel);
    assert.deepEqual(v.stopSequences, [cutLabel]);
    assert.deepEqual(v.tools, [{ name: cutLabel, description: cutText }]);
    assert.deepEqual(v.hints, [cutLabel]);
    assert.equal(v.write?.tools[0].name, cutLabel);
    assert.equal(v.write?.tools[0].fields[0].label, cutLabel);
    assert.equal(v.write?.text.description, cutText);
    assert.equal(v.systemPrompt, BIG, 'sent on as it is');
    assert.deepEqual(v.messages[0].blocks, [{ kind: 'text', text: BIG }], 'sent on as it is');
  });

  it('cuts field errors, which may quote the server', () => {
    assert.deepEqual(shownErrors({ '': BIG, a: 'short' }), { '': cutText, a: 'short' });
  });

  it('leaves the view it was given unchanged', () => {
    shownView(round);
    assert.equal(round.items[0].kind === 'form' && round.items[0].message, BIG);
  });
});
