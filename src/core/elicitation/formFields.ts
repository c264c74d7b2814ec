/**
 * The server's `requestedSchema` (or a tool argument's schema) as form fields: kinds, labels, help,
 * constraints, choices with their titles, and the value each field opens with.
 *
 * Spec: MCP 2026-07-28, "Elicitation" (form mode): `requestedSchema` is a flat object of primitive
 * properties (string with minLength / maxLength / format email | uri | date | date-time; number and
 * integer with minimum / maximum; boolean; single-select `enum`, titled `oneOf: [{const, title}]`,
 * legacy `enumNames`; multi-select `type: array` with `items.enum` or titled `items.anyOf`,
 * minItems / maxItems), each with optional title, description and default, and a `required` list
 * (docs/field-cases.md, F1-F3). Pure logic: no `vscode`, ajv or Node built-in.
 */
import { isPlainObject, ownValue } from '../util/json';
import { normalizeForKind } from './formValues';
import type { FormModel } from './formModel';
import type { FieldKind, FieldOption, FormField, OptionValue } from './formField';

/** Thrown when a property schema cannot be shown as a form field; names the property and the reason. */
export class UnsupportedFieldError extends Error {
  /**
   * @param key the property name
   * @param reason why it is not supported, as a sentence fragment
   */
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`Field "${key}": ${reason}`);
    this.name = 'UnsupportedFieldError';
  }
}

/**
 * Options of {@link buildFormField}.
 * - `mode: 'elicitation'` applies the spec's restricted schema (multi-select values are strings,
 *   no `null` choices). `'tool'` is used for tool `inputSchema` properties (see `arguments/toolSchema.ts`), where
 *   the caller has already resolved `$ref`s and unwrapped nullable types.
 */
export interface FieldOptions {
  required: boolean;
  /** The value given for this key in an earlier round (raw or typed), for pre-fill. */
  previous?: unknown;
  mode?: 'elicitation' | 'tool';
}

function nonNegInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

function finite(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Keywords that give a property structure a flat form cannot show. */
const STRUCTURAL_KEYWORDS = [
  'properties',
  'patternProperties',
  'additionalProperties',
  'prefixItems',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  '$defs',
  'definitions',
];

const STRING_FORMAT_KINDS: Record<string, FieldKind> = { email: 'email', uri: 'uri', date: 'date', 'date-time': 'date-time' };

/** Choices from `[{const, title}]` (titled single/multi select). `undefined` if the list has another shape. */
function titledChoices(list: unknown): FieldOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: FieldOption[] = [];
  for (const item of list) {
    if (!isPlainObject(item) || !('const' in item)) return undefined;
    const value = item.const;
    if (!isOptionValue(value)) return undefined;
    out.push({ value, label: typeof item.title === 'string' && item.title !== '' ? item.title : String(value) });
  }
  return out;
}

