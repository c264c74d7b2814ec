/**
 * The round view of the round panel: who asks (server, tool, prompt or resource, round number) and
 * one card per input of the round, one Submit for every form, Cancel. Cards are reconciled by input
 * id, so what the person typed stays while other inputs of the round change.
 */
import type { FieldErrors, RawFormValues } from '../../../src/core/elicitation/formModel';
import type { FromWebview, RoundView } from '../../../src/vscode/roundPanel/protocol';
import { announce, announceFix, status } from '../shared/announce';
import { button, el, show } from '../shared/dom';
import { postToExtension } from '../shared/vscodeApi';
import { makeCard, type Card, type CardContext } from './cards';
import type { FieldControl } from './fields';
import * as l10n from '../shared/l10n';

const post = (m: FromWebview) => postToExtension(m);
const root = document.getElementById('root') as HTMLElement;

/** "tool book_table", "prompt code_review", "resource demo://secret-note". */
function describeTarget(method: string, target: string): { kind: string; target: string } {
  const kind =
    method === 'tools/call'
      ? l10n.t('Tool')
      : method === 'prompts/get'
        ? l10n.t('Prompt')
        : method === 'resources/read'
          ? l10n.t('Resource')
          : method;
  return { kind, target };
}

interface RoundDom {
  askedFrom: HTMLElement;
  server: HTMLElement;
  kind: HTMLElement;
  target: HTMLElement;
  round: HTMLElement;
  task: HTMLElement;
  items: HTMLElement;
  submit: HTMLButtonElement;
  cancel: HTMLButtonElement;
  actions: HTMLElement;
}

let roundDom: RoundDom | undefined;
const cards = new Map<string, Card>();
let lastSeq = -1;
let context: CardContext = { post: postToExtension, server: '', what: '' };

function buildRound(): RoundDom {
  root.replaceChildren();
  root.dataset.panel = 'round';
  const header = el('header', undefined, 'panel-head');
  // "asked from chat": the call came from VS Code's chat, not from the palette.
  const askedFrom = el('p', '', 'asked-from');
  askedFrom.dataset.testid = 'asked-from';
  const h1 = el('h1');
  const server = el('span', '', 'server');
  h1.append(server, el('span', ` ${l10n.t('needs your input')}`, 'muted'));
  const line = el('p', undefined, 'what');
  const kind = el('span', '');
  const target = el('code', '', 'target');
  const round = el('span', '', 'round');
  round.dataset.testid = 'round-number';
  line.append(kind, target, round);
  // The call runs as a task on the server: its id and status.
  const task = el('p', '', 'task');
  task.dataset.testid = 'task-status';
  header.append(askedFrom, h1, line, task);
  const form = el('form');
  form.noValidate = true;
  form.id = 'round-form';
  const items = el('div', undefined, 'items');
  const submit = el('button', l10n.t('Submit'));
  submit.type = 'submit';
  submit.dataset.testid = 'submit';
  const cancel = button(l10n.t('Cancel'), 'cancel', () => post({ type: 'cancel' }), 'secondary');
  const actions = el('div', undefined, 'actions');
  actions.append(submit, cancel);
  form.append(items, actions);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    submitRound();
  });
  root.append(header, form, status);
  return { askedFrom, server, kind, target, round, task, items, submit, cancel, actions };
}

/** Show a round (built once per panel, then updated in place). */
export function renderRound(view: RoundView): void {
  // Built anew when the page held something else (an arguments form).
  if (!roundDom || root.dataset.panel !== 'round') {
    roundDom = buildRound();
    cards.clear();
  }
  const dom = roundDom;
  const { kind, target } = describeTarget(view.method, view.target);
  context = { post: postToExtension, server: view.server, what: `${kind.toLowerCase()} ${target}` };
  dom.askedFrom.textContent = view.askedFrom ?? '';
  show(dom.askedFrom, !!view.askedFrom);
  dom.server.textContent = view.server;
  dom.kind.textContent = `${kind} `;
  dom.target.textContent = target;
  dom.round.textContent = ` · ${view.round > 0 ? l10n.t('round {0}', view.round) : l10n.t('request from a 2025-era server')}`;
  root.dataset.round = String(view.round);
  dom.task.textContent = view.task
    ? `${l10n.t('Task {0}', view.task.id)} · ${view.task.status === 'input_required' ? l10n.t('waiting for your answer') : view.task.status}${view.task.statusMessage ? ` — ${view.task.statusMessage}` : ''}`
    : '';
  show(dom.task, !!view.task);
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
    const said =
      view.round > 0
        ? n === 1
          ? l10n.t('{0} asks for input (round {1}): 1 request.', view.server, view.round)
          : l10n.t('{0} asks for input (round {1}): {2} requests.', view.server, view.round, n)
        : n === 1
          ? l10n.t('{0} asks for input: 1 request.', view.server)
          : l10n.t('{0} asks for input: {1} requests.', view.server, n);
    announce(said);
    // A panel asked from chat opens beside it without the focus (the person may be typing there): its
    // first field waits for a click. Otherwise the first field takes it.
    if (!view.askedFrom) for (const item of view.items) if (cards.get(item.id)?.focusFirst()) break;
  } else if (view.status === 'sent') {
    announce(l10n.t('Answers sent. Waiting for {0}…', view.server));
  }
}

/** Submit: every pending form of the round, when each passes the same checks as the extension's. */
export function submitRound(): void {
  const forms: Record<string, RawFormValues> = {};
  const invalid: FieldControl[] = [];
  for (const card of cards.values()) {
    if (!card.pendingForm()) continue;
    const got = card.collect();
    if (!got) continue;
    forms[card.id] = got.values;
    invalid.push(...got.invalid);
  }
  if (Object.keys(forms).length === 0) return;
  if (invalid.length > 0) return announceFix(invalid);
  announce(l10n.t('Sending…'));
  post({ type: 'submit', forms });
}

/** Show the extension's field errors of one card; returns the fields in error. */
export function showCardErrors(id: string, errors: FieldErrors): FieldControl[] {
  return cards.get(id)?.showErrors(errors) ?? [];
}
