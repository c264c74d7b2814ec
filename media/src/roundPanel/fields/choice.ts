/**
 * Choice fields: a `<select>` for a single choice, a group of checkboxes for a multi-select. The
 * option's value is what is sent, its label what is shown (docs/field-cases.md, F3).
 */
import { coerceFieldValue } from '../../../../src/core/elicitation/formModel';
import { type FormField } from '../../../../src/core/elicitation/formField';
import { el } from '../../shared/dom';
import { fieldRow, type FieldControl } from './row';
import * as l10n from '../../shared/l10n';

/** A single choice: a `<select>`, with an empty first option unless a required field has a value already. */
export function selectField(field: FormField): FieldControl {
  return fieldRow(
    field,
    (parts) => {
      const select = el('select');
      select.id = `${parts.base}-c`;
      if (field.required) select.setAttribute('aria-required', 'true');
      parts.describe(select);
      const initial = field.initial === undefined ? undefined : String(field.initial);
      if (initial === undefined || !field.required) select.append(new Option(field.required ? l10n.t('Choose…') : l10n.t('(none)'), ''));
      for (const o of field.options ?? []) select.append(new Option(o.label, String(o.value)));
      select.value = initial ?? '';
      return { nodes: [parts.head(select.id), select], controls: [select], invalidTarget: select, read: () => select.value };
    },
    (raw) => coerceFieldValue(field, raw).error,
  );
}

/** A multi-select: one checkbox per option, in a group labelled by the field's label. */
export function multiselectField(field: FormField): FieldControl {
  return fieldRow(
    field,
    (parts) => {
      const group = parts.group();
      const picked = new Set((Array.isArray(field.initial) ? field.initial : []).map(String));
      const boxes = (field.options ?? []).map((o, i) => {
        const input = el('input');
        input.type = 'checkbox';
        input.id = `${parts.base}-${i}`;
        input.value = String(o.value);
        input.checked = picked.has(input.value);
        parts.option(group, input, o.label);
        return input;
      });
      return { nodes: [group], controls: boxes, invalidTarget: group, read: () => boxes.filter((b) => b.checked).map((b) => b.value) };
    },
    (raw) => coerceFieldValue(field, raw).error,
  );
}
