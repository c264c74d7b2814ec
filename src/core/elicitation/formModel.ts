/**
 * The pure form model of form-mode elicitation (and of the tool arguments form): the types of a form
 * and its fields, and the coercion of what a person typed into typed `content`, with the messages for
 * what does not fit. Shared by the extension and the round panel's webview, which bundles it: no ajv
 * here (ajv compiles code with `new Function`, which the webview's CSP forbids, and it is heavy). The
 * extension's authority check with ajv is `formCheck.ts`; building a form from a schema is `formFields.ts`.
 *
 * Spec: MCP 2026-07-28, "Elicitation" (form mode): numbers go out as JSON numbers, booleans as
 * booleans, multi-selects as arrays (docs/field-cases.md, F1-F4). Pure logic: never imports `vscode`,
 * ajv or any Node built-in.
 */
import { isPlainObject, ownValue } from '../util/json';
import type { FormField, FormValue, OptionValue } from './formField';
import { FORMAT_MESSAGES, REQUIRED_MESSAGE, itemsMessage, lengthMessage, numberMessage } from './formMessages';
import { findOption, formatOk, isValidDateTime, localDateTimeToRfc3339, normalizeForKind, parseNumber } from './formValues';

// ---------------------------------------------------------------------------------------------
// Types

/** The form for one elicitation: its fields and the schema they came from (used for the final check). */
export interface FormModel {
  fields: FormField[];
  /** The `requestedSchema` exactly as received. */
  schema: Readonly<Record<string, unknown>>;
}

/**
 * A value as it comes from an HTML control: a string (text, number, date, select, radio), a
 * boolean (checkbox), a string array (multi-select), or empty (`''`, `undefined`, `null`).
 * Typed values (`3`, `['a']`) are accepted too, so `initial` can be passed back unchanged.
 */
export type RawFormValue = string | number | boolean | readonly OptionValue[] | null | undefined;

/** Raw values by field key. */
export type RawFormValues = Readonly<Record<string, RawFormValue>>;

/** Human-readable problems by field key; the key `''` ({@link FORM_ERROR_KEY}) holds form-level problems. */
export type FieldErrors = Record<string, string>;

/** Key of {@link FieldErrors} for problems that belong to no single field. */
export const FORM_ERROR_KEY = '';

/** Typed content of an accepted form elicitation (spec: `ElicitResult.content`). */
export type ElicitContent = Record<string, string | number | boolean | string[]>;

/** The three answers to an elicitation (spec: `ElicitResult.action`). */
export type ElicitAction = 'accept' | 'decline' | 'cancel';

/**
 * The exact value sent under the input request's key in `inputResponses` (spec: `ElicitResult`).
 * Decline and cancel never carry `content` (docs/field-cases.md, F4).
 */
export type ElicitAnswer = { action: 'accept'; content: ElicitContent } | { action: 'decline' } | { action: 'cancel' };

/** Outcome of {@link buildElicitResult}: the answer to send, or the reasons it cannot be sent. */
export type ElicitOutcome = { ok: true; result: ElicitAnswer } | { ok: false; errors: FieldErrors };

/** Outcome of {@link coerceFormValues}: typed content (valid fields only) and per-field problems. */
export interface CoercedForm {
  content: Record<string, FormValue>;
  errors: FieldErrors;
}

/** Thrown when a property schema cannot be shown as a form field; names the property and the reason. */

// ---------------------------------------------------------------------------------------------
// Raw input -> typed content

/** Result of coercing one field: a typed value, nothing (empty optional field), or an error. */
export type CoercedField = { value?: FormValue; error?: string };

