/**
 * Tool `inputSchema` handling: full JSON Schema (2020-12 by default), checked for safety, split into
 * form fields and JSON-text fields for the arguments form, and used to validate arguments before a
 * `tools/call` is sent (field case F10).
 *
 * Spec: MCP 2026-07-28, "Tools" (`inputSchema` is a JSON Schema object, `type: "object"`) and
 * "JSON Schema usage": 2020-12 unless `$schema` picks another dialect; a client never dereferences a
 * `$ref` that points at the network and rejects an unresolved external `$ref` instead of silently
 * accepting it; the cost of `anyOf`/`oneOf`/`allOf`/`$defs` is bounded so a hostile schema cannot
 * hang the host.
 *
 * Nothing here performs I/O: every `$ref` is resolved inside the schema document itself, and ajv
 * gets no `loadSchema`, so a missing reference is a compile error.
 */
import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  buildFormField,
  coerceFieldValue,
  describeAjvError,
  instancePathSegments,
  ownValue,
  UnsupportedFieldError,
  type FieldErrors,
  type FormField,
  type RawFormValue,
} from '../elicitation/formCheck';
import { safeRegExp } from './safeRegExp';

// ---------------------------------------------------------------------------------------------
// Limits

/** Deepest nesting of subschemas accepted in one schema document (spec: bound the cost of a schema). */
export const MAX_SCHEMA_DEPTH = 32;
/** Most subschemas (including every `anyOf`/`oneOf`/`allOf` branch and `$defs` entry) in one document. */
export const MAX_SUBSCHEMA_VISITS = 1000;
/** Most schema nodes the model-facing copy may grow to while `$ref`s are inlined; beyond, refs are kept. */
export const MAX_INLINED_NODES = 5000;
/** Most `$ref` hops followed to find what a property is (a chain longer than this is treated as opaque). */
export const MAX_REF_HOPS = 32;
/** Most argument problems reported for one call. */
export const MAX_REPORTED_ERRORS = 20;

// ---------------------------------------------------------------------------------------------
// Types

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

/** One argument of the tool form: a regular form field (see `forms.ts`) or a JSON-text field. */
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

/** One argument problem; `path` is dotted with indexes (`window.from`, `root.children[0].name`), `''` for the root. */
export interface ToolArgumentError {
  path: string;
  /** The same path as segments (`['root', 'children', '0', 'name']`); `[]` for the root. */
  segments: string[];
  message: string;
}

/**
 * Outcome of {@link validateToolArguments}. `message` joins the errors as "path: message; ...".
 * `schemaError` is set when the schema itself is unusable (remote `$ref`, limits, invalid schema):
 * such a tool cannot be called until the server fixes it.
 */
export type ToolArgumentsCheck = { ok: true } | { ok: false; errors: ToolArgumentError[]; message: string; schemaError?: boolean };

/** Raw argument values by key: form-control values for form fields, JSON text (or a parsed value) for JSON fields. */
export type RawToolValues = Readonly<Record<string, unknown>>;

/** Outcome of {@link coerceToolArguments}: the arguments built so far and per-field problems. */
export interface CoercedToolArguments {
  args: Record<string, unknown>;
  errors: FieldErrors;
}

/** Outcome of {@link buildToolArguments}: arguments ready to send, or per-field problems and a summary. */
export type ToolArgumentsOutcome = { ok: true; args: Record<string, unknown> } | { ok: false; errors: FieldErrors; message: string };

// ---------------------------------------------------------------------------------------------
// Analysis: walk the document once, resolve every reference locally, enforce limits

type Dialect = '2020-12' | '2019-09' | 'draft-07';
type SchemaNode = Record<string, unknown> | boolean;

interface Analysis {
  dialect: Dialect;
  /** Some subschema has `$id` / `$anchor` / `$dynamicAnchor` (scoping we do not rewrite). */
  hasIds: boolean;
  /** Resolved target of each node's `$ref` (also `$dynamicRef`/`$recursiveRef`, resolved statically). */
  refTargets: Map<object, SchemaNode[]>;
  /** JSON pointer (`/$defs/Node`) of each object node, for messages and re-pointing kept refs. */
  pointers: Map<object, string>;
  /** Some node uses `$dynamicRef`/`$recursiveRef`, whose meaning inlining would change. */
  dynamic: boolean;
}

