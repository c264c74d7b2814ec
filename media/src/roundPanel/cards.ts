/**
 * The cards of the round panel, one per input of the round: a form per form elicitation, a consent
 * card per URL elicitation, a review card per sampling request, a quiet line for roots, and a
 * placeholder for a sampling review still on its way. A card is built once and then only updated
 * (state, stage), so what the person typed is never lost while other inputs of the round change.
 */
import { ownValue, type FieldErrors } from '../../../src/core/elicitation/formModel';
import type {
  BlockView,
  FormItemView,
  FromWebview,
  ItemView,
  RawValues,
  RootsItemView,
  SamplingItemView,
  UrlItemView,
  WaitingItemView,
} from '../../../src/vscode/roundPanel/protocol';
import { button, el, media, show, testKey, uid } from '../shared/dom';
import { fieldControl, type FieldControl } from './fields';

/** What the cards need from the panel. */
export interface CardContext {
  post(message: FromWebview): void;
  /** The server asking, and what for ("tool book_table"), for the cards' wording. */
  server: string;
  what: string;
}

/** The values of a form, or the fields that need fixing (their errors are already shown). */
export interface Collected {
  values: RawValues;
  invalid: FieldControl[];
}

/** One card of the panel. */
export interface Card {
  readonly id: string;
  readonly kind: ItemView['kind'];
  readonly el: HTMLElement;
  update(view: ItemView): void;
  /** Focus the card's first control; false when it has none to offer. */
  focusFirst(): boolean;
  /** True for a form that still waits for Submit. */
  pendingForm(): boolean;
  /** Check and read a pending form (errors are shown beside the fields). */
  collect(): Collected | undefined;
  /** Show the extension's errors (ajv authority); returns the fields in error. */
  showErrors(errors: FieldErrors): FieldControl[];
}

const STATE_TEXT: Record<string, string> = { accepted: 'Answered.', declined: 'Declined.', cancelled: 'Cancelled.' };

function cardShell(view: ItemView, title: string): { section: HTMLElement; heading: HTMLElement } {
  const section = el('section', undefined, `card ${view.kind}`);
  section.dataset.testid = `input-${testKey(view.key)}`;
  section.dataset.kind = view.kind;
  section.dataset.key = view.key;
  const heading = el('h2', title);
  heading.id = uid('h');
  heading.append(el('span', ` “${view.key}”`, 'muted key'));
  section.setAttribute('aria-labelledby', heading.id);
  section.append(heading);
  return { section, heading };
}

const noForm = { pendingForm: () => false, collect: () => undefined, showErrors: () => [] };

/** A form elicitation: the server's message, its fields, Decline. Submit is the panel's. */
export function formCard(view: FormItemView, ctx: CardContext): Card {
  const { section } = cardShell(view, 'Form');
  if (view.message) section.append(el('p', view.message, 'message'));
  const formError = el('div', '', 'error form-error');
  formError.setAttribute('aria-live', 'polite');
  section.append(formError);
  if (view.problem) section.append(el('p', view.problem, 'error'));
  const controls = view.fields.map((f) => fieldControl(f));
  const fields = el('div', undefined, 'fields');
  fields.append(...controls.map((c) => c.row));
  section.append(fields);
  const decline = button('Decline', `decline-${testKey(view.key)}`, () => ctx.post({ type: 'decline', id: view.id }), 'secondary');
  const actions = el('div', undefined, 'card-actions');
  actions.append(decline);
  const state = el('p', '', 'state');
  section.append(actions, state);
  let current = view;
  const update = (v: ItemView) => {
    if (v.kind !== 'form') return;
    current = v;
    section.dataset.state = v.state;
    const pending = v.state === 'pending';
    controls.forEach((c) => c.setDisabled(!pending));
    show(actions, pending);
    state.textContent = STATE_TEXT[v.state] ?? '';
  };
  update(view);
  return {
    id: view.id,
    kind: 'form',
    el: section,
    update,
    focusFirst: () => {
      if (current.state !== 'pending') return false;
      if (controls[0]) controls[0].focus();
      else decline.focus();
      return true;
    },
    pendingForm: () => current.state === 'pending',
    collect: () => {
      const invalid: FieldControl[] = [];
      for (const c of controls) {
        const problem = c.check();
        c.setError(problem);
        if (problem) invalid.push(c);
      }
      // fromEntries: a field named "__proto__" is an own key (an assignment would set the prototype).
      const values: RawValues = Object.fromEntries(controls.map((c) => [c.key, c.read()]));
      formError.textContent = current.problem ? 'This form cannot be filled in; decline it.' : '';
      return { values, invalid };
    },
    showErrors: (errors) => {
      formError.textContent = ownValue(errors, '') ?? '';
      const bad: FieldControl[] = [];
      for (const c of controls) {
        c.setError(ownValue(errors, c.key));
        if (ownValue(errors, c.key)) bad.push(c);
      }
      return bad;
    },
  };
}