/** True for a value a choice may have (string, boolean, finite number). */
export function isOptionValue(v: unknown): v is OptionValue {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** Choices from `enum` (+ legacy `enumNames`). Nulls are dropped in tool mode (nullable enums). */
function enumChoices(key: string, schema: Record<string, unknown>, mode: 'elicitation' | 'tool'): FieldOption[] {
  const values = schema.enum as unknown[];
  const names: unknown[] = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  const out: FieldOption[] = [];
  values.forEach((value, i) => {
    if (value === null && mode === 'tool') return;
    if (!isOptionValue(value))
      throw new UnsupportedFieldError(key, `enum values must be strings, numbers or booleans, got ${JSON.stringify(value)}`);
    const name = names[i];
    out.push({ value, label: typeof name === 'string' && name !== '' ? name : String(value) });
  });
  if (out.length === 0) throw new UnsupportedFieldError(key, 'enum has no choices');
  return out;
}

/**
 * Turns one property schema into a form field.
 *
 * Supported: string (formats email, uri, date, date-time get their own kind), number, integer,
 * boolean, single-select (`enum`, `enumNames`, titled `oneOf`/`anyOf`, `const`) and multi-select
 * (`type: array` with `items.enum` or titled `items.anyOf`/`items.oneOf`).
 *
 * @throws UnsupportedFieldError naming the property when it is a nested object, an array of
 *   anything but choices, a `$ref`, a combinator the form cannot express, or has no usable type.
 */
export function buildFormField(key: string, schema: unknown, opts: FieldOptions): FormField {
  const mode = opts.mode ?? 'elicitation';
  if (!isPlainObject(schema)) throw new UnsupportedFieldError(key, 'the property schema must be an object');
  if (typeof schema.$ref === 'string' || typeof schema.$dynamicRef === 'string') {
    throw new UnsupportedFieldError(
      key,
      `uses $ref ("${String(schema.$ref ?? schema.$dynamicRef)}"); a form field must be a flat primitive, not a reference`,
    );
  }
  const type = schema.type;
  if (Array.isArray(type)) throw new UnsupportedFieldError(key, `"type" must be a single type name, got ${JSON.stringify(type)}`);
  if (type === 'object' || isPlainObject(schema.properties))
    throw new UnsupportedFieldError(key, 'nested objects are not supported in a form (only flat primitive properties)');
  for (const kw of STRUCTURAL_KEYWORDS) {
    if (kw in schema) throw new UnsupportedFieldError(key, `"${kw}" is not supported in a form field`);
  }

  const field: FormField = {
    key,
    label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : key,
    required: opts.required,
    kind: 'text',
  };
  if (typeof schema.description === 'string' && schema.description !== '') field.description = schema.description;

  if (type === 'array') {
    const items = schema.items;
    if (!isPlainObject(items))
      throw new UnsupportedFieldError(key, 'arrays are only supported as multi-select (items.enum or titled items.anyOf)');
    let options: FieldOption[] | undefined;
    if (Array.isArray(items.enum)) options = enumChoices(key, items, mode);
    else options = titledChoices(items.anyOf) ?? titledChoices(items.oneOf);
    if (!options)
      throw new UnsupportedFieldError(
        key,
        'arrays are only supported as multi-select (items.enum or titled items.anyOf of {const, title})',
      );
    if (mode === 'elicitation' && options.some((o) => typeof o.value !== 'string')) {
      throw new UnsupportedFieldError(key, 'multi-select values must be strings');
    }
    field.kind = 'multiselect';
    field.options = options;
    const minItems = nonNegInt(schema.minItems);
    const maxItems = nonNegInt(schema.maxItems);
    if (minItems !== undefined) field.minItems = minItems;
    if (maxItems !== undefined) field.maxItems = maxItems;
  } else {
    if (type !== undefined && type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') {
      throw new UnsupportedFieldError(
        key,
        `type ${JSON.stringify(type)} is not supported (string, number, integer, boolean or a multi-select array)`,
      );
    }
    // Single-select: the spec's titled `oneOf`, also `anyOf` and `const`, else plain / legacy `enum`.
    let options: FieldOption[] | undefined;
    if (Array.isArray(schema.enum)) options = enumChoices(key, schema, mode);
    else if ('oneOf' in schema || 'anyOf' in schema) {
      options = titledChoices(schema.oneOf ?? schema.anyOf);
      if (!options)
        throw new UnsupportedFieldError(
          key,
          `"${'oneOf' in schema ? 'oneOf' : 'anyOf'}" is only supported as a list of {const, title} choices`,
        );
    } else if ('const' in schema && isOptionValue(schema.const)) options = [{ value: schema.const, label: String(schema.const) }];
    if (options) {
      field.kind = 'select';
      field.options = options;
    } else if (type === 'string') {
      field.kind = 'text';
      if (typeof schema.format === 'string') {
        field.format = schema.format;
        field.kind = STRING_FORMAT_KINDS[schema.format] ?? 'text';
      }
      const minLength = nonNegInt(schema.minLength);
      const maxLength = nonNegInt(schema.maxLength);
      if (minLength !== undefined) field.minLength = minLength;
      if (maxLength !== undefined) field.maxLength = maxLength;
    } else if (type === 'number' || type === 'integer') {
      field.kind = type;
      const minimum = finite(schema.minimum);
      const maximum = finite(schema.maximum);
      if (minimum !== undefined) field.minimum = minimum;
      if (maximum !== undefined) field.maximum = maximum;
    } else if (type === 'boolean') {
      field.kind = 'boolean';
    } else {
      throw new UnsupportedFieldError(key, 'has no "type" (string, number, integer, boolean or array) and no choices');
    }
  }

  // Pre-fill: what the person gave last round wins (a re-asked round never loses typed input),
  // else a valid default.
  const fromPrevious = opts.previous !== undefined ? normalizeForKind(field, opts.previous) : undefined;
  const fromDefault = 'default' in schema ? normalizeForKind(field, schema.default) : undefined;
  if (fromPrevious !== undefined) {
    field.initial = fromPrevious;
    field.initialSource = 'previous';
  } else if (fromDefault !== undefined) {
    field.initial = fromDefault;
    field.initialSource = 'default';
  }
  return field;
}

/** Most fields one elicitation form may have (a larger `requestedSchema` is refused). */
export const MAX_FORM_FIELDS = 200;

/**
 * Builds the form for a form-mode elicitation (spec: MCP 2026-07-28 "Elicitation", requested schema).
 *
 * @param requestedSchema the `requestedSchema` of `elicitation/create` params
 * @param previous values the person gave in an earlier round, by field key (raw strings or typed
 *   values); used as `initial` where the field has no default and the value still fits the field's kind
 * @returns the fields in `properties` order, see {@link FormField}
 * @throws Error when the root is not `{type: "object", properties: {...}}`, when `required` is not a
 *   list of declared property names, or when a property is not a flat primitive (nested object,
 *   array of non-choices, `$ref`, ...): an {@link UnsupportedFieldError} naming the property and why
 */
export function buildFormModel(requestedSchema: unknown, previous?: Readonly<Record<string, unknown>>): FormModel {
  if (!isPlainObject(requestedSchema)) throw new Error('requestedSchema must be a JSON object schema');
  if (requestedSchema.type !== 'object')
    throw new Error(`requestedSchema must have "type": "object", got ${JSON.stringify(requestedSchema.type)}`);
  for (const kw of ['$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'patternProperties']) {
    if (kw in requestedSchema)
      throw new Error(
        `requestedSchema: "${kw}" is not allowed at the root of an elicitation schema (a flat object of primitive properties)`,
      );
  }
  const properties = requestedSchema.properties ?? {};
  if (!isPlainObject(properties)) throw new Error('requestedSchema.properties must be an object');
  // A person fills this form, and the host compiles a check for it: bound both (a server sending
  // 100 000 properties made the host spend 25 s and 3.5 GB before failing).
  const count = Object.keys(properties).length;
  if (count > MAX_FORM_FIELDS) throw new Error(`requestedSchema has ${count} properties; a form has at most ${MAX_FORM_FIELDS}`);
  const requiredRaw = requestedSchema.required ?? [];
  if (!Array.isArray(requiredRaw) || !requiredRaw.every((k) => typeof k === 'string'))
    throw new Error('requestedSchema.required must be an array of property names');
  const required = new Set(requiredRaw);
  for (const k of required) {
    // A required key the form cannot collect would make accept impossible (the dead end of docs/field-cases.md, F1).
    if (!Object.prototype.hasOwnProperty.call(properties, k))
      throw new Error(`requestedSchema.required names "${k}", which is not in properties`);
  }
  const fields = Object.keys(properties).map((key) =>
    buildFormField(key, properties[key], { required: required.has(key), previous: ownValue(previous, key), mode: 'elicitation' }),
  );
  return { fields, schema: requestedSchema };
}