class SchemaProblem extends Error {}

const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLE_KEYWORDS = ['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems', 'contentSchema'];
const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];
/** Keywords that apply to the same instance: a cycle through only these never terminates. */
const IN_PLACE_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_SINGLES = ['not', 'if', 'then', 'else'];
/** Keywords that only describe, never constrain: safe to merge onto a referenced schema. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** Base URI for a document without `$id`: never dereferenced, only used to resolve relative refs. */
const DOCUMENT_BASE = 'https://input-schema.invalid/root.json';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapePointerSegment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

function stripFragment(uri: string): string {
  const i = uri.indexOf('#');
  return i < 0 ? uri : uri.slice(0, i);
}

function dialectOf(schema: Record<string, unknown>): Dialect {
  const s = schema.$schema;
  if (s === undefined) return '2020-12'; // spec: 2020-12 is the default dialect
  if (typeof s !== 'string') throw new SchemaProblem('"$schema" must be a string');
  if (/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/.test(s)) return '2020-12';
  if (/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/.test(s)) return '2019-09';
  if (/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/.test(s)) return 'draft-07';
  throw new SchemaProblem(`unsupported "$schema" dialect "${s}" (supported: 2020-12, 2019-09, draft-07)`);
}

function analyze(root: Record<string, unknown>): Analysis {
  const dialect = dialectOf(root);
  const resources = new Map<string, Record<string, unknown>>();
  const anchors = new Map<string, SchemaNode>();
  const pointers = new Map<object, string>();
  const pending: { node: Record<string, unknown>; keyword: string; ref: string; base: string; at: string }[] = [];
  const ancestors = new Set<object>();
  let visits = 0;
  let hasIds = false;
  let dynamic = false;

  const visit = (node: unknown, at: string, depth: number, base: string): void => {
    if (++visits > MAX_SUBSCHEMA_VISITS) throw new SchemaProblem(`the schema has more than ${MAX_SUBSCHEMA_VISITS} subschemas (anyOf/oneOf/allOf branches, $defs, properties); refusing to process it`);
    if (depth > MAX_SCHEMA_DEPTH) throw new SchemaProblem(`subschemas are nested deeper than ${MAX_SCHEMA_DEPTH} levels (at ${at.length > 100 ? `${at.slice(0, 50)}...${at.slice(-40)}` : at})`);
    if (typeof node === 'boolean') return;
    if (!isPlainObject(node)) throw new SchemaProblem(`${at || '/'} is not a schema (an object or a boolean)`);
    if (ancestors.has(node)) throw new SchemaProblem(`${at} contains itself (the schema object graph is circular)`);
    if (!pointers.has(node)) pointers.set(node, at);
    let here = base;
    if (typeof node.$id === 'string' && depth > 0) {
      hasIds = true;
      if (node.$id.startsWith('#')) anchors.set(stripFragment(here) + node.$id, node); // draft-07 plain-name id
      else {
        try {
          here = new URL(node.$id, base).href;
        } catch {
          throw new SchemaProblem(`"$id" ${JSON.stringify(node.$id)} at ${at} is not a valid URI`);
        }
        resources.set(stripFragment(here), node);
      }
    }
    for (const kw of ['$anchor', '$dynamicAnchor']) {
      if (typeof node[kw] === 'string') {
        hasIds = true;
        anchors.set(`${stripFragment(here)}#${node[kw] as string}`, node);
      }
    }
    for (const kw of REF_KEYWORDS) {
      const ref = node[kw];
      if (ref === undefined) continue;
      if (typeof ref !== 'string') throw new SchemaProblem(`"${kw}" at ${at || '/'} must be a string`);
      if (kw !== '$ref') dynamic = true;
      pending.push({ node, keyword: kw, ref, base: here, at: at || '/' });
    }
    ancestors.add(node);
    for (const kw of MAP_KEYWORDS) {
      const map = node[kw];
      if (map === undefined) continue;
      if (!isPlainObject(map)) throw new SchemaProblem(`"${kw}" at ${at || '/'} must be an object`);
      for (const [k, sub] of Object.entries(map)) visit(sub, `${at}/${kw}/${escapePointerSegment(k)}`, depth + 1, here);
    }
    for (const kw of ARRAY_KEYWORDS) {
      const list = node[kw];
      if (list === undefined) continue;
      if (!Array.isArray(list)) throw new SchemaProblem(`"${kw}" at ${at || '/'} must be an array`);
      list.forEach((sub, i) => visit(sub, `${at}/${kw}/${i}`, depth + 1, here));
    }
    for (const kw of SINGLE_KEYWORDS) {
      if (node[kw] !== undefined) visit(node[kw], `${at}/${kw}`, depth + 1, here);
    }
    if (Array.isArray(node.items)) node.items.forEach((sub, i) => visit(sub, `${at}/items/${i}`, depth + 1, here)); // draft-07 tuples
    else if (node.items !== undefined) visit(node.items, `${at}/items`, depth + 1, here);
    if (isPlainObject(node.dependencies)) {
      // draft-07: values are schemas or lists of names
      for (const [k, sub] of Object.entries(node.dependencies)) if (!Array.isArray(sub)) visit(sub, `${at}/dependencies/${escapePointerSegment(k)}`, depth + 1, here);
    }
    ancestors.delete(node);
  };

  let rootBase = DOCUMENT_BASE;
  if (typeof root.$id === 'string') {
    hasIds = true;
    try {
      rootBase = new URL(root.$id, DOCUMENT_BASE).href;
    } catch {
      throw new SchemaProblem(`"$id" ${JSON.stringify(root.$id)} is not a valid URI`);
    }
  }
  resources.set(stripFragment(rootBase), root);
  visit(root, '', 0, rootBase);

  // Resolve every reference inside this document. Nothing is ever fetched.
  const refTargets = new Map<object, SchemaNode[]>();
  for (const p of pending) {
    let docUri: string;
    let fragment: string;
    if (p.ref.startsWith('#')) {
      docUri = stripFragment(p.base);
      fragment = p.ref.slice(1);
    } else {
      let abs: URL;
      try {
        abs = new URL(p.ref, p.base);
      } catch {
        throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} points outside this schema; remote references are never fetched`);
      }
      fragment = abs.hash.slice(1);
      abs.hash = '';
      docUri = abs.href;
    }
    const doc = resources.get(docUri);
    if (!doc) throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} points outside this schema; remote references are never fetched`);
    try {
      fragment = decodeURIComponent(fragment);
    } catch {
      throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} has a malformed fragment`);
    }
    let target: unknown;
    if (fragment === '') target = doc;
    else if (fragment.startsWith('/')) {
      target = doc;
      for (const seg of fragment.slice(1).split('/')) {
        const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
        if (Array.isArray(target) && /^\d+$/.test(key)) target = target[Number(key)];
        else if (isPlainObject(target) && Object.prototype.hasOwnProperty.call(target, key)) target = target[key];
        else {
          target = undefined;
          break;
        }
      }
    } else target = anchors.get(`${docUri}#${fragment}`);
    if (target === undefined) throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} does not resolve inside this schema`);
    if (typeof target !== 'boolean' && !isPlainObject(target)) throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} points at something that is not a schema`);
    const list = refTargets.get(p.node) ?? [];
    list.push(target as SchemaNode);
    refTargets.set(p.node, list);
  }

  // A cycle through references and same-instance keywords only (A -> allOf -> $ref A) never
  // reaches a new part of the instance: every validator would recurse forever. Reject it.
  const inPlace = (n: Record<string, unknown>): SchemaNode[] => {
    const out: SchemaNode[] = [...(refTargets.get(n) ?? [])];
    for (const kw of IN_PLACE_ARRAYS) if (Array.isArray(n[kw])) out.push(...(n[kw] as SchemaNode[]));
    for (const kw of IN_PLACE_SINGLES) if (n[kw] !== undefined) out.push(n[kw] as SchemaNode);
    if (isPlainObject(n.dependentSchemas)) out.push(...(Object.values(n.dependentSchemas) as SchemaNode[]));
    return out;
  };
  const state = new Map<object, 1 | 2>(); // 1 = on the current path, 2 = done
  for (const start of pointers.keys()) {
    if (state.has(start)) continue;
    const stack: { node: Record<string, unknown>; next: SchemaNode[] }[] = [{ node: start as Record<string, unknown>, next: inPlace(start as Record<string, unknown>) }];
    state.set(start, 1);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const child = top.next.pop();
      if (child === undefined) {
        state.set(top.node, 2);
        stack.pop();
        continue;
      }
      if (!isPlainObject(child)) continue;
      const s = state.get(child);
      if (s === 1) {
        const cycle = [...stack.slice(stack.findIndex((f) => f.node === child)).map((f) => f.node), child].map((n) => pointers.get(n) || '/');
        throw new SchemaProblem(`$ref cycle with no property in between (${cycle.join(' -> ')}): it can never be validated`);
      }
      if (s === 2) continue;
      state.set(child, 1);
      stack.push({ node: child, next: inPlace(child) });
    }
  }
  return { dialect, hasIds, refTargets, pointers, dynamic };
}

