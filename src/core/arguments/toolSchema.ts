/**
 * A tool's `inputSchema` prepared for the arguments form and for the model: checked as a document
 * (`document.ts`), its top-level properties split into form fields and JSON-text fields, and a
 * self-contained copy for the model (`modelCopy.ts`). The arguments themselves are built and checked
 * in `toolArguments.ts`.
 *
 * Spec: MCP 2026-07-28, "Tools" (`inputSchema` is a JSON Schema object, `type: "object"`) and "JSON
 * Schema usage" (docs/field-cases.md, F10).
 */
import { buildFormField, UnsupportedFieldError } from '../elicitation/formFields';
import type { FormField } from '../elicitation/formField';
import { isPlainObject } from '../util/json';
import { analysisFor, annotationsOf, onlyAnnotations, type Analysis } from '../jsonSchema/document';
import { modelSchema } from '../jsonSchema/modelCopy';

/** Most `$ref` hops followed to find what a property is (a chain longer than this is treated as opaque). */
export const MAX_REF_HOPS = 32;

/** A top-level argument the form cannot express (nested object, array of objects, union, ...): edited as JSON text. */
export interface JsonField {
  key: string;
  /** The property's `title`, else its key (`Arguments` for the whole-arguments field). */
  label: string;
  description?: string;
  required: boolean;
  kind: 'json';
  /**
   * The property's schema for display and editor hints, self-contained: local `$ref`s are inlined
   * where finite, and the root `$defs`/`definitions` are attached when a recursive `$ref` remains.
   */
  schema: unknown;
  /** Why it is not a form field (e.g. "nested objects are not supported in a form"). */
  reason: string;
  /** JSON text to start with: the default (pretty-printed), else the text given last time. */
  initial?: string;
  initialSource?: 'default' | 'previous';
}

/** One argument of the tool form: a regular form field (see `elicitation/formModel.ts`) or a JSON-text field. */
export type ToolField = FormField | JsonField;

/** Key of the single JSON field used when the whole arguments object must be edited as JSON. */
export const WHOLE_ARGUMENTS_KEY = '';

/** A tool schema ready for the arguments form and for the model. */
export interface PreparedToolSchemaOk {
  ok: true;
  /**
   * The schema to hand to the model: every `$ref` resolves inside this document. Local refs are
   * inlined; a recursive ref (e.g. a tree) stays a `#/...` pointer and the root `$defs` /
   * `definitions` are kept. Schemas with `$id`/`$anchor` are returned unchanged (already checked).
   */
  schema: Record<string, unknown>;
  /** The original schema, for {@link validateToolArguments} (the authority). */
  original: Record<string, unknown>;
  /** Top-level properties in order, then required names the schema does not describe. */
  fields: ToolField[];
  /**
   * True when the root has no `properties` but constrains the object otherwise (`anyOf`,
   * `additionalProperties: {...}`, ...): `fields` is then one JSON field keyed {@link WHOLE_ARGUMENTS_KEY}
   * whose value is the whole arguments object.
   */
  wholeArguments: boolean;
}

/** Outcome of {@link prepareToolSchema}. `error` names the faulty `$ref`, limit or keyword. */
export type PreparedToolSchema = PreparedToolSchemaOk | { ok: false; error: string };

/**
 * What a property really is, for choosing its field kind: follows `$ref`s and a single `allOf`
 * whose siblings only annotate (merging title/description/default onto the target), and unwraps
 * nullable forms (`type: [T, "null"]`, `anyOf: [S, {type: "null"}]`) since a form leaves an empty
 * field out rather than sending null. Anything else is returned as is (and becomes a JSON field).
 */
