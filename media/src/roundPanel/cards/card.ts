/**
 * What every card of the round panel is: one per input of the round, built once and then only
 * updated (state, stage), so what the person typed is never lost while other inputs of the round
 * change. The shared shell: a section labelled by its heading, which names the input's key.
 */
import type { FieldErrors, RawFormValues } from '../../../../src/core/elicitation/formModel';
import type { FromWebview, InputView } from '../../../../src/vscode/roundPanel/protocol';
import { button, el, testKey, uid } from '../../shared/dom';
import type { FieldControl } from '../fields';
import * as l10n from '../../shared/l10n';

/** What the cards need from the panel. */
export interface CardContext {
  post(message: FromWebview): void;
  /** The server asking, and what for ("tool book_table"), for the cards' wording. */
  server: string;
  what: string;
}

/** The values of a form, or the fields that need fixing (their errors are already shown). */
export interface Collected {
  values: RawFormValues;
  invalid: FieldControl[];
}

/** One card of the panel. */
export interface Card {
  readonly id: string;
  readonly kind: InputView['kind'];
  readonly el: HTMLElement;
  update(view: InputView): void;
  /** Focus the card's first control; false when it has none to offer. */
  focusFirst(): boolean;
  /** True for a form that still waits for Submit. */
  pendingForm(): boolean;
  /** Check and read a pending form (errors are shown beside the fields). */
  collect(): Collected | undefined;
  /** Show the extension's errors (ajv authority); returns the fields in error. */
  showErrors(errors: FieldErrors): FieldControl[];
}

/** What a card says once its input is answered. */
export const STATE_TEXT: Record<string, string> = {
  accepted: l10n.t('Answered.'),
  declined: l10n.t('Declined.'),
  cancelled: l10n.t('Cancelled.'),
};

/** A card's section, labelled by its heading (`title` and the input's key), with its test ids. */
export function cardShell(view: InputView, title: string): { section: HTMLElement; heading: HTMLElement } {
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

/** The part of {@link Card} for a card that is not a form. */
export const noForm: Pick<Card, 'pendingForm' | 'collect' | 'showErrors'> = {
  pendingForm: () => false,
  collect: () => undefined,
  showErrors: () => [],
};

/**
 * A card's action row, `buttons` then Decline, and its state line under it, appended to `section`.
 * @returns the row (hidden once the input is answered), the state line and the Decline button
 */
export function cardActions(
  section: HTMLElement,
  view: InputView,
  ctx: CardContext,
  buttons: HTMLButtonElement[],
): { actions: HTMLElement; state: HTMLElement; decline: HTMLButtonElement } {
  const decline = button(l10n.t('Decline'), `decline-${testKey(view.key)}`, () => ctx.post({ type: 'decline', id: view.id }), 'secondary');
  const actions = el('div', undefined, 'card-actions');
  actions.append(...buttons, decline);
  const state = el('p', '', 'state');
  section.append(actions, state);
  return { actions, state, decline };
}