// ---------------------------------------------------------------------------------------------
// Caches: the analysis is tied to node identity (its maps are keyed by the schema's objects), so it
// is cached per schema object; the compiled validator depends only on the schema's content, so it is
// cached by schema text too (tools/list, and so each schema object, is fetched anew now and then).

type Analyzed = { analysis: Analysis; error?: undefined } | { analysis?: undefined; error: string };

interface Compiled {
  /** Set when the schema is unusable (limits, refs, dialect). */
  error?: string;
  dialect?: Dialect;
  hasIds?: boolean;
  validate?: ValidateFunction;
  compileError?: string;
}

const COMPILED_CACHE_SIZE = 256;
const analysisByObject = new WeakMap<object, Analyzed>();
const compiledByObject = new WeakMap<object, Compiled>();
const compiledByText = new Map<string, Compiled>();

function analysisFor(schema: Record<string, unknown>): Analyzed {
  let hit = analysisByObject.get(schema);
  if (!hit) {
    try {
      hit = { analysis: analyze(schema) };
    } catch (e) {
      if (!(e instanceof SchemaProblem) && !(e instanceof RangeError)) throw e;
      hit = { error: e instanceof SchemaProblem ? e.message : 'the schema is too deeply nested to process' };
    }
    analysisByObject.set(schema, hit);
  }
  return hit;
}