/**
 * A URL elicitation (F5): the full URL as text (never a link; nothing loads it), the host
 * highlighted, the warnings; "Open in browser" asks the extension to open its own copy of the URL.
 */
export function urlCard(view: UrlItemView, ctx: CardContext): Card {
  const { section } = cardShell(view, 'Open a web page');
  if (view.message) section.append(el('p', view.message, 'message'));
  const box = el('div', undefined, 'url-box');
  box.append(el('div', 'Full address:', 'muted'));
  const code = el('code', undefined, 'url');
  code.dataset.testid = `url-${testKey(view.key)}`;
  const host = el('mark', view.parts.host, 'host');
  code.append(el('span', view.parts.before), host, el('span', view.parts.after));
  box.append(code);
  if (view.parts.host) {
    const line = el('div', 'Goes to the site ', 'host-line');
    line.append(el('strong', view.parts.host));
    box.append(line);
  }
  section.append(box);
  if (view.warnings.length) {
    const list = el('ul', undefined, 'warnings');
    list.setAttribute('aria-label', 'Warnings about this address');
    for (const w of view.warnings) list.append(el('li', w));
    section.append(list);
  }
  if (view.repeated) {
    section.append(
      el('p', view.retryable ? 'The server asks again for this same page. If you have finished there, choose Retry; to go there again, choose Open in browser.' : 'The server asks again for this same page.', 'note'),
    );
  }
  if (!view.openable) section.append(el('p', 'Only http and https addresses can be opened.', 'note'));
  const note = el('p', '', 'note live');
  note.setAttribute('aria-live', 'polite');
  section.append(note);
  const k = testKey(view.key);
  const open = button('Open in browser', `open-url-${k}`, () => ctx.post({ type: 'openUrl', id: view.id }));
  open.disabled = !view.openable;
  const retry = button('Retry', `retry-url-${k}`, () => ctx.post({ type: 'retryUrl', id: view.id }), 'secondary');
  show(retry, view.retryable);
  const decline = button('Decline', `decline-${k}`, () => ctx.post({ type: 'decline', id: view.id }), 'secondary');
  const actions = el('div', undefined, 'card-actions');
  actions.append(open, retry, decline);
  const state = el('p', '', 'state');
  section.append(actions, state);
  let current = view;
  const update = (v: ItemView) => {
    if (v.kind !== 'url') return;
    current = v;
    section.dataset.state = v.state;
    note.textContent = v.note ?? '';
    show(actions, v.state === 'pending');
    state.textContent = v.state === 'accepted' ? 'Opened in your browser. The server checks when the answers are sent.' : STATE_TEXT[v.state] ?? '';
  };
  update(view);
  return {
    id: view.id,
    kind: 'url',
    el: section,
    update,
    focusFirst: () => {
      if (current.state !== 'pending') return false;
      (view.openable ? open : decline).focus();
      return true;
    },
    ...noForm,
  };
}

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
    wrap.append(el('div', `${label} (${b.kind}, ${b.mimeType})`, 'muted'), media(b.kind, b.mimeType, b.data, `${b.kind} in ${describe}`));
    return { element: wrap };
  }
  wrap.append(el('div', `${label} (${b.type}, read-only)`, 'muted'), el('pre', b.json, 'mono'));
  return { element: wrap };
}