function shallowResolve(node: unknown, analysis: Analysis, hops = 0): unknown {
  if (!isPlainObject(node) || hops > MAX_REF_HOPS) return node;
  const targets = analysis.refTargets.get(node);
  if (typeof node.$ref === 'string' && targets?.length === 1 && onlyAnnotations(node, ['$ref'])) {
    const t = shallowResolve(targets[0], analysis, hops + 1);
    return isPlainObject(t) ? { ...t, ...annotationsOf(node) } : t;
  }
  if (Array.isArray(node.allOf) && node.allOf.length === 1 && onlyAnnotations(node, ['allOf'])) {
    const t = shallowResolve(node.allOf[0], analysis, hops + 1);
    return isPlainObject(t) ? { ...t, ...annotationsOf(node) } : t;
  }
  for (const kw of ['anyOf', 'oneOf']) {
    const list = node[kw];
    if (Array.isArray(list) && list.length === 2 && onlyAnnotations(node, [kw])) {
      const isNull = (s: unknown) => isPlainObject(s) && s.type === 'null' && Object.keys(s).length === 1;
      const rest = list.filter((s) => !isNull(s));
      if (rest.length === 1) {
        const t = shallowResolve(rest[0], analysis, hops + 1);
        return isPlainObject(t) ? { ...t, ...annotationsOf(node) } : t;
      }
    }
  }
  if (Array.isArray(node.type) && node.type.includes('null')) {
    const rest: unknown[] = node.type.filter((t) => t !== 'null');
    if (rest.length === 1) return shallowResolve({ ...node, type: rest[0] }, analysis, hops + 1);
  }
  // A list of a referenced enum (pydantic's `List[Color]`) is a multi-select.
  if (node.type === 'array' && isPlainObject(node.items) && typeof node.items.$ref === 'string') {
    const items = shallowResolve(node.items, analysis, hops + 1);
    if (isPlainObject(items) && (Array.isArray(items.enum) || Array.isArray(items.anyOf) || Array.isArray(items.oneOf)))
      return { ...node, items };
  }
  return node;
}

function jsonInitial(field: JsonField, def: unknown, hasDefault: boolean, previous: unknown): void {
  if (hasDefault) {
    field.initial = JSON.stringify(def, null, 2);
    field.initialSource = 'default';
  } else if (previous !== undefined) {
    // Keep what was typed even when it was not valid JSON: never lose typed input.
    field.initial = typeof previous === 'string' ? previous : JSON.stringify(previous, null, 2);
    field.initialSource = 'previous';
  }
}

/**
 * Prepares a tool's `inputSchema` (spec: MCP 2026-07-28 "Tools", `inputSchema`, and "JSON Schema
 * usage"; docs/field-cases.md, F10) for the arguments form and for the model:
 * - checks the whole document: every `$ref` must resolve inside it (`#/$defs/...`,
 *   `#/definitions/...`, any JSON pointer, anchors, embedded `$id`s). A `$ref` to anything else
 *   (http:, https:, other URIs, relative files) is never fetched and makes the result an error
 *   naming the ref. Depth and subschema count are bounded ({@link MAX_SCHEMA_DEPTH},
 *   {@link MAX_SUBSCHEMA_VISITS}) and reference cycles with no property in between are rejected,
 *   so recursive or hostile schemas neither hang nor overflow;
 * - splits the top-level properties into form fields (see `buildFormField` in `elicitation/formModel.ts`:
 *   primitives, enums, multi-select enums, after resolving `$ref` and nullable wrappers) and JSON
 *   fields (nested objects, arrays of objects, unions, anything else), and adds a JSON field for any
 *   `required` name the schema does not describe.
 *
 * @param inputSchema the tool's `inputSchema` as listed
 * @param previous arguments given last time, by key (raw or typed), for pre-fill
 * @returns `{ok: true, schema, original, fields, wholeArguments}` or `{ok: false, error}`. Never throws.
 */