function compiledFor(schema: Record<string, unknown>): Compiled {
  const hit = compiledByObject.get(schema);
  if (hit) return hit;
  let text = '';
  try {
    text = JSON.stringify(schema);
  } catch {
    // A circular object cannot come from JSON; analysis rejects it below, uncached by text.
  }
  let entry = text ? compiledByText.get(text) : undefined;
  if (entry) {
    compiledByText.delete(text); // refresh its place in the LRU order
  } else {
    const a = analysisFor(schema);
    entry = a.error !== undefined ? { error: a.error } : { dialect: a.analysis.dialect, hasIds: a.analysis.hasIds };
    if (text && compiledByText.size >= COMPILED_CACHE_SIZE) compiledByText.delete(compiledByText.keys().next().value as string);
  }
  if (text) compiledByText.set(text, entry);
  compiledByObject.set(schema, entry);
  return entry;
}

type AnyAjv = Ajv | Ajv2019 | Ajv2020;
const sharedAjv = new Map<Dialect, AnyAjv>();

function newAjv(dialect: Dialect): AnyAjv {
  // No loadSchema: a reference ajv cannot find is a compile error, never a fetch.
  // RE2 for `pattern`: a server's pattern must not be able to freeze the host (safeRegExp.ts).
  const opts = { strict: false, allErrors: true, logger: false as const, addUsedSchema: false, code: { regExp: safeRegExp } };
  const ajv = dialect === '2020-12' ? new Ajv2020(opts) : dialect === '2019-09' ? new Ajv2019(opts) : new Ajv(opts);
  addFormats(ajv as Ajv);
  return ajv;
}