/**
 * A sampling request (F6): who asks, the model picker, the system prompt and every message (text
 * editable; images and audio shown from `data:`), limits and tools; Approve runs the model (Stop
 * while it generates); the completion is shown editable with Send; Decline at any step.
 */
export function samplingCard(view: SamplingItemView, ctx: CardContext): Card {
  const { section } = cardShell(view, 'Sampling request');
  section.append(el('p', `${ctx.server} asks a language model for a completion during ${ctx.what}. Review the prompt, then approve it; you see the reply before it is sent.`, 'message'));
  const review = el('div', undefined, 'review');

  const modelRow = el('div', undefined, 'field');
  const select = el('select');
  select.id = uid('m');
  const modelLabel = el('label', 'Model');
  modelLabel.htmlFor = select.id;
  for (const m of view.models) select.append(new Option(m.vendor ? `${m.name} (${m.vendor})` : m.name, m.id));
  select.value = view.chosenModelId;
  modelRow.append(modelLabel, select);
  if (view.hints?.length) modelRow.append(el('div', `The server's model hints: ${view.hints.join(', ')}`, 'help'));
  review.append(modelRow);

  const sysRow = el('div', undefined, 'field');
  const sys = el('textarea');
  sys.id = uid('s');
  sys.rows = 3;
  sys.value = view.systemPrompt ?? '';
  const sysLabel = el('label', 'System prompt');
  sysLabel.htmlFor = sys.id;
  sysRow.append(sysLabel, sys);
  if (view.systemPrompt === undefined) sysRow.append(el('div', 'The server sent no system prompt.', 'help'));
  review.append(sysRow);

  const edits: { message: number; block: number; textarea: HTMLTextAreaElement }[] = [];
  view.messages.forEach((m, i) => {
    const box = el('div', undefined, 'message-box');
    box.append(el('h3', `Message ${i + 1} · ${m.role}`));
    m.blocks.forEach((b, j) => {
      const label = `Message ${i + 1} (${m.role})${m.blocks.length > 1 ? `, part ${j + 1}` : ''}`;
      const { element, textarea } = blockElement(b, label, `message ${i + 1}`);
      if (textarea) edits.push({ message: i, block: j, textarea });
      box.append(element);
    });
    review.append(box);
  });

  const facts = el('dl', undefined, 'facts');
  const fact = (name: string, value: string) => facts.append(el('dt', name), el('dd', value));
  if (view.maxTokens !== undefined) fact('Max tokens', String(view.maxTokens));
  if (view.temperature !== undefined) fact('Temperature', String(view.temperature));
  if (view.stopSequences?.length) fact('Stop sequences', view.stopSequences.map((s) => JSON.stringify(s)).join(', '));
  if (view.includeContext) fact('Include context', view.includeContext);
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
    facts.append(el('dt', 'Tools the model may ask for'), dd);
  }
  review.append(facts);
  section.append(review);

  const error = el('p', '', 'error');
  error.setAttribute('role', 'alert');
  const progress = el('div', undefined, 'progress');
  const bar = el('progress');
  bar.setAttribute('aria-label', 'Generating');
  const progressText = el('span', '');
  const k = testKey(view.key);
  const stop = button('Stop', `stop-${k}`, () => ctx.post({ type: 'stop', id: view.id }), 'secondary');
  progress.append(bar, progressText, stop);
  const completion = el('div', undefined, 'completion');
  let completionTexts: HTMLTextAreaElement[] = [];
  section.append(error, progress, completion);

  const approve = button('Approve', `approve-${k}`, () =>
    ctx.post({ type: 'approve', id: view.id, modelId: select.value, systemPrompt: sys.value, edits: edits.map((e) => ({ message: e.message, block: e.block, text: e.textarea.value })) }),
  );
  const send = button('Send', `send-${k}`, () => ctx.post({ type: 'send', id: view.id, texts: completionTexts.map((t) => t.value) }));
  const decline = button('Decline', `decline-${k}`, () => ctx.post({ type: 'decline', id: view.id }), 'secondary');
  const actions = el('div', undefined, 'card-actions');
  actions.append(approve, send, decline);
  const state = el('p', '', 'state');
  section.append(actions, state);

  let current = view;
  let shownCompletion: unknown;
  const update = (v: ItemView) => {
    if (v.kind !== 'sampling') return;
    const previousStage = current.stage;
    current = v;
    section.dataset.state = v.stage;
    const reviewing = v.stage === 'review';
    for (const c of [select, sys, ...edits.map((e) => e.textarea)]) c.disabled = !reviewing;
    error.textContent = v.error ?? '';
    show(progress, v.stage === 'generating');
    const model = v.models.find((m) => m.id === v.modelId);
    progressText.textContent = v.stage === 'generating' ? `Generating with ${model?.name ?? v.modelId ?? 'the model'}…` : '';
    if (v.completion && v.completion !== shownCompletion && (v.stage === 'completion' || previousStage !== v.stage)) {
      // A new completion (first one, or after approving again): build its editable view.
      shownCompletion = v.completion;
      completion.replaceChildren(el('h3', 'Completion'));
      completion.append(el('p', `Model ${v.completion.model}${v.completion.stopReason ? ` · stopped: ${v.completion.stopReason}` : ''}`, 'muted'));
      completionTexts = [];
      const texts = v.completion.blocks.filter((b) => b.kind === 'text').length;
      let n = 0;
      for (const b of v.completion.blocks) {
        const label = b.kind === 'text' && texts > 1 ? `Completion, part ${++n}` : 'Completion';
        const { element, textarea } = blockElement(b, label, 'the completion');
        if (textarea) completionTexts.push(textarea);
        completion.append(element);
      }
    }
    show(completion, v.completion !== undefined && (v.stage === 'completion' || v.stage === 'sent' || v.stage === 'declined'));
    completionTexts.forEach((t) => (t.disabled = v.stage !== 'completion'));
    show(approve, reviewing);
    show(send, v.stage === 'completion');
    show(actions, reviewing || v.stage === 'generating' || v.stage === 'completion');
    state.textContent = v.stage === 'sent' ? 'Completion sent.' : v.stage === 'declined' ? 'Declined.' : '';
    if (v.stage === 'completion' && previousStage === 'generating') completionTexts[0]?.focus();
  };
  update(view);
  return {
    id: view.id,
    kind: 'sampling',
    el: section,
    update,
    focusFirst: () => {
      if (current.stage !== 'review') return false;
      select.focus();
      return true;
    },
    ...noForm,
  };
}

