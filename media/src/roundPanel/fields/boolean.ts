/**
 * Boolean fields: a checkbox, or, for a required boolean without a default, a Yes / No pair with
 * neither chosen, so an untouched field is never sent as `false` (policy of docs/field-cases.md, F2).
 */
import { coerceFieldValue } from '../../../../src/core/elicitation/formModel';
import { type FormField } from '../../../../src/core/elicitation/formField';
import { el, testKey } from '../../shared/dom';
import { fieldRow, type FieldControl } from './row';

/** A boolean field: Yes / No radios when required without default, else a checkbox. */
export function booleanField(field: FormField): FieldControl {
  const check = (raw: Parameters<typeof coerceFieldValue>[1]) => coerceFieldValue(field, raw).error;
  if (field.initial !== undefined || !field.required) {
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
      group.setAttribute('aria-required', 'true');
      const radios = (['true', 'false'] as const).map((value) => {
        const input = el('input');
        input.type = 'radio';
        input.name = `${parts.base}-radio`;
        input.value = value;
        input.id = `${parts.base}-${value}`;
        input.dataset.testid = `field-${testKey(field.key)}-${value === 'true' ? 'yes' : 'no'}`;
        parts.option(group, input, value === 'true' ? 'Yes' : 'No');
        return input;
      });
      const read = () => {
        const picked = radios.find((r) => r.checked);
        return picked ? picked.value === 'true' : null;
      };
      return { nodes: [group], controls: radios, invalidTarget: group, read };
    },
    check,
  );
}
