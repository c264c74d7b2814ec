/**
 * Form controls of the round panel: one {@link FieldControl} per `FormField` (elicitation forms and
 * tool arguments) or `JsonField` (tool arguments the form cannot express), native inputs styled with
 * the VS Code theme variables, built by one builder per field kind over the shared row (`row.ts`).
 */
import { fieldError, type FieldErrors, type RawFormValues } from '../../../../src/core/elicitation/formModel';
import type { ArgumentFieldView } from '../../../../src/vscode/roundPanel/protocol';
import { booleanField } from './boolean';
import { multiselectField, selectField } from './choice';
import { jsonField } from './json';
import type { FieldControl } from './row';
import { inputField } from './text';

export type { FieldControl } from './row';

/** Build the control for one field. */
export function fieldControl(field: ArgumentFieldView): FieldControl {
  switch (field.kind) {
    case 'json':
      return jsonField(field);
    case 'boolean':
      return booleanField(field);
    case 'select':
      return selectField(field);
    case 'multiselect':
      return multiselectField(field);
    default:
      return inputField(field);
  }
}

/**
 * Check every field (showing each one's error) and read them all.
 * @returns the raw values by field key, and the fields that need fixing
 */
export function checkFields(controls: readonly FieldControl[]): { values: RawFormValues; invalid: FieldControl[] } {
  const invalid: FieldControl[] = [];
  for (const c of controls) {
    const problem = c.check();
    c.setError(problem);
    if (problem) invalid.push(c);
  }
  // fromEntries: a field named "__proto__" is an own key (an assignment would set the prototype).
  return { values: Object.fromEntries(controls.map((c) => [c.key, c.read()])), invalid };
}

/** Show the extension's errors beside the fields (clearing the others); returns the fields in error. */
export function showFieldErrors(controls: readonly FieldControl[], errors: FieldErrors): FieldControl[] {
  return controls.filter((c) => {
    c.setError(fieldError(errors, c.key));
    return !!fieldError(errors, c.key);
  });
}