export function prepareToolSchema(inputSchema: unknown, previous?: Readonly<Record<string, unknown>>): PreparedToolSchema {
  if (!isPlainObject(inputSchema)) return { ok: false, error: 'inputSchema must be a JSON object schema' };
  const type = inputSchema.type;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    return { ok: false, error: `inputSchema must describe an object ("type": "object"), got ${JSON.stringify(type)}` };
  }
  const analyzed = analysisFor(inputSchema);
  if (analyzed.error !== undefined) return { ok: false, error: analyzed.error };
  const analysis = analyzed.analysis;
  const schema = modelSchema(inputSchema, analysis);

  // Where the properties live: the root, or what a root-level `$ref` points at.
  let effective = inputSchema;
  const required = new Set<string>();
  for (let hops = 0; hops <= MAX_REF_HOPS; hops++) {
    if (Array.isArray(effective.required)) for (const k of effective.required) if (typeof k === 'string') required.add(k);
    const t = analysis.refTargets.get(effective)?.[0];
    if (isPlainObject(effective.properties) || !isPlainObject(t)) break;
    effective = t;
  }
  const properties = isPlainObject(effective.properties) ? effective.properties : undefined;
  // A JSON field's schema must read on its own: take the inlined copy and carry the root
  // definitions a kept (recursive) `$ref` still points into.
  const displayProps = isPlainObject(schema.properties) && effective === inputSchema ? schema.properties : undefined;
  const defsOf = (doc: Record<string, unknown>) =>
    Object.fromEntries(['$defs', 'definitions'].filter((k) => doc[k] !== undefined).map((k) => [k, doc[k]]));
  const display = (key: string, sub: unknown): unknown => {
    const own = displayProps ? displayProps[key] : sub;
    const defs = displayProps ? defsOf(schema) : defsOf(inputSchema);
    return isPlainObject(own) && Object.keys(defs).length > 0 ? { ...defs, ...own } : own;
  };

  const constrainsWhole =
    ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'patternProperties', 'propertyNames', 'dependentSchemas', 'unevaluatedProperties'].some(
      (k) => k in effective,
    ) || isPlainObject(effective.additionalProperties);
  if (!properties && constrainsWhole) {
    const field: JsonField = {
      key: WHOLE_ARGUMENTS_KEY,
      label: 'Arguments',
      required: true,
      kind: 'json',
      schema,
      reason: 'the arguments are described as a whole (no top-level properties)',
    };
    if (typeof effective.description === 'string') field.description = effective.description;
    jsonInitial(field, effective.default, 'default' in effective, previous?.[WHOLE_ARGUMENTS_KEY]);
    return { ok: true, schema, original: inputSchema, fields: [field], wholeArguments: true };
  }

  const fields: ToolField[] = [];
  for (const [key, sub] of Object.entries(properties ?? {})) {
    const resolved = shallowResolve(sub, analysis);
    const isRequired = required.has(key);
    try {
      fields.push(buildFormField(key, resolved, { required: isRequired, previous: previous?.[key], mode: 'tool' }));
    } catch (e) {
      if (!(e instanceof UnsupportedFieldError)) throw e;
      const info = isPlainObject(resolved) ? resolved : {};
      const field: JsonField = {
        key,
        label: typeof info.title === 'string' && info.title !== '' ? info.title : key,
        required: isRequired,
        kind: 'json',
        schema: display(key, sub),
        reason: e.reason,
      };
      if (typeof info.description === 'string' && info.description !== '') field.description = info.description;
      jsonInitial(field, info.default, 'default' in info, previous?.[key]);
      fields.push(field);
    }
  }
  for (const key of required) {
    if (properties && Object.prototype.hasOwnProperty.call(properties, key)) continue;
    // Required but undescribed: still collectable, so the call is never a dead end.
    const field: JsonField = {
      key,
      label: key,
      required: true,
      kind: 'json',
      schema: {},
      reason: 'required, but the schema does not describe it',
    };
    jsonInitial(field, undefined, false, previous?.[key]);
    fields.push(field);
  }
  return { ok: true, schema, original: inputSchema, fields, wholeArguments: false };
}
