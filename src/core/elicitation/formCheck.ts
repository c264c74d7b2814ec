/**
 * The host's authority check of form-mode elicitation content, with ajv (`jsonSchema/validator.ts`),
 * and the `ElicitResult` built from what the person chose. ajv compiles code with `new Function`,
 * which the webview's CSP forbids: the webview checks inline with the pure form model
 * (`formModel.ts`), and the extension runs this check before anything is sent.
 *
 * Spec: MCP 2026-07-28, "Elicitation" (form mode): the client validates content against the
 * requested schema before sending; decline and cancel carry no content (docs/field-cases.md, F1-F4).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { SchemaCache, compileOnce, describeAjvError, instancePathSegments, sharedAjv } from '../jsonSchema/validator';
import { isPlainObject } from '../util/json';
import { buildFormModel, isOptionValue } from './formFields';
import { FORMAT_MESSAGES, REQUIRED_MESSAGE, itemsMessage, lengthMessage, numberMessage } from './formMessages';
import {
  coerceFormValues,
  FORM_ERROR_KEY,
  type ElicitAction,
  type ElicitContent,
  type ElicitOutcome,
  type FieldErrors,
  type FormModel,
  type RawFormValues,
} from './formModel';
import { type FormField } from './formField';

// ---------------------------------------------------------------------------------------------
// ajv: the authority check

/** Compiled validators of elicitation schemas, by schema text (each round brings a new schema object). */
const validators = new SchemaCache<ValidateFunction>();

