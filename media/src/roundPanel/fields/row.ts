/**
 * The row every field of the round panel shares, whatever its kind: a `<label>` (or, for a group, a
 * legend referenced by `aria-labelledby`) whose text is exactly the field's label, the required
 * marker, help and error lines tied to the control with `aria-describedby`, an error that sets
 * `aria-invalid` and is announced (`aria-live`), and when errors appear: once a changed field is
 * left (not while first typing, not for fields merely tabbed through), then as the person types.
 * One builder per field kind fills the row.
 */
import type { RawFormValue } from '../../../../src/core/elicitation/formModel';
import type { ArgumentFieldView } from '../../../../src/vscode/roundPanel/protocol';
import { el, testKey, uid } from '../../shared/dom';
import * as l10n from '../../shared/l10n';

/** One field of a form, as the cards and the arguments form use it. */
export interface FieldControl {
  readonly key: string;
  readonly label: string;
  /** The row (label, control, help, error). */
  readonly row: HTMLElement;
  /** Focus the control (the first radio / checkbox of a group). */
  focus(): void;
  /** The raw value to send: text, checkbox state, picked values, or null for none. */
  read(): RawFormValue;
  /** The problem with the current value (same rules as the extension), or undefined. */
  check(): string | undefined;
  /** Show (or clear) an error beside the field. */
  setError(message: string | undefined): void;
  setDisabled(disabled: boolean): void;
}

/** What a kind's builder may use of the row. */
export interface RowParts {
  /** Prefix of every id in the row: from our own counter, never from server keys. */
  readonly base: string;
  /** A `<label>` for control `id`, whose text is the field's label. */
  label(id: string): HTMLLabelElement;
  /** The line above a control: its label, then the required marker when the field is required. */
  head(id: string): HTMLElement;
  /** The required marker (`*`, hidden from screen readers: the control says `aria-required`). */
  requiredMark(): HTMLElement;
  /** Ties a control or group to the row's help and error lines. */
  describe(c: HTMLElement): void;
  /** A fieldset whose legend is the field's label (and the required marker when required). */
  group(): HTMLFieldSetElement;
  /** A choice of a group: `input` with its own label, appended to `group`. */
  option(group: HTMLElement, input: HTMLInputElement, text: string): void;
}

/** What a kind's builder puts in the row. */
export interface FieldBody {
  /** The row's content before the help and error lines (a head and a control, a check line, a group). */
  nodes: HTMLElement[];
  controls: (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[];
  /** Where `aria-invalid` goes (the control, or the group). */
  invalidTarget: HTMLElement;
  read: () => RawFormValue;
}

/**
 * Build a field's row around the body its kind builds.
 * @param check the same rules as the extension's, on the raw value
 * @param note a help line of the kind (e.g. why an argument is edited as JSON)
 */
export function fieldRow(
  field: ArgumentFieldView,
  build: (parts: RowParts) => FieldBody,
  check: (raw: RawFormValue) => string | undefined,
  note?: string,
): FieldControl {
  const base = uid('f');
  const row = el('div', undefined, 'field');
  row.dataset.field = field.key;
  row.dataset.testid = `field-${testKey(field.key)}`;
  row.dataset.kind = field.kind;
  const describedBy: string[] = [];
  const line = (text: string, cls: string, suffix: string) => {
    const e = el('div', text, cls);
    e.id = `${base}-${suffix}`;
    describedBy.push(e.id);
    return e;
  };
  const help = field.description ? line(field.description, 'help', 'help') : undefined;
  const extra = note !== undefined ? line(note, 'help', 'json') : undefined;
  const prefilled =
    field.initialSource === 'previous' ? el('div', l10n.t('Pre-filled with your last answer.'), 'help prefilled') : undefined;
  const error = line('', 'error', 'err');
  error.setAttribute('aria-live', 'polite');
  const parts = rowParts(field, base, describedBy);
  const body = build(parts);
  row.append(...body.nodes, ...[help, extra, prefilled].filter((e): e is HTMLDivElement => e !== undefined), error);

  const ownCheck = () => check(body.read());
  const setError = (message: string | undefined) => {
    error.textContent = message ? l10n.fieldErrorText(message) : '';
    row.classList.toggle('invalid', !!message);
    body.invalidTarget.setAttribute('aria-invalid', message ? 'true' : 'false');
  };
  let touched = false;
  const recheck = () => setError(ownCheck());
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
    focus: () => body.controls[0]?.focus(),
    read: body.read,
    check: ownCheck,
    setError,
    setDisabled: (d) => body.controls.forEach((c) => (c.disabled = d)),
  };
}

function rowParts(field: ArgumentFieldView, base: string, describedBy: readonly string[]): RowParts {
  const requiredMark = () => {
    const r = el('span', '*', 'req');
    r.setAttribute('aria-hidden', 'true');
    r.title = 'required';
    return r;
  };
  const label = (id: string) => {
    const l = el('label', field.label);
    l.htmlFor = id;
    l.id = `${id}-label`;
    return l;
  };
  const describe = (c: HTMLElement) => c.setAttribute('aria-describedby', describedBy.join(' '));
  return {
    base,
    label,
    requiredMark,
    describe,
    head: (id) => {
      const h = el('div', undefined, 'field-head');
      h.append(label(id));
      if (field.required) h.append(requiredMark());
      return h;
    },
    group: () => {
      const group = el('fieldset', undefined, 'group');
      const legend = el('legend');
      const name = el('span', field.label);
      name.id = `${base}-label`;
      legend.append(name);
      if (field.required) legend.append(requiredMark());
      group.setAttribute('aria-labelledby', name.id);
      describe(group);
      group.append(legend);
      return group;
    },
    option: (group, input, text) => {
      const l = el('label', text);
      l.htmlFor = input.id;
      const option = el('div', undefined, 'option');
      option.append(input, l);
      group.append(option);
    },
  };
}
