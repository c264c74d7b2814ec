/**
 * Fields typed into a native `<input>`: text, email, URI, date, date-time (`datetime-local`), number
 * and integer. Checked with `coerceFieldValue`, the very rules the extension applies before its ajv
 * check (which cannot run here: the CSP forbids `new Function`).
 */
import { coerceFieldValue } from '../../../../src/core/elicitation/formModel';
import { type FormField } from '../../../../src/core/elicitation/formField';
import { el } from '../../shared/dom';
import { fieldRow, type FieldControl } from './row';
import * as l10n from '../../shared/l10n';

/** What a number or date input reports when the browser holds text it could not parse (`badInput`). */
const UNPARSABLE = l10n.t('(not understood)');

const INPUT_TYPES: Record<string, string> = {
  text: 'text',
  email: 'email',
  uri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
  number: 'number',
  integer: 'number',
};

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

/** A text, email, URI, date, date-time, number or integer field. */
export function inputField(field: FormField): FieldControl {
  return fieldRow(
    field,
    (parts) => {
      const input = el('input');
      input.id = `${parts.base}-c`;
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
      parts.describe(input);
      return {
        nodes: [parts.head(input.id), input],
        controls: [input],
        invalidTarget: input,
        read: () => (input.validity.badInput ? UNPARSABLE : input.value),
      };
    },
    (raw) => coerceFieldValue(field, raw).error,
  );
}
