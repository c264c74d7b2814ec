/** The card of a form-mode elicitation (docs/field-cases.md, F1-F4). */
import { fieldError } from '../../../../src/core/elicitation/formModel';
import type { FormInputView, InputView } from '../../../../src/vscode/roundPanel/protocol';
import { button, el, show, testKey } from '../../shared/dom';
import { webviewState } from '../../shared/vscodeApi';
import { saveDraft } from '../drafts';
import { checkFields, fieldControl, showFieldErrors } from '../fields';
import { mountApp } from './appArea';
import { STATE_TEXT, cardActions, cardShell, type Card, type CardContext } from './card';
import * as l10n from '../../shared/l10n';

/**
 * A form elicitation: the server's message, its fields, Decline. Submit is the panel's. When the
 * extension says an app answers it (SEP-3118), the app instead of the fields, with **Use the Form**;
 * when the app is gone (the form chosen, a failure), the fields, with why.
 */
export function formCard(view: FormInputView, ctx: CardContext): Card {
  const { section } = cardShell(view, l10n.t('Form'));
  if (view.message) section.append(el('p', view.message, 'message'));
  const formError = el('div', '', 'error form-error');
  formError.setAttribute('aria-live', 'polite');
  section.append(formError);
  if (view.problem) section.append(el('p', view.problem, 'error'));
  const controls = view.fields.map((f) => fieldControl(f));
  const fields = el('div', undefined, 'fields');
  fields.append(...controls.map((c) => c.row));
  section.append(fields);
  // Kept as typed, so a page written again (drafts.ts) opens with it.
  const keep = () => saveDraft(webviewState, view.id, Object.fromEntries(controls.map((c) => [c.key, c.read()])));
  fields.addEventListener('input', keep);
  fields.addEventListener('change', keep);
  const appArea = el('div', undefined, 'app-area');
  appArea.dataset.testid = `app-card-${testKey(view.key)}`;
  const appNote = el('p', '', 'muted app-note');
  section.append(appArea, appNote);
  const useForm = button(
    l10n.t('Use the Form'),
    `use-form-${testKey(view.key)}`,
    () => ctx.post({ type: 'useForm', id: view.id }),
    'secondary',
  );
  const { actions, state, decline } = cardActions(section, view, ctx, [useForm]);
  let current = view;
  let closeApp: (() => void) | undefined;
  const update = (v: InputView) => {
    if (v.kind !== 'form') return;
    current = v;
    section.dataset.state = v.state;
    const pending = v.state === 'pending';
    if (v.app && pending && !closeApp) closeApp = mountApp(appArea, v, (m) => ctx.post(m));
    if ((!v.app || !pending) && closeApp) {
      closeApp();
      closeApp = undefined;
    }
    const app = !!closeApp;
    show(appArea, app);
    show(fields, !app);
    show(useForm, app);
    appNote.textContent = v.appNote ?? '';
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
      if (closeApp) useForm.focus();
      else if (controls[0]) controls[0].focus();
      else decline.focus();
      return true;
    },
    pendingForm: () => current.state === 'pending' && !closeApp,
    collect: () => {
      const collected = checkFields(controls);
      formError.textContent = current.problem ? l10n.t('This form cannot be filled in; decline it.') : '';
      return collected;
    },
    showErrors: (errors) => {
      formError.textContent = l10n.fieldErrorText(fieldError(errors, '') ?? '');
      return showFieldErrors(controls, errors);
    },
  };
}
