/**
 * Form controls of the round panel: one {@link FieldControl} per `FormField` (elicitation forms and
 * tool arguments) or `JsonField` (tool arguments the form cannot express), native inputs styled with
 * the VS Code theme variables, built by one builder per field kind over the shared row (`row.ts`).
 */
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