function compileElicitationValidator(schema: Record<string, unknown>): ValidateFunction {
  // `$schema` and `$id` are dropped: the restricted schema means the same in every dialect, and an
  // `$id` must not be registered in the shared instance.
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  // Legacy titled enums (spec: LegacyTitledEnumSchema): an annotation, never an error (docs/field-cases.md, F3).
  return validators.get(schema, JSON.stringify(rest), () => compileOnce(sharedAjv('2020-12', { enumNames: true }), rest));
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** A form-style message for an ajv error on `field`, phrased from the field's constraints where possible. */
function fieldMessage(field: FormField | undefined, e: ErrorObject): string {
  if (e.keyword === 'required') return REQUIRED_MESSAGE;
  if (field) {
    if (
      (field.kind === 'number' || field.kind === 'integer') &&
      ['type', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(e.keyword)
    )
      return numberMessage(field);
    if (e.keyword === 'minLength' || e.keyword === 'maxLength') return lengthMessage(field);
    if (e.keyword === 'format' && FORMAT_MESSAGES[field.kind]) return FORMAT_MESSAGES[field.kind]!;
    if (field.kind === 'select' && ['enum', 'const', 'oneOf', 'anyOf'].includes(e.keyword)) return 'Choose one of the options';
    if (field.kind === 'multiselect') {
      if (e.keyword === 'minItems' || e.keyword === 'maxItems') return itemsMessage(field);
      if (['enum', 'const', 'anyOf', 'oneOf'].includes(e.keyword)) return 'Choose only from the listed options';
    }
    if (field.kind === 'boolean' && e.keyword === 'type') return 'Must be Yes or No (true or false)';
  }
  return capitalize(describeAjvError(e));
}

/** Keyword priority for choosing the one message shown per field: the specific beats the generic. */
function isGenericKeyword(k: string): boolean {
  return k === 'anyOf' || k === 'oneOf' || k === 'if' || k === 'not';
}

/**
 * The authority check of accepted form content before it is sent (spec: MCP 2026-07-28
 * "Elicitation": validate before sending). Runs ajv (JSON Schema draft 2020-12, ajv-formats for
 * email / uri / date / date-time; `enumNames` tolerated) against `requestedSchema`'s properties
 * and `required` list (the restricted schema of the spec; other root keywords are not checked); every
 * `required` key must be present. Also rejects keys the schema does not declare (nothing is sent
 * that was not asked for) and values that are not string / number / boolean / string array.
 * Compiled validators are cached by schema text.
 *
 * @returns problems by field key, `''` for form-level ones (e.g. an unusable schema); `{}` when valid.
 *   Never throws.
 */
export function checkFormContent(requestedSchema: unknown, content: unknown): FieldErrors {
  let model: FormModel;
  try {
    model = buildFormModel(requestedSchema); // also bounds ajv's work: a flat schema only
  } catch (e) {
    return { [FORM_ERROR_KEY]: `The requested schema is not a valid elicitation form: ${(e as Error).message}` };
  }
  if (!isPlainObject(content)) return { [FORM_ERROR_KEY]: 'Content must be an object' };
  // Server-chosen keys ("__proto__", "constructor", "toString") are plain keys here: a Map for the
  // errors, own-property reads only, and ajv sees the fields under neutral names (f0, f1, ...), since
  // its checks read `data[key]` (an inherited `constructor` "is present"; a `__proto__` key fails open).
  const byKey = new Map(model.fields.map((f) => [f.key, f]));
  const errors = new Map<string, string>();
  const chosen = new Map<string, string>(); // keyword behind each message, to prefer specific ones
  const neutral = new Map(model.fields.map((f, i) => [`f${i}`, f.key]));
  const indexOf = new Map(model.fields.map((f, i) => [f.key, i]));
  const neutralContent: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(content)) {
    if (!byKey.has(key)) errors.set(key, 'Not a field of this form');
    else if (!(isOptionValue(value) || (Array.isArray(value) && value.every(isOptionValue))))
      errors.set(key, 'Must be text, a number, true/false or a list of choices');
    else neutralContent[`f${indexOf.get(key)}`] = value;
  }
  const properties = model.schema.properties as Record<string, unknown>;
  const required = Array.isArray(model.schema.required) ? (model.schema.required as string[]) : [];
  const neutralSchema = {
    type: 'object',
    properties: Object.fromEntries(model.fields.map((f, i) => [`f${i}`, properties[f.key]])),
    required: model.fields.flatMap((f, i) => (required.includes(f.key) ? [`f${i}`] : [])),
  };
  let validate: ValidateFunction;
  try {
    validate = compileElicitationValidator(neutralSchema);
  } catch (e) {
    return { [FORM_ERROR_KEY]: `The requested schema cannot be checked: ${(e as Error).message}` };
  }
  if (!validate(neutralContent)) {
    for (const e of validate.errors ?? []) {
      const segs = instancePathSegments(e.instancePath);
      const at =
        e.keyword === 'required' && segs.length === 0 ? String((e.params as { missingProperty: string }).missingProperty) : segs[0];
      const key = at === undefined ? FORM_ERROR_KEY : (neutral.get(at) ?? FORM_ERROR_KEY);
      if (key === FORM_ERROR_KEY && e.keyword === 'additionalProperties') continue; // reported per key above
      const previousKeyword = chosen.get(key);
      if (errors.has(key) && !(previousKeyword !== undefined && isGenericKeyword(previousKeyword) && !isGenericKeyword(e.keyword)))
        continue;
      errors.set(key, fieldMessage(byKey.get(key), e));
      chosen.set(key, e.keyword);
    }
  }
  // In form order (form-level first, unknown keys last), so the UI can focus the first problem.
  const order = [FORM_ERROR_KEY, ...model.fields.map((f) => f.key)];
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.fromEntries([...errors].sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * Builds the `ElicitResult` for the person's choice (spec: MCP 2026-07-28 "Elicitation", result).
 *
 * - `decline` / `cancel`: `{action}` with no `content` key and no validation; whatever was typed is
 *   dropped (docs/field-cases.md, F4).
 * - `accept`: coerces `raw` ({@link coerceFormValues}) and checks it against the schema
 *   ({@link checkFormContent}); only when both pass is `{action: 'accept', content}`
 *   returned. An accept with a missing required key (or `content: {}` for a form with required
 *   fields) is never produced (docs/field-cases.md, F1).
 *
 * @throws Error when `action` is not accept, decline or cancel
 */
export function buildElicitResult(model: FormModel, action: ElicitAction, raw: RawFormValues = {}): ElicitOutcome {
  if (action === 'decline' || action === 'cancel') return { ok: true, result: { action } };
  if (action !== 'accept') throw new Error(`Unknown elicitation action ${JSON.stringify(action)} (accept, decline or cancel)`);
  const { content, errors } = coerceFormValues(model, raw);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const schemaErrors = checkFormContent(model.schema, content);
  if (Object.keys(schemaErrors).length > 0) return { ok: false, errors: schemaErrors };
  return { ok: true, result: { action: 'accept', content: content as ElicitContent } };
}
