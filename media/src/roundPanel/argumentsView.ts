/**
 * The arguments form of a tool, prompt or resource template: one field per argument (JSON text for those
 * a form cannot express), Submit and Cancel; a schema that cannot be used shows why and offers only Cancel.
 * When the server completes values, a text field suggests them as the person types (`suggestions.ts`).
 */
import { fieldError, type FieldErrors } from '../../../src/core/elicitation/formModel';
import type { ArgumentFieldView, ArgumentsView, FromWebview, SuggestionsMessage } from '../../../src/vscode/roundPanel/protocol';
import { announce, announceFix, status } from '../shared/announce';
import { button, el } from '../shared/dom';
import { postToExtension } from '../shared/vscodeApi';
import { fieldControl, checkFields, showFieldErrors, type FieldControl } from './fields';
import { fillOptions, Suggestions } from './suggestions';
import * as l10n from '../shared/l10n';

const post = (m: FromWebview) => postToExtension(m);
const root = document.getElementById('root') as HTMLElement;

let argumentControls: FieldControl[] | undefined;
/** The arguments schema could not be prepared: only Cancel. */
let argumentsProblem = false;

/** What the form's heading and status say for each kind of arguments. */
const WORDS = {
  tool: {
    noun: `${l10n.t('Tool')} `,
    intro: (server: string) => l10n.t('Arguments for calling this tool on {0}.', server),
    running: (name: string, server: string) => l10n.t('Calling {0} on {1}…', name, server),
  },
  prompt: {
    noun: `${l10n.t('Prompt')} `,
    intro: (server: string) => l10n.t('Arguments for getting this prompt on {0}.', server),
    running: (name: string, server: string) => l10n.t('Getting {0} on {1}…', name, server),
  },
  template: {
    noun: `${l10n.t('Resource template')} `,
    intro: (server: string) => l10n.t('Variables for reading this resource on {0}.', server),
    running: (name: string, server: string) => l10n.t('Reading {0} on {1}…', name, server),
  },
} as const;

let suggestions: Suggestions | undefined;
/** The datalist of each field that shows suggestions, by field key. */
const suggestionLists = new Map<string, HTMLDataListElement>();

/** Show the arguments form (built once; a view sent again only marks it sent). */
export function renderArguments(view: ArgumentsView): void {
  if (root.dataset.panel === 'arguments') return void (view.sent && markSent(view));
  root.replaceChildren();
  root.dataset.panel = 'arguments';
  root.dataset.round = '0';
  const header = el('header', undefined, 'panel-head');
  const h1 = el('h1');
  const words = WORDS[view.argKind];
  h1.append(el('span', words.noun), el('code', view.name, 'target'));
  if (view.title && view.title !== view.name) h1.append(el('span', ` · ${view.title}`));
  header.append(h1, el('p', words.intro(view.server), 'what'));
  if (view.description) header.append(el('p', view.description, 'help'));
  const form = el('form');
  form.noValidate = true;
  const formError = el('div', '', 'error form-error');
  formError.setAttribute('aria-live', 'polite');
  const cancel = button(l10n.t('Cancel'), 'cancel', () => post({ type: 'cancel' }), 'secondary');
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
    if (view.completions) suggestFields(view.fields, argumentControls);
    const fields = el('div', undefined, 'fields card');
    fields.append(...argumentControls.map((c) => c.row));
    const submit = el('button', l10n.t('Submit'));
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
  if (view.sent) markSent(view);
  showErrors = (errors) => {
    const hasWhole = argumentControls!.some((c) => c.key === '');
    formError.textContent = hasWhole ? '' : l10n.fieldErrorText(fieldError(errors, '') ?? '');
    return showFieldErrors(argumentControls!, errors);
  };
}

let showErrors: ((errors: FieldErrors) => FieldControl[]) | undefined;

/** The arguments were accepted: the form goes read-only while the call runs (its rounds open here). */
function markSent(view: ArgumentsView): void {
  if (root.dataset.status === 'sent') return;
  root.dataset.status = 'sent';
  for (const c of root.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement>(
    'input, select, textarea, button',
  ))
    c.disabled = true;
  suggestions?.stop();
  announce(WORDS[view.argKind].running(view.name, view.server));
}

/** Text fields suggest the server's completions: a `<datalist>` bound to the input, filled by `showSuggestions`. */
function suggestFields(fields: readonly ArgumentFieldView[], controls: readonly FieldControl[]): void {
  suggestionLists.clear();
  const inputs = new Map<string, HTMLInputElement>();
  controls.forEach((c, i) => {
    const input = c.row.querySelector('input');
    if (fields[i]?.kind !== 'text' || !input) return;
    const list = el('datalist');
    list.id = `${input.id}-suggestions`;
    input.setAttribute('list', list.id);
    input.autocomplete = 'off';
    c.row.append(list);
    inputs.set(c.key, input);
    suggestionLists.set(c.key, list);
  });
  const values = () => Object.fromEntries([...inputs].map(([k, input]) => [k, input.value]));
  suggestions = new Suggestions(post, values, (fn, ms) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  });
  for (const [key, input] of inputs) {
    const ask = () => suggestions?.typed(key, input.value);
    input.addEventListener('input', ask);
    input.addEventListener('focus', ask);
  }
}

/** The server's suggestions for a field: shown when they answer the field's latest request. */
export function showSuggestions(m: SuggestionsMessage): void {
  const values = suggestions?.received(m);
  const list = suggestionLists.get(m.key);
  if (values && list && root.dataset.status !== 'sent') fillOptions(list, values);
}

/** Show the extension's errors of the arguments (ajv authority); returns the fields in error. */
export function showArgumentErrors(errors: FieldErrors): FieldControl[] {
  return showErrors?.(errors) ?? [];
}

/** Submit the arguments, when every field passes the same checks as the extension's. */
export function submitArguments(): void {
  if (!argumentControls || argumentsProblem || root.dataset.status === 'sent') return;
  const { values, invalid } = checkFields(argumentControls);
  if (invalid.length) return announceFix(invalid);
  post({ type: 'submitArgs', values });
}
