/**
 * The pure half of form-mode elicitation: the server's `requestedSchema` becomes a form model and
 * the person's raw input becomes typed `content` (no ajv). Split out of `forms.ts`, which re-exports
 * everything here, so the round panel's webview can bundle these checks without ajv: ajv compiles
 * code with `new Function`, which the webview's CSP (no `unsafe-eval`) forbids, and it would weigh
 * the bundle down.
 *
 * Spec: MCP 2026-07-28, "Elicitation" (form mode): `requestedSchema` is a flat object of primitive
 * properties (string with minLength / maxLength / format email | uri | date | date-time; number and
 * integer with minimum / maximum; boolean; single-select `enum`, titled `oneOf: [{const, title}]`,
 * legacy `enumNames`; multi-select `type: array` with `items.enum` or titled `items.anyOf`,
 * minItems / maxItems), each with optional title, description and default, and a `required` list.
 * Numbers go out as JSON numbers, booleans as booleans, multi-selects as arrays (field cases F1-F4).
 *
 * Pure logic: never imports `vscode`, ajv or any Node built-in.
 */

// ---------------------------------------------------------------------------------------------
// Types

/** How a field is rendered and coerced. `select` is a single choice, `multiselect` a set of choices. */
export type FieldKind =
  | 'text'
  | 'email'
  | 'uri'
  | 'date'
  | 'date-time'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'select'
  | 'multiselect';

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
   * else `undefined` (unset). A required boolean without default stays unset (policy, case F2).
   */
  initial?: FormValue;
  /** Where `initial` came from, so the UI can say "pre-filled from your last answer". */
  initialSource?: 'default' | 'previous';
}

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
 * Decline and cancel never carry `content` (case F4).
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
 *   no `null` choices). `'tool'` is used for tool `inputSchema` properties (see `schema.ts`), where
 *   the caller has already resolved `$ref`s and unwrapped nullable types.
 */
export interface FieldOptions {
  required: boolean;
  /** The value given for this key in an earlier round (raw or typed), for pre-fill. */
  previous?: unknown;
  mode?: 'elicitation' | 'tool';
}

// ---------------------------------------------------------------------------------------------
// Schema -> form model

/** True for a JSON object (not null, not an array). Shared with `forms.ts`. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonNegInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
}

function finite(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Keywords that give a property structure a flat form cannot show. */
const STRUCTURAL_KEYWORDS = ['properties', 'patternProperties', 'additionalProperties', 'prefixItems', 'allOf', 'not', 'if', 'then', 'else', 'dependentSchemas', '$defs', 'definitions'];

const STRING_FORMAT_KINDS: Record<string, FieldKind> = { email: 'email', uri: 'uri', date: 'date', 'date-time': 'date-time' };

/** Choices from `[{const, title}]` (titled single/multi select). `undefined` if the list has another shape. */
function titledChoices(list: unknown): FieldOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: FieldOption[] = [];
  for (const item of list) {
    if (!isPlainObject(item) || !('const' in item)) return undefined;
    const value = item.const as unknown;
    if (!isOptionValue(value)) return undefined;
    out.push({ value, label: typeof item.title === 'string' && item.title !== '' ? item.title : String(value) });
  }
  return out;
}

