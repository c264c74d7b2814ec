/** The review card of a sampling request (docs/field-cases.md, F6). */
import type { BlockView, InputView, SamplingInputView } from '../../../../src/vscode/roundPanel/protocol';
import { announceFix } from '../../shared/announce';
import { button, el, media, show, testKey, uid } from '../../shared/dom';
import { cardActions, cardShell, noForm, type Card, type CardContext } from './card';
import { modelPicker, type ModelPicker } from './samplingModels';
import { replyPart, type ReplyPart } from './samplingReply';
import * as l10n from '../../shared/l10n';

/** A content block of a message or completion; text blocks become labelled textareas. */
function blockElement(b: BlockView, label: string, describe: string): { element: HTMLElement; textarea?: HTMLTextAreaElement } {
  if (b.kind === 'text') {
    const wrap = el('div', undefined, 'field');
    const ta = el('textarea');
    ta.id = uid('t');
    ta.rows = Math.min(12, Math.max(3, b.text.split('\n').length + 1));
    ta.value = b.text;
    const l = el('label', label);
    l.htmlFor = ta.id;
    wrap.append(l, ta);
    return { element: wrap, textarea: ta };
  }
  const wrap = el('div', undefined, 'block');
  if (b.kind !== 'other') {
    wrap.append(
      el('div', `${label} (${b.kind}, ${b.mimeType})`, 'muted'),
      media(b.kind, b.mimeType, b.data, l10n.t('{0} in {1}', b.kind, describe)),
    );
    return { element: wrap };
  }
  wrap.append(el('div', l10n.t('{0} ({1}, read-only)', label, b.type), 'muted'), el('pre', b.json, 'mono'));
  return { element: wrap };
}

/** The review part of the card: the model picker, the system prompt, the messages, the limits and tools. */
interface Review {
  element: HTMLElement;
  picker: ModelPicker;
  systemPrompt: HTMLTextAreaElement;
  /** The textareas of the messages' text blocks, by message and block index. */
  edits: { message: number; block: number; textarea: HTMLTextAreaElement }[];
}

function reviewPart(view: SamplingInputView): Review {
  const review = el('div', undefined, 'review');
  const picker = modelPicker(view);
  review.append(picker.element);

  const sysRow = el('div', undefined, 'field');
  const sys = el('textarea');
  sys.id = uid('s');
  sys.rows = 3;
  sys.value = view.systemPrompt ?? '';
  const sysLabel = el('label', l10n.t('System prompt'));
  sysLabel.htmlFor = sys.id;
  sysRow.append(sysLabel, sys);
  if (view.systemPrompt === undefined) sysRow.append(el('div', l10n.t('The server sent no system prompt.'), 'help'));
  review.append(sysRow);

  const edits: Review['edits'] = [];
  view.messages.forEach((m, i) => {
    const box = el('div', undefined, 'message-box');
    box.append(el('h3', l10n.t('Message {0} · {1}', i + 1, m.role)));
    m.blocks.forEach((b, j) => {
      const label =
        m.blocks.length > 1 ? l10n.t('Message {0} ({1}), part {2}', i + 1, m.role, j + 1) : l10n.t('Message {0} ({1})', i + 1, m.role);
      const { element, textarea } = blockElement(b, label, l10n.t('message {0}', i + 1));
      if (textarea) edits.push({ message: i, block: j, textarea });
      box.append(element);
    });
    review.append(box);
  });
  review.append(factsPart(view));
  return { element: review, picker, systemPrompt: sys, edits };
}

/** The request's limits and tools, as a definition list. */
function factsPart(view: SamplingInputView): HTMLElement {
  const facts = el('dl', undefined, 'facts');
  const fact = (name: string, value: string) => facts.append(el('dt', name), el('dd', value));
  if (view.maxTokens !== undefined) fact(l10n.t('Max tokens'), String(view.maxTokens));
  if (view.temperature !== undefined) fact(l10n.t('Temperature'), String(view.temperature));
  if (view.stopSequences?.length) fact(l10n.t('Stop sequences'), view.stopSequences.map((s) => JSON.stringify(s)).join(', '));
  if (view.includeContext) fact(l10n.t('Include context'), view.includeContext);
  if (view.tools?.length) {
    const dd = el('dd');
    const ul = el('ul', undefined, 'tools');
    for (const t of view.tools) {
      const li = el('li');
      li.append(el('code', t.name));
      if (t.description) li.append(el('span', ` — ${t.description}`));
      ul.append(li);
    }
    dd.append(ul);
    facts.append(el('dt', l10n.t('Tools the model may ask for')), dd);
  }
  return facts;
}

/** Fill `container` with an editable view of a completion; returns its text blocks' textareas. */
function renderCompletion(container: HTMLElement, completion: NonNullable<SamplingInputView['completion']>): HTMLTextAreaElement[] {
  container.replaceChildren(el('h3', l10n.t('Completion')));
  container.append(
    el(
      'p',
      completion.stopReason
        ? l10n.t('Model {0} · stopped: {1}', completion.model, completion.stopReason)
        : l10n.t('Model {0}', completion.model),
      'muted',
    ),
  );
  const textareas: HTMLTextAreaElement[] = [];
  const texts = completion.blocks.filter((b) => b.kind === 'text').length;
  let n = 0;
  for (const b of completion.blocks) {
    const label = b.kind === 'text' && texts > 1 ? l10n.t('Completion, part {0}', ++n) : l10n.t('Completion');
    const { element, textarea } = blockElement(b, label, l10n.t('the completion'));
    if (textarea) textareas.push(textarea);
    container.append(element);
  }
  return textareas;
}