/**
 * Compiles lazily. Schemas without `$id` share one instance per dialect (their refs are all local);
 * a schema with `$id`s gets its own instance so its ids can neither clash with nor resolve against
 * another tool's schema.
 */
function compile(schema: Record<string, unknown>, entry: Compiled): void {
  if (entry.validate || entry.compileError) return;
  const dialect = entry.dialect ?? '2020-12';
  let ajv = sharedAjv.get(dialect);
  if (entry.hasIds) ajv = newAjv(dialect);
  else if (!ajv) sharedAjv.set(dialect, (ajv = newAjv(dialect)));
  try {
    entry.validate = ajv.compile(schema);
  } catch (e) {
    entry.compileError = e instanceof RangeError ? 'the schema is too deeply recursive to compile' : `the schema cannot be compiled: ${(e as Error).message}`;
  } finally {
    ajv.removeSchema(schema);
  }
}

// ---------------------------------------------------------------------------------------------
// Error paths and messages

function formatPath(segments: readonly string[]): string {
  let out = '';
  for (const s of segments) {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += out ? `.${s}` : s;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

function toArgumentErrors(errors: readonly ErrorObject[]): ToolArgumentError[] {
  const items = errors.map((e) => {
    const segs = instancePathSegments(e.instancePath);
    if (e.keyword === 'required') segs.push(String((e.params as { missingProperty: string }).missingProperty));
    if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
      const params = e.params as { additionalProperty?: string; unevaluatedProperty?: string };
      const extra = params.additionalProperty ?? params.unevaluatedProperty;
      if (extra !== undefined) segs.push(extra);
    }
    return { segs, schemaPath: e.schemaPath, keyword: e.keyword, message: describeAjvError(e), used: false };
  });
  // The errors of anyOf/oneOf branches are alternatives, not a list of demands: fold them into the
  // anyOf/oneOf error ("must match one of the allowed shapes: a is required, or b is required").
  const unions = items.filter((it) => it.keyword === 'anyOf' || it.keyword === 'oneOf').sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  const folded = new Map<(typeof items)[number], string>();
  for (const u of unions) {
    if (u.used) continue;
    const alts: string[] = [];
    for (const it of items) {
      if (it === u || it.used || !it.schemaPath.startsWith(`${u.schemaPath}/`)) continue;
      it.used = true;
      const rel = formatPath(it.segs.slice(u.segs.length));
      const text = rel ? `${rel} ${it.message}` : it.message;
      if (!alts.includes(text)) alts.push(text);
    }
    if (alts.length > 0) {
      const shown = alts.length > 5 ? [...alts.slice(0, 5), `${alts.length - 5} more`] : alts;
      folded.set(u, `must match one of the allowed shapes: ${shown.join(', or ')}`);
    }
  }
  const out: ToolArgumentError[] = [];
  const seen = new Set<string>();
  for (const it of items) {
    if (it.used) continue;
    const path = formatPath(it.segs);
    const message = folded.get(it) ?? it.message;
    const k = `${path}\u0000${message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ path, segments: it.segs, message });
    if (out.length >= MAX_REPORTED_ERRORS) break;
  }
  return out;
}

function joinErrors(errors: readonly ToolArgumentError[]): string {
  return errors.map((e) => `${e.path || '(arguments)'}: ${e.message}`).join('; ');
}

function schemaFailure(message: string): ToolArgumentsCheck {
  const errors = [{ path: '', segments: [], message: `invalid tool schema: ${message}` }];
  return { ok: false, errors, message: `invalid tool schema: ${message}`, schemaError: true };
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Validates tool arguments against the tool's ORIGINAL `inputSchema` before a `tools/call` is sent
 * (spec: MCP 2026-07-28 "Tools" and "JSON Schema usage"). ajv with the schema's dialect (2020-12
 * default, 2019-09 and draft-07 via `$schema`) and ajv-formats; local `$ref`s are resolved by ajv
 * itself, remote ones are never loaded: they, like exceeding {@link MAX_SCHEMA_DEPTH} /
 * {@link MAX_SUBSCHEMA_VISITS} or a reference cycle with no property in between, make the schema
 * unusable (`schemaError: true`). The analysis and the compiled validator are cached per schema.
 *
 * @returns `{ok: true}`, or errors naming the failing property path, e.g. `window: is required`.
 *   Never throws.
 */
export function validateToolArguments(inputSchema: unknown, args: unknown): ToolArgumentsCheck {
  if (typeof inputSchema === 'boolean') return inputSchema ? { ok: true } : schemaFailure('the schema is `false`: no arguments are valid');
  if (!isPlainObject(inputSchema)) return schemaFailure('inputSchema must be a JSON object');
  const entry = compiledFor(inputSchema);
  if (entry.error !== undefined) return schemaFailure(entry.error);
  compile(inputSchema, entry);
  if (entry.compileError) return schemaFailure(entry.compileError);
  const validate = entry.validate!;
  let valid: boolean;
  try {
    // On prototype-free copies: ajv reads `data[key]`, and a property named "constructor" or
    // "toString" would otherwise be "present" (an inherited member) and fail its type.
    valid = validate(withoutPrototypes(args)) as boolean;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    const errors = [{ path: '', segments: [], message: 'the arguments are nested too deeply to check' }];
    return { ok: false, errors, message: joinErrors(errors) };
  }
  if (valid) return { ok: true };
  const errors = toArgumentErrors(validate.errors ?? []);
  return { ok: false, errors, message: joinErrors(errors) };
}

/**
 * A copy of a JSON value whose objects have no prototype, so a key reads only an own property.
 * @throws RangeError when nested too deeply (as ajv itself would)
 */
function withoutPrototypes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutPrototypes);
  if (!isPlainObject(v)) return v;
  const copy = Object.create(null) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) copy[k] = withoutPrototypes(x); // no __proto__ setter here: a plain key
  return copy;
}

/** Sets `o[key]` as an own data property, also for the key "__proto__". */
function put(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

function onlyAnnotations(node: Record<string, unknown>, except: readonly string[]): boolean {
  return Object.keys(node).every((k) => except.includes(k) || ANNOTATIONS.has(k));
}

function annotationsOf(node: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(node).filter(([k]) => ANNOTATIONS.has(k)));
}

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
    const rest = node.type.filter((t) => t !== 'null');
    if (rest.length === 1) return shallowResolve({ ...node, type: rest[0] }, analysis, hops + 1);
  }
  // A list of a referenced enum (pydantic's `List[Color]`) is a multi-select.
  if (node.type === 'array' && isPlainObject(node.items) && typeof node.items.$ref === 'string') {
    const items = shallowResolve(node.items, analysis, hops + 1);
    if (isPlainObject(items) && (Array.isArray(items.enum) || Array.isArray(items.anyOf) || Array.isArray(items.oneOf))) return { ...node, items };
  }
  return node;
}

/** JSON pointer as a `$ref` fragment (`#/$defs/Node`), keeping `$` readable. */
function pointerRef(pointer: string): string {
  return `#${encodeURI(pointer).replace(/#/g, '%23')}`;
}

class InlineAbort extends Error {}

/**
 * The model-facing copy: local `$ref`s inlined (so the schema reads on its own, also for model APIs
 * that ignore `$ref`); a ref back into a schema being inlined (recursion) stays a pointer into the
 * root `$defs`/`definitions`, which are then kept. Falls back to the original (already checked to be
 * local-only) when it has `$id`/anchors/dynamic refs or would exceed {@link MAX_INLINED_NODES}.
 */
function modelSchema(root: Record<string, unknown>, analysis: Analysis): Record<string, unknown> {
  const clone = () => JSON.parse(JSON.stringify(root)) as Record<string, unknown>;
  if (analysis.hasIds || analysis.dynamic) return clone();
  let produced = 0;
  let keptRefs = 0;
  const copy = (node: unknown, inlining: readonly object[], isRoot = false): unknown => {
    if (++produced > MAX_INLINED_NODES) throw new InlineAbort();
    if (!isPlainObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref') continue;
      if (isRoot && (k === '$defs' || k === 'definitions')) continue;
      if (MAP_KEYWORDS.includes(k) && isPlainObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([pk, sub]) => [pk, copy(sub, inlining)]));
      else if (k === 'dependencies' && isPlainObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([pk, sub]) => [pk, Array.isArray(sub) ? sub : copy(sub, inlining)]));
      else if ((ARRAY_KEYWORDS.includes(k) || k === 'items') && Array.isArray(v)) out[k] = v.map((sub) => copy(sub, inlining));
      else if ((SINGLE_KEYWORDS.includes(k) || k === 'items') && v !== undefined) out[k] = copy(v, inlining);
      else out[k] = v;
    }
    const target = typeof node.$ref === 'string' ? analysis.refTargets.get(node)?.[0] : undefined;
    if (target === undefined) return out;
    if (typeof target === 'object' && inlining.includes(target)) {
      keptRefs++;
      out.$ref = pointerRef(analysis.pointers.get(target) ?? '');
      return out;
    }
    const inlined = typeof target === 'object' ? copy(target, [...inlining, target]) : target;
    if (Object.keys(out).length === 0) return inlined;
    if (!isPlainObject(inlined)) return { ...out, allOf: [inlined] };
    if (onlyAnnotations(out, []) || analysis.dialect === 'draft-07') return { ...inlined, ...annotationsOf(out) }; // draft-07 ignores $ref siblings
    return { ...out, allOf: [...(Array.isArray(out.allOf) ? out.allOf : []), inlined] };
  };
  try {
    const out = copy(root, [root], true) as Record<string, unknown>;
    if (keptRefs > 0) {
      for (const k of ['$defs', 'definitions']) if (root[k] !== undefined) out[k] = root[k];
    }
    return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof InlineAbort || e instanceof RangeError) return clone();
    throw e;
  }
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
 * usage"; field case F10) for the arguments form and for the model:
 * - checks the whole document: every `$ref` must resolve inside it (`#/$defs/...`,
 *   `#/definitions/...`, any JSON pointer, anchors, embedded `$id`s). A `$ref` to anything else
 *   (http:, https:, other URIs, relative files) is never fetched and makes the result an error
 *   naming the ref. Depth and subschema count are bounded ({@link MAX_SCHEMA_DEPTH},
 *   {@link MAX_SUBSCHEMA_VISITS}) and reference cycles with no property in between are rejected,
 *   so recursive or hostile schemas neither hang nor overflow;
 * - splits the top-level properties into form fields (see `buildFormField` in `forms.ts`:
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
  const defsOf = (doc: Record<string, unknown>) => Object.fromEntries(['$defs', 'definitions'].filter((k) => doc[k] !== undefined).map((k) => [k, doc[k]]));
  const display = (key: string, sub: unknown): unknown => {
    const own = displayProps ? displayProps[key] : sub;
    const defs = displayProps ? defsOf(schema) : defsOf(inputSchema);
    return isPlainObject(own) && Object.keys(defs).length > 0 ? { ...defs, ...own } : own;
  };

  const constrainsWhole = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'patternProperties', 'propertyNames', 'dependentSchemas', 'unevaluatedProperties'].some((k) => k in effective) || isPlainObject(effective.additionalProperties);
  if (!properties && constrainsWhole) {
    const field: JsonField = { key: WHOLE_ARGUMENTS_KEY, label: 'Arguments', required: true, kind: 'json', schema, reason: 'the arguments are described as a whole (no top-level properties)' };
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
    const field: JsonField = { key, label: key, required: true, kind: 'json', schema: {}, reason: 'required, but the schema does not describe it' };
    jsonInitial(field, undefined, false, previous?.[key]);
    fields.push(field);
  }
  return { ok: true, schema, original: inputSchema, fields, wholeArguments: false };
}

