/**
 * The round panel's webview script (bundled to `dist/webview/roundPanel.js`, a browser IIFE).
 *
 * Renders the views the extension sends (`src/vscode/panelMessages.ts`): a round of a call (every
 * input of the round, one Submit, Decline per input, Cancel) or the arguments form of a tool or
 * prompt. It only ever gets data; every server string goes in through `textContent`. It never loads
 * anything (the CSP allows no network at all): a URL to consent to is shown as text and opened by
 * the extension after the click.
 *
 * Keyboard: Enter in a field submits, Escape cancels; focus moves to the first field of a new round.
 */
import { ownValue, type FieldErrors } from '../../../src/core/elicitation/formModel';
import { ARGUMENTS_ID, type ArgumentsView, type FromWebview, type RawValues, type RoundView, type ToWebview } from '../../../src/vscode/roundPanel/protocol';
import { forDisplay } from '../shared/displayText';
import { button, el, show } from '../shared/dom';
import { fieldControl, type FieldControl } from './fields';
import { makeCard, type Card, type CardContext } from './cards';

declare function acquireVsCodeApi(): { postMessage(m: unknown): void };
const vscodeApi = acquireVsCodeApi();
const post = (m: FromWebview) => vscodeApi.postMessage(m);

const root = document.getElementById('root') as HTMLElement;
/** Announcements for screen readers (and a visible status line). */
const status = el('p', '', 'status');
status.setAttribute('role', 'status');
status.setAttribute('aria-live', 'polite');

function announce(text: string): void {
  status.textContent = text;
}

/** "tool book_table", "prompt code_review", "resource demo://secret-note". */
function describeTarget(method: string, target: string): { kind: string; target: string } {
  const kind = method === 'tools/call' ? 'Tool' : method === 'prompts/get' ? 'Prompt' : method === 'resources/read' ? 'Resource' : method;
  return { kind, target };
}

// ---------------------------------------------------------------------------------------------
// Round view

interface RoundDom {
  server: HTMLElement;
  kind: HTMLElement;
  target: HTMLElement;
  round: HTMLElement;
  items: HTMLElement;
  submit: HTMLButtonElement;
  cancel: HTMLButtonElement;
  actions: HTMLElement;
}

let roundDom: RoundDom | undefined;
const cards = new Map<string, Card>();
let lastSeq = -1;
let context: CardContext = { post, server: '', what: '' };

function buildRound(): RoundDom {
  root.replaceChildren();
  root.dataset.panel = 'round';
  const header = el('header', undefined, 'panel-head');
  const h1 = el('h1');
  const server = el('span', '', 'server');
  h1.append(server, el('span', ' needs your input', 'muted'));
  const line = el('p', undefined, 'what');
  const kind = el('span', '');
  const target = el('code', '', 'target');
  const round = el('span', '', 'round');
  round.dataset.testid = 'round-number';
  line.append(kind, target, round);
  header.append(h1, line);
  const form = el('form');
  form.noValidate = true;
  form.id = 'round-form';
  const items = el('div', undefined, 'items');
  const submit = el('button', 'Submit');
  submit.type = 'submit';
  submit.dataset.testid = 'submit';
  const cancel = button('Cancel', 'cancel', () => post({ type: 'cancel' }), 'secondary');
  const actions = el('div', undefined, 'actions');
  actions.append(submit, cancel);
  form.append(items, actions);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitRound();
  });
  root.append(header, form, status);
  return { server, kind, target, round, items, submit, cancel, actions };
}

function renderRound(view: RoundView): void {
  if (!roundDom) {
    roundDom = buildRound();
    cards.clear();
  }
  const dom = roundDom;
  const { kind, target } = describeTarget(view.method, view.target);
  context = { post, server: view.server, what: `${kind.toLowerCase()} ${target}` };
  dom.server.textContent = view.server;
  dom.kind.textContent = `${kind} `;
  dom.target.textContent = target;
  dom.round.textContent = view.round > 0 ? ` · round ${view.round}` : ' · request from a 2025-era server';
  root.dataset.round = String(view.round);
  root.dataset.status = view.status;

  // Reconcile by item id: existing cards are updated in place (typed input stays), gone ones removed.
  const wanted = new Set(view.items.map((i) => i.id));
  for (const [id, card] of cards) {
    if (!wanted.has(id)) {
      card.el.remove();
      cards.delete(id);
    }
  }
  view.items.forEach((item, index) => {
    let card = cards.get(item.id);
    if (card && card.kind !== item.kind) {
      // A placeholder becoming its sampling review.
      const fresh = makeCard(item, context);
      card.el.replaceWith(fresh.el);
      cards.set(item.id, (card = fresh));
    } else if (card) card.update(item);
    else {
      card = makeCard(item, context);
      cards.set(item.id, card);
    }
    const at = dom.items.children[index];
    if (at !== card.el) dom.items.insertBefore(card.el, at ?? null);
  });

  const pendingForms = [...cards.values()].some((c) => c.pendingForm());
  show(dom.submit, pendingForms);
  show(dom.cancel, view.status === 'open');
  show(dom.actions, pendingForms || view.status === 'open');

  if (view.roundSeq !== lastSeq) {
    lastSeq = view.roundSeq;
    const n = view.items.filter((i) => i.kind !== 'roots').length;
    announce(`${view.server} asks for input${view.round > 0 ? ` (round ${view.round})` : ''}: ${n} request${n === 1 ? '' : 's'}.`);
    for (const item of view.items) if (cards.get(item.id)?.focusFirst()) break;
  } else if (view.status === 'sent') {
    announce(`Answers sent. Waiting for ${view.server}…`);
  }
}