/** Roots answered automatically, shown quietly for transparency. */
export function rootsCard(view: RootsItemView, ctx: CardContext): Card {
  const p = el('p', undefined, 'card roots quiet');
  p.dataset.testid = `input-${testKey(view.key)}`;
  p.dataset.kind = 'roots';
  p.append(el('span', view.roots.length ? `Workspace folders shared with ${ctx.server} (roots, answered automatically): ` : `No workspace folder is open, so ${ctx.server} got an empty list of roots.`));
  view.roots.forEach((r, i) => {
    if (i > 0) p.append(el('span', ', '));
    if (r.name) p.append(el('span', `${r.name} `));
    p.append(el('code', r.uri));
  });
  return { id: view.id, kind: 'roots', el: p, update: () => {}, focusFirst: () => false, ...noForm };
}

/** A sampling request whose review has not arrived yet (the host is choosing a model). */
export function waitingCard(view: WaitingItemView): Card {
  const p = el('p', `Sampling request “${view.key}”: preparing its review…`, 'card waiting quiet');
  p.dataset.testid = `input-${testKey(view.key)}`;
  p.dataset.kind = 'waiting';
  return { id: view.id, kind: 'waiting', el: p, update: () => {}, focusFirst: () => false, ...noForm };
}

/** The card for an item view. */
export function makeCard(view: ItemView, ctx: CardContext): Card {
  switch (view.kind) {
    case 'form':
      return formCard(view, ctx);
    case 'url':
      return urlCard(view, ctx);
    case 'sampling':
      return samplingCard(view, ctx);
    case 'roots':
      return rootsCard(view, ctx);
    case 'waiting':
      return waitingCard(view);
  }
}