/**
 * A sampling request: who asks, the model picker (models that cannot do the request marked), the
 * system prompt and every message (text editable; images and audio shown from `data:`), limits and
 * tools; Approve runs the model (Stop while it generates); the completion is shown editable with
 * Send; "Write the reply" opens the reply form (Send reply, Back); Decline at any step.
 */
export function samplingCard(view: SamplingInputView, ctx: CardContext): Card {
  const { section } = cardShell(view, l10n.t('Sampling request'));
  section.append(
    el(
      'p',
      l10n.t(
        '{0} asks a language model for a completion during {1}. Review the prompt, then approve it (you see the reply before it is sent), or write the reply yourself.',
        ctx.server,
        ctx.what,
      ),
      'message',
    ),
  );
  const review = reviewPart(view);
  section.append(review.element);

  const error = el('p', '', 'error');
  error.setAttribute('role', 'alert');
  const progress = el('div', undefined, 'progress');
  const bar = el('progress');
  bar.setAttribute('aria-label', l10n.t('Generating'));
  const progressText = el('span', '');
  const k = testKey(view.key);
  const stop = button(l10n.t('Stop'), `stop-${k}`, () => ctx.post({ type: 'stop', id: view.id }), 'secondary');
  progress.append(bar, progressText, stop);
  const completion = el('div', undefined, 'completion');
  const writing = el('div', undefined, 'writing');
  let completionTexts: HTMLTextAreaElement[] = [];
  let reply: ReplyPart | undefined;
  section.append(error, progress, completion, writing);

  const approve = button(l10n.t('Approve'), `approve-${k}`, () =>
    ctx.post({
      type: 'approve',
      id: view.id,
      modelId: review.picker.select.value,
      systemPrompt: review.systemPrompt.value,
      edits: review.edits.map((e) => ({ message: e.message, block: e.block, text: e.textarea.value })),
    }),
  );
  const send = button(l10n.t('Send'), `send-${k}`, () =>
    ctx.post({ type: 'send', id: view.id, texts: completionTexts.map((t) => t.value) }),
  );
  const write = button(l10n.t('Write the reply'), `write-${k}`, () => ctx.post({ type: 'write', id: view.id }), 'secondary');
  const sendReply = button(l10n.t('Send reply'), `reply-send-${k}`, () => {
    if (!reply) return;
    const got = reply.collect();
    if (got.invalid.length) return announceFix(got.invalid);
    ctx.post({ type: 'sendReply', id: view.id, values: got.values, args: got.args });
  });
  const back = button(l10n.t('Back to review'), `back-${k}`, () => ctx.post({ type: 'back', id: view.id }), 'secondary');
  const { actions, state } = cardActions(section, view, ctx, [approve, send, sendReply, write, back]);
  review.picker.select.addEventListener('change', () => (approve.disabled = !review.picker.canApprove()));

  let current = view;
  let shownCompletion: unknown;
  /** The answer being given (or given) is the reply the person wrote. */
  let wrote = false;
  const update = (v: InputView) => {
    if (v.kind !== 'sampling') return;
    const previousStage = current.stage;
    current = v;
    section.dataset.state = v.stage;
    const reviewing = v.stage === 'review';
    review.picker.update(v, reviewing);
    for (const c of [review.systemPrompt, ...review.edits.map((e) => e.textarea)]) {
      c.disabled = !reviewing;
      // With no model to send it to, the prompt is there to read.
      c.readOnly = !!v.noModel;
    }
    error.textContent = v.error ?? '';
    show(progress, v.stage === 'generating');
    const model = v.models.find((m) => m.id === v.modelId);
    progressText.textContent =
      v.stage === 'generating' ? l10n.t('Generating with {0}…', model?.name ?? v.modelId ?? l10n.t('the model')) : '';
    if (v.completion && v.completion !== shownCompletion && (v.stage === 'completion' || previousStage !== v.stage)) {
      // A new completion (first one, or after approving again): build its editable view.
      shownCompletion = v.completion;
      completionTexts = renderCompletion(completion, v.completion);
    }
    if (v.stage === 'writing') wrote = true;
    else if (v.stage === 'review' || v.stage === 'completion') wrote = false;
    show(completion, v.completion !== undefined && (v.stage === 'completion' || (v.stage === 'sent' && !wrote) || v.stage === 'declined'));
    completionTexts.forEach((t) => (t.disabled = v.stage !== 'completion'));
    // The reply form is built once, when it first arrives: what the person typed stays.
    if (v.write && !reply) writing.append((reply = replyPart(v.write)).element);
    show(writing, !!reply && wrote);
    reply?.setDisabled(v.stage !== 'writing');
    show(approve, reviewing && !v.noModel);
    approve.disabled = !review.picker.canApprove();
    show(send, v.stage === 'completion');
    show(write, reviewing || v.stage === 'completion');
    show(sendReply, v.stage === 'writing');
    show(back, v.stage === 'writing');
    show(actions, reviewing || v.stage === 'generating' || v.stage === 'completion' || v.stage === 'writing');
    state.textContent =
      v.stage === 'sent'
        ? wrote
          ? l10n.t('Your reply was sent.')
          : l10n.t('Completion sent.')
        : v.stage === 'declined'
          ? l10n.t('Declined.')
          : '';
    if (v.stage === 'completion' && previousStage === 'generating') completionTexts[0]?.focus();
    if (v.stage === 'writing' && previousStage !== 'writing') reply?.focus();
  };
  update(view);
  return {
    id: view.id,
    kind: 'sampling',
    el: section,
    update,
    focusFirst: () => {
      if (current.stage !== 'review') return false;
      if (current.noModel) write.focus();
      else review.picker.select.focus();
      return true;
    },
    ...noForm,
    showErrors: (errors) => reply?.showErrors(errors) ?? [],
  };
}
