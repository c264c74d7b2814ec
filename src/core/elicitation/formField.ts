/**
 * The fields of a form: their kinds, choices and values, as the schema of an elicitation request or a
 * tool's arguments describes them. The same types in the webview and the extension.
 */

/** How a field is rendered and coerced. `select` is a single choice, `multiselect` a set of choices. */
export type FieldKind = 'text' | 'email' | 'uri' | 'date' | 'date-time' | 'number' | 'integer' | 'boolean' | 'select' | 'multiselect';

/** The JSON value of one choice. The spec uses strings; numbers and booleans are tolerated for lenient servers. */
export type OptionValue = string | number | boolean;

/** One choice of a `select` / `multiselect`: the `value` is what is sent, the `label` what is shown. */
export interface FieldOption {
  value: OptionValue;
  /** The `oneOf`/`anyOf` `title`, the legacy `enumNames` entry, or else the value as text. */
  label: string;
}

/** A typed field value: what goes into `content` (and what `initial` holds). */
export type FormValue = string | number | boolean | OptionValue[];

/**
 * One form field, in the order of the schema's `properties`.
 * Constraints are copied from the property schema when present (the UI may use them as input
 * attributes; {@link coerceFormValues} enforces them).
 */
export interface FormField {
  /** The property name: the key in `content`. */
  key: string;
  /** The property's `title`, else its key. */
  label: string;
  description?: string;
  /** Listed in the schema's `required`. */
  required: boolean;
  kind: FieldKind;
  /** The string `format` as given (also for formats without a dedicated kind, e.g. `uuid`). */
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  /** Choices of a `select` / `multiselect`, in schema order. */
  options?: FieldOption[];
  /**
   * The value the form opens with: the value the person gave in an earlier round for the same key
   * (when still valid for the field's kind), else the schema `default` when valid for the field,
   * else `undefined` (unset). A required boolean without default stays unset (policy of docs/field-cases.md, F2).
   */
  initial?: FormValue;
  /** Where `initial` came from, so the UI can say "pre-filled from your last answer". */
  initialSource?: 'default' | 'previous';
}
