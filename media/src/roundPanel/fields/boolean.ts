/**
 * Boolean fields: a checkbox when the field has a value to start from (a default, an earlier answer);
 * without one, a Yes / No pair with neither chosen (required), or Yes / No / Not set with "Not set"
 * chosen (optional), so an untouched field is never sent as `false` and an optional one can always go
 * back to unset (policy of docs/field-cases.md, F2).
 */
import { coerceFieldValue } from '../../../../src/core/elicitation/formModel';
import { type FormField } from '../../../../src/core/elicitation/formField';
import { el, testKey } from '../../shared/dom';
import { fieldRow, type FieldControl } from './row';
import * as l10n from '../../shared/l10n';

/** How a boolean field is shown: a checkbox, Yes / No (required, unset), or Yes / No / Not set (optional, unset). */
export type BooleanControl = 'checkbox' | 'yes-no' | 'yes-no-unset';

/** The control of a boolean field: a checkbox only when it starts from a value. */
export function booleanControl(field: Pick<FormField, 'initial' | 'required'>): BooleanControl {
  if (field.initial !== undefined) return 'checkbox';
  return field.required ? 'yes-no' : 'yes-no-unset';
}

/** The radios of a boolean field (value, label, test id suffix), "Not set" last when the field is optional. */
export function booleanRadios(control: Exclude<BooleanControl, 'checkbox'>): { value: string; text: string; id: string }[] {
  const radios = [
    { value: 'true', text: l10n.t('Yes'), id: 'yes' },
    { value: 'false', text: l10n.t('No'), id: 'no' },
  ];
  return control === 'yes-no-unset' ? [...radios, { value: '', text: l10n.t('Not set'), id: 'unset' }] : radios;
}

/** The raw value of the picked radio: `true`, `false`, or `null` (nothing picked, or "Not set"): left out of what is sent. */
export function radioValue(picked: string | undefined): boolean | null {
  return picked === 'true' ? true : picked === 'false' ? false : null;
}

/** A boolean field: see {@link booleanControl}. */
export function booleanField(field: FormField): FieldControl {
  const check = (raw: Parameters<typeof coerceFieldValue>[1]) => coerceFieldValue(field, raw).error;
  const control = booleanControl(field);
  if (control === 'checkbox') {
    return fieldRow(
      field,
      (parts) => {
        const input = el('input');
        input.type = 'checkbox';
        input.id = `${parts.base}-c`;
        input.checked = field.initial === true;
        parts.describe(input);
        const line = el('div', undefined, 'check');
        line.append(input, parts.label(input.id));
        if (field.required) line.append(parts.requiredMark());
        return { nodes: [line], controls: [input], invalidTarget: input, read: () => input.checked };
      },
      check,
    );
  }
  return fieldRow(
    field,
    (parts) => {
      const group = parts.group();
      group.setAttribute('role', 'radiogroup');
      if (field.required) group.setAttribute('aria-required', 'true');
      const radios = booleanRadios(control).map((r) => {
        const input = el('input');
        input.type = 'radio';
        input.name = `${parts.base}-radio`;
        input.value = r.value;
        input.id = `${parts.base}-${r.id}`;
        input.dataset.testid = `field-${testKey(field.key)}-${r.id}`;
        // An optional field starts at "Not set".
        input.checked = r.id === 'unset';
        parts.option(group, input, r.text);
        return input;
      });
      const read = () => radioValue(radios.find((r) => r.checked)?.value);
      return { nodes: [group], controls: radios, invalidTarget: group, read };
    },
    check,
  );
}