function isEmptyRaw(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/**
 * Coerces one raw value for one field (see {@link coerceFormValues}); exported so tool argument
 * forms (`arguments/toolArguments.ts`) reuse the same rules.
 * @returns `{value}` when valid, `{}` when empty and optional, `{error}` otherwise (never throws)
 */
export function coerceFieldValue(field: FormField, raw: RawFormValue): CoercedField {
  if (field.kind === 'multiselect') {
    const list = raw === undefined || raw === null || raw === '' ? [] : Array.isArray(raw) ? raw : [raw as OptionValue];
    // An optional multi-select left empty is omitted; a required one sends [] when that is allowed.
    if (list.length === 0 && !field.required) return {};
    const picked: OptionValue[] = [];
    for (const item of list) {
      const o = findOption(field.options ?? [], item);
      if (!o) return { error: 'Choose only from the listed options' };
      if (!picked.includes(o.value)) picked.push(o.value);
    }
    if (
      (field.minItems !== undefined && picked.length < field.minItems) ||
      (field.maxItems !== undefined && picked.length > field.maxItems)
    ) {
      return { error: picked.length === 0 && field.required ? REQUIRED_MESSAGE : itemsMessage(field) };
    }
    return { value: picked };
  }
  if (isEmptyRaw(raw)) return field.required ? { error: field.kind === 'boolean' ? 'Required: choose Yes or No' : REQUIRED_MESSAGE } : {};
  switch (field.kind) {
    case 'boolean': {
      const b = normalizeForKind(field, raw);
      return b === undefined ? { error: 'Choose Yes or No' } : { value: b };
    }
    case 'number':
    case 'integer': {
      const n = parseNumber(raw);
      if (n === undefined) return { error: numberMessage(field) };
      if (field.kind === 'integer' && !Number.isSafeInteger(n)) return { error: numberMessage(field) };
      if ((field.minimum !== undefined && n < field.minimum) || (field.maximum !== undefined && n > field.maximum))
        return { error: numberMessage(field) };
      return { value: n };
    }
    case 'select': {
      const o = findOption(field.options ?? [], raw);
      return o ? { value: o.value } : { error: 'Choose one of the options' };
    }
    default: {
      if (typeof raw !== 'string') return { error: 'Must be text' };
      let s = field.kind === 'text' ? raw : raw.trim();
      if (field.kind === 'date-time' && !isValidDateTime(s)) s = localDateTimeToRfc3339(s) ?? s;
      if (!formatOk(field.kind, s)) return { error: FORMAT_MESSAGES[field.kind] ?? 'Has the wrong format' };
      const len = [...s].length; // JSON Schema counts code points, not UTF-16 units
      if ((field.minLength !== undefined && len < field.minLength) || (field.maxLength !== undefined && len > field.maxLength))
        return { error: lengthMessage(field) };
      return { value: s };
    }
  }
}

/**
 * Turns raw HTML input into typed content (spec: "Send numbers as JSON numbers, booleans as
 * booleans, multi-select as arrays"). Integers reject fractions and junk (`3.5`, `3abc`); numbers
 * are checked against minimum / maximum, text against length and format, choices against the
 * options (the option's value is sent, never its label). Empty optional fields are omitted;
 * empty required fields are errors ("Required").
 *
 * @returns `content` holding every valid non-empty field and `errors` by field key (empty when all
 *   fields are fine). Never throws. This is the UI-side check; {@link buildElicitResult} adds the
 *   schema check before sending.
 */
export function coerceFormValues(model: FormModel, raw: RawFormValues): CoercedForm {
  // Field keys are the server's: "constructor" or "toString" must not read inherited members, and
  // "__proto__" must become a plain key (Object.fromEntries defines own properties).
  const content: [string, FormValue][] = [];
  const errors: [string, string][] = [];
  for (const field of model.fields) {
    const r = coerceFieldValue(field, ownValue(raw, field.key));
    if (r.error !== undefined) errors.push([field.key, r.error]);
    else if (r.value !== undefined) content.push([field.key, r.value]);
  }
  return { content: Object.fromEntries(content), errors: Object.fromEntries(errors) };
}

/**
 * The rule for a JSON-text field of the arguments form (an argument the form cannot express), the
 * same in the webview and the extension: empty text means omitted (an error when required), the text
 * must parse as JSON, and the field holding the whole arguments object must hold an object.
 * @param raw the text typed (a value that is not text, e.g. from a script, counts as already parsed)
 * @param mustBeObject the field stands for the whole arguments object
 * @returns `{value}` when valid, `{}` when empty and optional, `{error}` otherwise (never throws)
 */
export function coerceJsonField(raw: unknown, required: boolean, mustBeObject: boolean): { value?: unknown; error?: string } {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return required ? { error: REQUIRED_MESSAGE } : {};
    try {
      value = JSON.parse(raw);
    } catch (e) {
      return { error: `Not valid JSON: ${(e as Error).message}` };
    }
  } else if (raw === undefined) return required ? { error: REQUIRED_MESSAGE } : {};
  if (mustBeObject && !isPlainObject(value)) return { error: 'Must be a JSON object' };
  return { value };
}

/** The message for field `key` in `errors` (`''`: the form as a whole), reading own entries only. */
export function fieldError(errors: FieldErrors, key: string): string | undefined {
  return ownValue(errors, key);
}
