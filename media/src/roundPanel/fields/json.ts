/**
 * A tool argument the form cannot express (a nested object, an array of objects, a union, ...),
 * edited as JSON text and checked with the same rule as the extension's (`coerceJsonField`).
 */
import { coerceJsonField } from '../../../../src/core/elicitation/formModel';
import type { ArgumentFieldView } from '../../../../src/vscode/roundPanel/protocol';
import { el } from '../../shared/dom';
import { fieldRow, type FieldControl } from './row';
import * as l10n from '../../shared/l10n';

/** A JSON-text field; the field keyed `''` holds the whole arguments object and must be an object. */
export function jsonField(field: Extract<ArgumentFieldView, { kind: 'json' }>): FieldControl {
  return fieldRow(
    field,
    (parts) => {
      const ta = el('textarea', undefined, 'mono');
      ta.id = `${parts.base}-c`;
      ta.rows = 6;
      ta.spellcheck = false;
      ta.value = field.initial ?? '';
      if (field.required) ta.setAttribute('aria-required', 'true');
      parts.describe(ta);
      return { nodes: [parts.head(ta.id), ta], controls: [ta], invalidTarget: ta, read: () => ta.value };
    },
    (raw) => coerceJsonField(typeof raw === 'string' ? raw : '', field.required, field.key === '').error,
    l10n.t('Edit as JSON: {0}.', field.reason),
  );
}
