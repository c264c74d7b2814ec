/**
 * Form controls of the round panel: one {@link FieldControl} per `FormField` (elicitation forms and
 * tool arguments) or `JsonField` (tool arguments the form cannot express). Native inputs styled with
 * the VS Code theme variables; every control has a `<label>` (or, for a group, a legend referenced by
 * `aria-labelledby`) whose text is exactly the field's label; help and errors are tied to the control
 * with `aria-describedby`, errors also set `aria-invalid` and are announced (`aria-live`).
 *
 * Instant checks use `coerceFieldValue` from `src/core/formModel.ts`, the very rules the extension
 * applies before its ajv check (which cannot run here: the CSP forbids `new Function`).
 */
import { coerceFieldValue, type FormField, type RawFormValue } from '../../../src/core/elicitation/formModel';
import type { ArgumentFieldView, RawValue } from '../../../src/vscode/roundPanel/protocol';
import { el, testKey, uid } from '../shared/dom';

/** One field of a form, as the cards use it. */
export interface FieldControl {
  readonly key: string;
  readonly label: string;
  /** The row (label, control, help, error). */
  readonly row: HTMLElement;
  /** Focus the control (the first radio / checkbox of a group). */
  focus(): void;
  /** The raw value to send: text, checkbox state, picked values, or null for none. */
  read(): RawValue;
  /** The problem with the current value (same rules as the extension), or undefined. */
  check(): string | undefined;
  /** Show (or clear) an error beside the field. */
  setError(message: string | undefined): void;
  setDisabled(disabled: boolean): void;
}

/** What a number or date input reports when the browser holds text it could not parse (`badInput`). */
const UNPARSABLE = '(not understood)';