function submitRound(): void {
  const forms: Record<string, RawValues> = {};
  const invalid: FieldControl[] = [];
  for (const card of cards.values()) {
    if (!card.pendingForm()) continue;
    const got = card.collect();
    if (!got) continue;
    forms[card.id] = got.values;
    invalid.push(...got.invalid);
  }
  if (Object.keys(forms).length === 0) return;
  if (invalid.length > 0) {
    announce(`Please fix ${invalid.length === 1 ? '1 field' : `${invalid.length} fields`}: ${invalid.map((c) => c.label).join(', ')}.`);
    invalid[0].focus();
    return;
  }
  announce('Sending…');
  post({ type: 'submit', forms });
}

// ---------------------------------------------------------------------------------------------
// Arguments view

let argumentControls: FieldControl[] | undefined;
/** The arguments schema could not be prepared: only Cancel. */
let argumentsProblem = false;

function renderArguments(view: ArgumentsView): void {
  if (root.dataset.panel === 'arguments') return; // built once; a re-sent view changes nothing
  root.replaceChildren();
  root.dataset.panel = 'arguments';
  root.dataset.round = '0';
  roundDom = undefined;
  const header = el('header', undefined, 'panel-head');
  const h1 = el('h1');
  h1.append(el('span', view.argKind === 'tool' ? 'Tool ' : 'Prompt '), el('code', view.name, 'target'));
  if (view.title && view.title !== view.name) h1.append(el('span', ` · ${view.title}`));
  header.append(h1, el('p', `Arguments for ${view.argKind === 'tool' ? 'calling this tool' : 'getting this prompt'} on ${view.server}.`, 'what'));
  if (view.description) header.append(el('p', view.description, 'help'));
  const form = el('form');
  form.noValidate = true;
  const formError = el('div', '', 'error form-error');
  formError.setAttribute('aria-live', 'polite');
  const cancel = button('Cancel', 'cancel', () => post({ type: 'cancel' }), 'secondary');
  const actions = el('div', undefined, 'actions');
  if (view.problem) {
    const p = el('p', view.problem, 'error');
    p.setAttribute('role', 'alert');
    form.append(p);
    argumentControls = [];
    argumentsProblem = true;
    actions.append(cancel);
  } else {
    argumentControls = view.fields.map((f) => fieldControl(f));
    const fields = el('div', undefined, 'fields card');
    fields.append(...argumentControls.map((c) => c.row));
    const submit = el('button', 'Submit');
    submit.type = 'submit';
    submit.dataset.testid = 'submit';
    actions.append(submit, cancel);
    form.append(formError, fields);
  }
  form.append(actions);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitArguments();
  });
  root.append(header, form, status);
  (argumentControls[0] ?? cancel).focus();
  showArgumentErrors = (errors) => {
    const hasWhole = argumentControls!.some((c) => c.key === '');
    formError.textContent = hasWhole ? '' : ownValue(errors, '') ?? '';
    const bad = argumentControls!.filter((c) => {
      c.setError(ownValue(errors, c.key));
      return !!ownValue(errors, c.key);
    });
    return bad;
  };
}

let showArgumentErrors: ((errors: FieldErrors) => FieldControl[]) | undefined;

function submitArguments(): void {
  if (!argumentControls || argumentsProblem) return;
  const invalid: FieldControl[] = [];
  for (const c of argumentControls) {
    const problem = c.check();
    c.setError(problem);
    if (problem) invalid.push(c);
  }
  // fromEntries: a field named "__proto__" is an own key (an assignment would set the prototype).
  const values: RawValues = Object.fromEntries(argumentControls.map((c) => [c.key, c.read()]));
  if (invalid.length) {
    announce(`Please fix ${invalid.length === 1 ? '1 field' : `${invalid.length} fields`}: ${invalid.map((c) => c.label).join(', ')}.`);
    invalid[0].focus();
    return;
  }
  post({ type: 'submitArgs', values });
}

// ---------------------------------------------------------------------------------------------
// Messages and keys

function showErrors(id: string, errors: FieldErrors): void {
  const bad = id === ARGUMENTS_ID ? showArgumentErrors?.(errors) ?? [] : cards.get(id)?.showErrors(errors) ?? [];
  const count = Object.keys(errors).length;
  if (count === 0) return;
  announce(bad.length ? `Please fix ${bad.length === 1 ? '1 field' : `${bad.length} fields`}: ${bad.map((c) => c.label).join(', ')}.` : Object.values(errors).join(' '));
  bad[0]?.focus();
}

window.addEventListener('message', (e: MessageEvent) => {
  if (!e.data || typeof e.data !== 'object') return;
  const m = forDisplay(e.data as ToWebview);
  if (m.type === 'view') {
    if (m.view.kind === 'round') renderRound(m.view);
    else if (m.view.kind === 'arguments') renderArguments(m.view);
  } else if (m.type === 'errors') showErrors(m.id, m.errors);
});

document.addEventListener('keydown', (e: KeyboardEvent) => {
  if (e.isComposing) return;
  if (e.key === 'Escape') {
    e.preventDefault();
    post({ type: 'cancel' });
    return;
  }
  if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target as HTMLElement | null;
  // Enter submits from a field of a form (text fields, checkboxes, radios, selects); not from
  // textareas (new line), buttons (they act themselves) or the sampling card.
  if (!(t instanceof HTMLInputElement || t instanceof HTMLSelectElement)) return;
  if (t instanceof HTMLInputElement && (t.type === 'button' || t.type === 'submit')) return;
  if (!t.closest('.card.form, [data-panel="arguments"] .fields')) return;
  e.preventDefault();
  if (root.dataset.panel === 'arguments') submitArguments();
  else submitRound();
});

post({ type: 'ready' });
