/** The card of a form-mode elicitation (docs/field-cases.md, F1-F4). */
import { fieldError } from '../../../../src/core/elicitation/formModel';
import type { FormInputView, InputView } from '../../../../src/vscode/roundPanel/protocol';
import { el, show } from '../../shared/dom';
import { checkFields, fieldControl, showFieldErrors } from '../fields';
import { STATE_TEXT, cardActions, cardShell, type Card, type CardContext } from './card';

/** A form elicitation: the server's message, its fields, Decline. Submit is the panel's. */
export function formCard(view: FormInputView, ctx: CardContext): Card {
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
  const { actions, state, decline } = cardActions(section, view, ctx, []);
  let current = view;
  const update = (v: InputView) => {
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
      const collected = checkFields(controls);
      formError.textContent = current.problem ? 'This form cannot be filled in; decline it.' : '';
      return collected;
    },
    showErrors: (errors) => {
      formError.textContent = fieldError(errors, '') ?? '';
      return showFieldErrors(controls, errors);
    },
  };
}