/** `2026-11-01T09:30:00Z` → the local `2026-11-01T10:30:00` a `datetime-local` input shows. */
export function toLocalDateTimeInput(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2})?)(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/.exec(value.trim());
  if (!m) return '';
  if (!m[4]) return `${m[1]}T${m[2]}`;
  const d = new Date(value.trim());
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

const INPUT_TYPES: Record<string, string> = { text: 'text', email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local', number: 'number', integer: 'number' };

/** Build the control for one field. */
export function fieldControl(field: ArgumentFieldView): FieldControl {
  const base = uid('f');
  const row = el('div', undefined, 'field');
  row.dataset.field = field.key;
  row.dataset.testid = `field-${testKey(field.key)}`;
  row.dataset.kind = field.kind;
  const describedBy: string[] = [];
  const help = field.description ? el('div', field.description, 'help') : undefined;
  if (help) {
    help.id = `${base}-help`;
    describedBy.push(help.id);
  }
  const extra = field.kind === 'json' ? el('div', `Edit as JSON: ${field.reason}.`, 'help') : undefined;
  if (extra) {
    extra.id = `${base}-json`;
    describedBy.push(extra.id);
  }
  const prefilled = field.initialSource === 'previous' ? el('div', 'Pre-filled with your last answer.', 'help prefilled') : undefined;
  const error = el('div', '', 'error');
  error.id = `${base}-err`;
  error.setAttribute('aria-live', 'polite');
  describedBy.push(error.id);
  const required = () => {
    const r = el('span', '*', 'req');
    r.setAttribute('aria-hidden', 'true');
    r.title = 'required';
    return r;
  };

  let controls: (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[] = [];
  let read: () => RawValue;
  let labelTarget: HTMLElement; // where aria-invalid goes

  const labelFor = (id: string) => {
    const label = el('label', field.label);
    label.htmlFor = id;
    label.id = `${id}-label`;
    return label;
  };
  const head = (id: string) => {
    const h = el('div', undefined, 'field-head');
    h.append(labelFor(id));
    if (field.required) h.append(required());
    return h;
  };
  const describe = (c: HTMLElement) => c.setAttribute('aria-describedby', describedBy.join(' '));

  if (field.kind === 'json') {
    const ta = el('textarea', undefined, 'mono');
    ta.id = `${base}-c`;
    ta.rows = 6;
    ta.spellcheck = false;
    ta.value = field.initial ?? '';
    if (field.required) ta.setAttribute('aria-required', 'true');
    describe(ta);
    row.append(head(ta.id), ta);
    controls = [ta];
    labelTarget = ta;
    read = () => ta.value;
  } else if (field.kind === 'boolean' && field.initial === undefined && field.required) {
    // A required boolean without default starts unset (policy, case F2): Yes / No, neither checked.
    const group = el('fieldset', undefined, 'group');
    group.setAttribute('role', 'radiogroup');
    group.setAttribute('aria-required', 'true');
    const legend = el('legend');
    const name = el('span', field.label);
    name.id = `${base}-label`;
    legend.append(name, required());
    group.setAttribute('aria-labelledby', name.id);
    describe(group);
    group.append(legend);
    const radios = (['true', 'false'] as const).map((value) => {
      const input = el('input');
      input.type = 'radio';
      input.name = `${base}-radio`;
      input.value = value;
      input.id = `${base}-${value}`;
      input.dataset.testid = `field-${testKey(field.key)}-${value === 'true' ? 'yes' : 'no'}`;
      const label = el('label', value === 'true' ? 'Yes' : 'No');
      label.htmlFor = input.id;
      const option = el('div', undefined, 'option');
      option.append(input, label);
      group.append(option);
      return input;
    });
    row.append(group);
    controls = radios;
    labelTarget = group;
    read = () => {
      const picked = radios.find((r) => r.checked);
      return picked ? picked.value === 'true' : null;
    };
  } else if (field.kind === 'boolean') {
    const input = el('input');
    input.type = 'checkbox';
    input.id = `${base}-c`;
    input.checked = field.initial === true;
    describe(input);
    const line = el('div', undefined, 'check');
    line.append(input, labelFor(input.id));
    if (field.required) line.append(required());
    row.append(line);
    controls = [input];
    labelTarget = input;
    read = () => input.checked;
  } else if (field.kind === 'select') {
    const select = el('select');
    select.id = `${base}-c`;
    if (field.required) select.setAttribute('aria-required', 'true');
    describe(select);
    const initial = field.initial === undefined ? undefined : String(field.initial);
    if (initial === undefined || !field.required) select.append(new Option(field.required ? 'Choose…' : '(none)', ''));
    for (const o of field.options ?? []) select.append(new Option(o.label, String(o.value)));
    select.value = initial ?? '';
    row.append(head(select.id), select);
    controls = [select];
    labelTarget = select;
    read = () => select.value;
  } else if (field.kind === 'multiselect') {
    const group = el('fieldset', undefined, 'group');
    const legend = el('legend');
    const name = el('span', field.label);
    name.id = `${base}-label`;
    legend.append(name);
    if (field.required) legend.append(required());
    group.setAttribute('aria-labelledby', name.id);
    describe(group);
    group.append(legend);
    const picked = new Set((Array.isArray(field.initial) ? field.initial : []).map(String));
    const boxes = (field.options ?? []).map((o, i) => {
      const input = el('input');
      input.type = 'checkbox';
      input.id = `${base}-${i}`;
      input.value = String(o.value);
      input.checked = picked.has(input.value);
      const label = el('label', o.label);
      label.htmlFor = input.id;
      const option = el('div', undefined, 'option');
      option.append(input, label);
      group.append(option);
      return input;
    });
    row.append(group);
    controls = boxes;
    labelTarget = group;
    read = () => boxes.filter((b) => b.checked).map((b) => b.value);
  } else {
    const input = el('input');
    input.id = `${base}-c`;
    input.type = INPUT_TYPES[field.kind] ?? 'text';
    if (field.kind === 'number' || field.kind === 'integer') {
      input.step = field.kind === 'integer' ? '1' : 'any';
      input.inputMode = field.kind === 'integer' ? 'numeric' : 'decimal';
      if (field.minimum !== undefined) input.min = String(field.minimum);
      if (field.maximum !== undefined) input.max = String(field.maximum);
    }
    if (field.kind === 'date-time') input.step = '1';
    if (field.kind === 'email') input.autocomplete = 'email';
    if (field.required) input.setAttribute('aria-required', 'true');
    const initial = field.initial === undefined ? '' : String(field.initial);
    input.value = field.kind === 'date-time' ? toLocalDateTimeInput(initial) : initial;
    describe(input);
    row.append(head(input.id), input);
    controls = [input];
    labelTarget = input;
    read = () => (input.validity.badInput ? UNPARSABLE : input.value);
  }
  if (help) row.append(help);
  if (extra) row.append(extra);
  if (prefilled) row.append(prefilled);
  row.append(error);

  const check = (): string | undefined => {
    const raw = read();
    if (field.kind !== 'json') return coerceFieldValue(field as FormField, raw as RawFormValue).error;
    const text = typeof raw === 'string' ? raw : '';
    if (text.trim() === '') return field.required ? 'Required' : undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      return `Not valid JSON: ${(e as Error).message}`;
    }
    if (field.key === '' && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) return 'Must be a JSON object';
    return undefined;
  };
  const setError = (message: string | undefined) => {
    error.textContent = message ?? '';
    row.classList.toggle('invalid', !!message);
    labelTarget.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  // Errors appear once a changed field is left (not while first typing, not for fields merely
  // tabbed through), and update as the person types once shown. Submit checks every field.
  let touched = false;
  const recheck = () => setError(check());
  row.addEventListener('change', () => {
    touched = true;
    recheck();
  });
  row.addEventListener('focusout', (e) => {
    if (touched && !row.contains(e.relatedTarget as Node | null)) recheck();
  });
  row.addEventListener('input', () => {
    touched = true;
    if (row.classList.contains('invalid')) recheck();
  });

  return {
    key: field.key,
    label: field.label,
    row,
    focus: () => controls[0]?.focus(),
    read,
    check,
    setError,
    setDisabled: (d) => controls.forEach((c) => (c.disabled = d)),
  };
}