/** True for a value a choice may have (string, boolean, finite number). Shared with `forms.ts`. */
export function isOptionValue(v: unknown): v is OptionValue {
  return typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** Choices from `enum` (+ legacy `enumNames`). Nulls are dropped in tool mode (nullable enums). */
function enumChoices(key: string, schema: Record<string, unknown>, mode: 'elicitation' | 'tool'): FieldOption[] {
  const values = schema.enum as unknown[];
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  const out: FieldOption[] = [];
  values.forEach((value, i) => {
    if (value === null && mode === 'tool') return;
    if (!isOptionValue(value)) throw new UnsupportedFieldError(key, `enum values must be strings, numbers or booleans, got ${JSON.stringify(value)}`);
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
    throw new UnsupportedFieldError(key, `uses $ref ("${String(schema.$ref ?? schema.$dynamicRef)}"); a form field must be a flat primitive, not a reference`);
  }
  const type = schema.type;
  if (Array.isArray(type)) throw new UnsupportedFieldError(key, `"type" must be a single type name, got ${JSON.stringify(type)}`);
  if (type === 'object' || isPlainObject(schema.properties)) throw new UnsupportedFieldError(key, 'nested objects are not supported in a form (only flat primitive properties)');
  for (const kw of STRUCTURAL_KEYWORDS) {
    if (kw in schema) throw new UnsupportedFieldError(key, `"${kw}" is not supported in a form field`);
  }

  const field: FormField = { key, label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : key, required: opts.required, kind: 'text' };
  if (typeof schema.description === 'string' && schema.description !== '') field.description = schema.description;

  if (type === 'array') {
    const items = schema.items;
    if (!isPlainObject(items)) throw new UnsupportedFieldError(key, 'arrays are only supported as multi-select (items.enum or titled items.anyOf)');
    let options: FieldOption[] | undefined;
    if (Array.isArray(items.enum)) options = enumChoices(key, items, mode);
    else options = titledChoices(items.anyOf) ?? titledChoices(items.oneOf);
    if (!options) throw new UnsupportedFieldError(key, 'arrays are only supported as multi-select (items.enum or titled items.anyOf of {const, title})');
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
      throw new UnsupportedFieldError(key, `type ${JSON.stringify(type)} is not supported (string, number, integer, boolean or a multi-select array)`);
    }
    // Single-select: the spec's titled `oneOf`, also `anyOf` and `const`, else plain / legacy `enum`.
    let options: FieldOption[] | undefined;
    if (Array.isArray(schema.enum)) options = enumChoices(key, schema, mode);
    else if ('oneOf' in schema || 'anyOf' in schema) {
      options = titledChoices(schema.oneOf ?? schema.anyOf);
      if (!options) throw new UnsupportedFieldError(key, `"${'oneOf' in schema ? 'oneOf' : 'anyOf'}" is only supported as a list of {const, title} choices`);
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
  if (requestedSchema.type !== 'object') throw new Error(`requestedSchema must have "type": "object", got ${JSON.stringify(requestedSchema.type)}`);
  for (const kw of ['$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'patternProperties']) {
    if (kw in requestedSchema) throw new Error(`requestedSchema: "${kw}" is not allowed at the root of an elicitation schema (a flat object of primitive properties)`);
  }
  const properties = requestedSchema.properties ?? {};
  if (!isPlainObject(properties)) throw new Error('requestedSchema.properties must be an object');
  // A person fills this form, and the host compiles a check for it: bound both (a server sending
  // 100 000 properties made the host spend 25 s and 3.5 GB before failing).
  const count = Object.keys(properties).length;
  if (count > MAX_FORM_FIELDS) throw new Error(`requestedSchema has ${count} properties; a form has at most ${MAX_FORM_FIELDS}`);
  const requiredRaw = requestedSchema.required ?? [];
  if (!Array.isArray(requiredRaw) || !requiredRaw.every((k) => typeof k === 'string')) throw new Error('requestedSchema.required must be an array of property names');
  const required = new Set(requiredRaw as string[]);
  for (const k of required) {
    // A required key the form cannot collect would make accept impossible (case F1's dead end).
    if (!Object.prototype.hasOwnProperty.call(properties, k)) throw new Error(`requestedSchema.required names "${k}", which is not in properties`);
  }
  const fields = Object.keys(properties).map((key) => buildFormField(key, properties[key], { required: required.has(key), previous: previous?.[key], mode: 'elicitation' }));
  return { fields, schema: requestedSchema };
}

// ---------------------------------------------------------------------------------------------
// Value checks shared by pre-fill, coercion and messages

const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const LOCAL_DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const URI_RE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;

/** Parses a number typed as text; `undefined` for junk (`3abc`), empty, or non-finite. */
function parseNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (!NUMBER_RE.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[mo - 1];
}

function isValidDateTime(s: string): boolean {
  const m = DATE_TIME_RE.exec(s);
  if (!m || !isValidDate(m[1])) return false;
  const [h, mi, sec] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || mi > 59 || sec > 60) return false;
  return m[5] === undefined || (Number(m[5]) <= 23 && Number(m[6]) <= 59);
}

/**
 * An HTML `datetime-local` value has no seconds and no offset, which RFC 3339 (`date-time`)
 * requires: read it as the person's local time and add the local offset.
 */
function localDateTimeToRfc3339(s: string): string | undefined {
  const m = LOCAL_DATE_TIME_RE.exec(s);
  if (!m || !isValidDate(`${m[1]}-${m[2]}-${m[3]}`)) return undefined;
  const [y, mo, d, h, mi, sec] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? '0')];
  if (h > 23 || mi > 59 || sec > 59) return undefined;
  const offsetMin = -new Date(y, mo - 1, d, h, mi, sec).getTimezoneOffset();
  const pad = (n: number) => String(n).padStart(2, '0');
  const zone = offsetMin === 0 ? 'Z' : `${offsetMin > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${zone}`;
}

function formatOk(kind: FieldKind, s: string): boolean {
  switch (kind) {
    case 'email':
      return EMAIL_RE.test(s);
    case 'uri':
      return URI_RE.test(s);
    case 'date':
      return isValidDate(s);
    case 'date-time':
      return isValidDateTime(s);
    default:
      return true;
  }
}

/** The option whose value is `v`, or whose value reads as the string `v` (HTML selects give strings). */
function findOption(options: readonly FieldOption[], v: unknown): FieldOption | undefined {
  return options.find((o) => o.value === v) ?? (typeof v === 'string' ? options.find((o) => String(o.value) === v) : undefined);
}

/** `v` as a value of the field's kind (not checked against ranges), or `undefined` when it does not fit. */
function normalizeForKind(field: FormField, v: unknown): FormValue | undefined {
  switch (field.kind) {
    case 'text':
      return typeof v === 'string' ? v : undefined;
    case 'email':
    case 'uri':
    case 'date':
      return typeof v === 'string' && formatOk(field.kind, v.trim()) ? v.trim() : undefined;
    case 'date-time':
      // Also keep what a `datetime-local` input gave (no offset): it is what the person typed.
      return typeof v === 'string' && (isValidDateTime(v.trim()) || localDateTimeToRfc3339(v.trim()) !== undefined) ? v.trim() : undefined;
    case 'number':
      return parseNumber(v);
    case 'integer': {
      const n = parseNumber(v);
      return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
    }
    case 'boolean':
      return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined;
    case 'select':
      return findOption(field.options ?? [], v)?.value;
    case 'multiselect': {
      if (!Array.isArray(v)) return undefined;
      const picked: OptionValue[] = [];
      for (const item of v) {
        const o = findOption(field.options ?? [], item);
        if (o && !picked.includes(o.value)) picked.push(o.value);
      }
      return v.length > 0 && picked.length === 0 ? undefined : picked;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Human messages

/** "1 item" / "3 items". Shared with `forms.ts`. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Must be a whole number between 1 and 5" and friends, from the field's own constraints. Shared with `forms.ts`. */
export function numberMessage(field: FormField): string {
  const what = field.kind === 'integer' ? 'a whole number' : 'a number';
  const { minimum: lo, maximum: hi } = field;
  if (lo !== undefined && hi !== undefined) return `Must be ${what} between ${lo} and ${hi}`;
  if (lo !== undefined) return `Must be ${what} of ${lo} or more`;
  if (hi !== undefined) return `Must be ${what} of ${hi} or less`;
  return `Must be ${what}`;
}

/** "Must be at least 5 characters" and friends, from the field's own constraints. Shared with `forms.ts`. */
export function lengthMessage(field: FormField): string {
  const { minLength: lo, maxLength: hi } = field;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `Must be exactly ${plural(lo, 'character', 'characters')}` : `Must be between ${lo} and ${hi} characters`;
  if (lo !== undefined) return `Must be at least ${plural(lo, 'character', 'characters')}`;
  if (hi !== undefined) return `Must be at most ${plural(hi, 'character', 'characters')}`;
  return 'Has the wrong length';
}

/** "Choose between 1 and 3" and friends, from the field's own constraints. Shared with `forms.ts`. */
export function itemsMessage(field: FormField): string {
  const { minItems: lo, maxItems: hi } = field;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `Choose exactly ${lo}` : `Choose between ${lo} and ${hi}`;
  if (lo !== undefined) return `Choose at least ${lo}`;
  if (hi !== undefined) return `Choose at most ${hi}`;
  return 'Choose from the listed options';
}

/** The message for a value of the wrong format, by field kind. Shared with `forms.ts`. */
export const FORMAT_MESSAGES: Partial<Record<FieldKind, string>> = {
  email: 'Must be an email address like name@example.com',
  uri: 'Must be a full URI like https://example.com/page',
  date: 'Must be a date like 2026-11-01',
  'date-time': 'Must be a date and time like 2026-11-01T09:30:00Z',
};

/** The message for an empty required field. */
export const REQUIRED_MESSAGE = 'Required';

// ---------------------------------------------------------------------------------------------
// Raw input -> typed content

/** Result of coercing one field: a typed value, nothing (empty optional field), or an error. */
export type CoercedField = { value?: FormValue; error?: string };

function isEmptyRaw(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

/**
 * Coerces one raw value for one field (see {@link coerceFormValues}); exported so tool argument
 * forms (`schema.ts`) reuse the same rules.
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
    if ((field.minItems !== undefined && picked.length < field.minItems) || (field.maxItems !== undefined && picked.length > field.maxItems)) {
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
      if ((field.minimum !== undefined && n < field.minimum) || (field.maximum !== undefined && n > field.maximum)) return { error: numberMessage(field) };
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
      if ((field.minLength !== undefined && len < field.minLength) || (field.maxLength !== undefined && len > field.maxLength)) return { error: lengthMessage(field) };
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

/** `o[key]` when `o` has it as its own property, else `undefined` (never an inherited member). */
export function ownValue<T>(o: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return o !== undefined && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}
