/**
 * "Write the reply" on a sampling card: the reply text, a tool call picked from the offered tools
 * with its arguments as a form from the tool's `inputSchema` (the fields of the arguments form), the
 * model name and the stop reason. Checked here with the extension's own rules; the extension checks
 * again (the authority) and sends its errors back, shown beside the fields.
 */
import { coerceFieldValue, fieldError, type FieldErrors, type RawFormValues } from '../../../../src/core/elicitation/formModel';
import { type FormField } from '../../../../src/core/elicitation/formField';
import { ARGUMENT_ERROR_PREFIX, type SamplingInputView } from '../../../../src/vscode/roundPanel/protocol';
import { el, show } from '../../shared/dom';
import { checkFields, fieldControl, showFieldErrors, type FieldControl } from '../fields';
import { fieldRow } from '../fields/row';
import * as l10n from '../../shared/l10n';

type ReplyForm = NonNullable<SamplingInputView['write']>;

/** The written-reply part of a sampling card. */
export interface ReplyPart {
  readonly element: HTMLElement;
  /** Check and read every field; `invalid` lists those that need fixing (their errors are shown). */
  collect(): { values: RawFormValues; args: RawFormValues; invalid: FieldControl[] };
  /** Show the extension's errors (reply fields by key, arguments under `arguments/`); returns the fields in error. */
  showErrors(errors: FieldErrors): FieldControl[];
  setDisabled(disabled: boolean): void;
  focus(): void;
}

/** The reply text: a labelled multi-line field on the shared field row. */
function replyText(field: FormField): FieldControl {
  return fieldRow(
    field,
    (parts) => {
      const ta = el('textarea');
      ta.id = `${parts.base}-c`;
      ta.rows = 8;
      ta.value = typeof field.initial === 'string' ? field.initial : '';
      parts.describe(ta);
      return { nodes: [parts.head(ta.id), ta], controls: [ta], invalidTarget: ta, read: () => ta.value };
    },
    (raw) => coerceFieldValue(field, raw).error,
  );
}

/** The written-reply part for `form`. */
export function replyPart(form: ReplyForm): ReplyPart {
  const element = el('div', undefined, 'write-reply');
  element.append(el('h3', l10n.t('Your reply')));
  const formError = el('div', '', 'error form-error');
  formError.setAttribute('aria-live', 'polite');
  const text = replyText(form.text);
  const tool = form.tool ? fieldControl(form.tool) : undefined;
  const model = fieldControl(form.model);
  const stopReason = fieldControl(form.stopReason);
  const stopSelect = stopReason.row.querySelector('select');
  const argsBox = el('div', undefined, 'tool-arguments');
  // Each tool's arguments are built once, when first picked: what was typed stays across picks.
  const argControls = new Map<string, FieldControl[]>();
  const argViews = new Map<string, HTMLElement>();
  let disabled = false;
  let stopTouched = false;
  stopReason.row.addEventListener('change', () => (stopTouched = true));

  // The picker's values are the tools' indexes in `form.tools`.
  const pickedTool = () => (tool ? String(tool.read() ?? '') : '');
  const showTool = () => {
    const name = pickedTool();
    const t = name === '' ? undefined : form.tools[Number(name)];
    for (const [n, v] of argViews) show(v, n === name);
    if (t && !argViews.has(name)) {
      const box = el('fieldset', undefined, 'group');
      box.append(el('legend', l10n.t('Arguments of {0}', t.name)));
      if (t.description) box.append(el('div', t.description, 'help'));
      const controls = t.problem ? [] : t.fields.map((f) => fieldControl(f));
      if (t.problem) box.append(el('p', t.problem, 'error'));
      else if (!controls.length) box.append(el('p', l10n.t('This tool takes no arguments.'), 'muted'));
      box.append(...controls.map((c) => c.row));
      controls.forEach((c) => c.setDisabled(disabled));
      argControls.set(name, controls);
      argViews.set(name, box);
      argsBox.append(box);
    }
    // The stop reason follows the tool call, unless the person chose one.
    if (stopSelect && !stopTouched) stopSelect.value = name ? 'toolUse' : 'endTurn';
  };
  tool?.row.addEventListener('change', showTool);

  element.append(formError, text.row);
  if (tool) element.append(tool.row, argsBox);
  if (form.toolsLeftOut)
    element.append(
      el('p', l10n.t('{0} more offered tool(s) cannot be picked here (too many, or a repeated name).', form.toolsLeftOut), 'muted'),
    );
  element.append(model.row, stopReason.row);
  const own = [text, ...(tool ? [tool] : []), model, stopReason];
  const currentArgs = () => argControls.get(pickedTool()) ?? [];

  return {
    element,
    collect: () => {
      const reply = checkFields(own);
      const args = checkFields(currentArgs());
      formError.textContent = '';
      return { values: reply.values, args: args.values, invalid: [...reply.invalid, ...args.invalid] };
    },
    showErrors: (errors) => {
      const argErrors: FieldErrors = {};
      for (const [k, v] of Object.entries(errors))
        if (k.startsWith(ARGUMENT_ERROR_PREFIX)) argErrors[k.slice(ARGUMENT_ERROR_PREFIX.length)] = v;
      formError.textContent = l10n.fieldErrorText(fieldError(errors, '') ?? '');
      return [...showFieldErrors(own, errors), ...showFieldErrors(currentArgs(), argErrors)];
    },
    setDisabled: (d) => {
      disabled = d;
      for (const c of [...own, ...[...argControls.values()].flat()]) c.setDisabled(d);
    },
    focus: () => text.focus(),
  };
}