/**
 * Builds arguments from the form's raw values (spec: MCP 2026-07-28 "Tools"): form fields follow
 * the rules of `coerceFormValues` (numbers as JSON numbers, integers reject fractions and junk,
 * booleans as booleans, choices by value, empty optional fields omitted); JSON fields are parsed
 * with `JSON.parse` (a parse error is reported for that field; empty text means omitted). With
 * `wholeArguments`, the single JSON field must hold an object, which becomes the arguments.
 *
 * @returns `args` (valid fields only) and `errors` by field key. Never throws. Schema validation is
 *   separate: {@link validateToolArguments} or {@link buildToolArguments}.
 */
export function coerceToolArguments(prepared: PreparedToolSchemaOk, raw: RawToolValues): CoercedToolArguments {
  // Keys are the server's: own-property reads only, and "__proto__" stays a plain key (put).
  const args: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const field of prepared.fields) {
    const value = ownValue(raw, field.key);
    if (field.kind !== 'json') {
      const r = coerceFieldValue(field, value as RawFormValue);
      if (r.error !== undefined) put(errors, field.key, r.error);
      else if (r.value !== undefined) put(args, field.key, r.value);
      continue;
    }
    let parsed: unknown;
    if (typeof value === 'string') {
      if (value.trim() === '') {
        if (field.required) put(errors, field.key, 'Required');
        continue;
      }
      try {
        parsed = JSON.parse(value);
      } catch (e) {
        put(errors, field.key, `Not valid JSON: ${(e as Error).message}`);
        continue;
      }
    } else if (value === undefined) {
      if (field.required) put(errors, field.key, 'Required');
      continue;
    } else parsed = value; // already a JSON value (e.g. from a script)
    if (prepared.wholeArguments && field.key === WHOLE_ARGUMENTS_KEY) {
      if (!isPlainObject(parsed)) put(errors, field.key, 'Must be a JSON object');
      else for (const [k, v] of Object.entries(parsed)) put(args, k, v);
    } else put(args, field.key, parsed);
  }
  return { args, errors };
}

/**
 * {@link coerceToolArguments} then {@link validateToolArguments} against the original schema: the
 * arguments to send, or per-field problems (validation errors go to their top-level field, with the
 * inner path when nested, e.g. `window: "from: is required"`; the whole-arguments field collects
 * all) and a one-line summary.
 */
export function buildToolArguments(prepared: PreparedToolSchemaOk, raw: RawToolValues): ToolArgumentsOutcome {
  const { args, errors } = coerceToolArguments(prepared, raw);
  if (Object.keys(errors).length > 0) {
    return { ok: false, errors, message: Object.entries(errors).map(([k, m]) => `${k || '(arguments)'}: ${m}`).join('; ') };
  }
  const check = validateToolArguments(prepared.original, args);
  if (check.ok) return { ok: true, args };
  const out: FieldErrors = {};
  const keys = new Set(prepared.fields.map((f) => f.key));
  for (const e of check.errors) {
    const top = e.segments[0];
    const own = !prepared.wholeArguments && top !== undefined && keys.has(top);
    const key = own ? top : WHOLE_ARGUMENTS_KEY;
    const rest = own ? formatPath(e.segments.slice(1)) : e.path;
    const text = rest ? `${rest}: ${e.message}` : e.message === 'is required' ? 'Required' : e.message.charAt(0).toUpperCase() + e.message.slice(1);
    out[key] = out[key] ? `${out[key]}; ${text}` : text;
  }
  return { ok: false, errors: out, message: check.message };
}
