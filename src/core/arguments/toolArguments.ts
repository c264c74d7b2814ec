/**
 * A tool call's arguments: built from the arguments form's raw values and checked against the tool's
 * ORIGINAL `inputSchema` with ajv (`validator.ts`) before a `tools/call` is sent. Errors name the
 * failing property path; the alternatives of `anyOf`/`oneOf` are folded into one message.
 *
 * Spec: MCP 2026-07-28, "Tools" (`inputSchema`) and "JSON Schema usage": 2020-12 by default, 2019-09
 * and draft-07 through `$schema`; remote references are never loaded (docs/field-cases.md, F10).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { coerceFieldValue, coerceJsonField, type FieldErrors, type RawFormValue } from '../elicitation/formModel';
import { isPlainObject, ownValue, put } from '../util/json';
import { analysisFor, type Dialect } from '../jsonSchema/document';
import { WHOLE_ARGUMENTS_KEY, type PreparedToolSchemaOk } from './toolSchema';
import { SchemaCache, compileOnce, describeAjvError, instancePathSegments, newAjv, sharedAjv } from '../jsonSchema/validator';

/** Most argument problems reported for one call. */
export const MAX_REPORTED_ERRORS = 20;

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
export type RawArgumentValues = Readonly<Record<string, unknown>>;

/** Outcome of {@link coerceToolArguments}: the arguments built so far and per-field problems. */
export interface CoercedToolArguments {
  args: Record<string, unknown>;
  errors: FieldErrors;
}

/** Outcome of {@link buildToolArguments}: arguments ready to send, or per-field problems and a summary. */
export type ToolArgumentsOutcome = { ok: true; args: Record<string, unknown> } | { ok: false; errors: FieldErrors; message: string };

/** A tool schema's usability and, once compiled, its validator (depends only on the schema's content). */
interface Compiled {
  /** Set when the schema is unusable (limits, refs, dialect). */
  error?: string;
  dialect?: Dialect;
  hasIds?: boolean;
  validate?: ValidateFunction;
  compileError?: string;
}

const compiled = new SchemaCache<Compiled>();

function compiledFor(schema: Record<string, unknown>): Compiled {
  let text: string | undefined;
  try {
    text = JSON.stringify(schema);
  } catch {
    // A circular object cannot come from JSON; analysis rejects it below, uncached by text.
  }
  return compiled.get(schema, text || undefined, () => {
    const a = analysisFor(schema);
    return a.error !== undefined ? { error: a.error } : { dialect: a.analysis.dialect, hasIds: a.analysis.hasIds };
  });
}

/**
 * Compiles lazily. Schemas without `$id` share one instance per dialect (their refs are all local);
 * a schema with `$id`s gets its own instance so its ids can neither clash with nor resolve against
 * another tool's schema.
 */
function compile(schema: Record<string, unknown>, entry: Compiled): void {
  if (entry.validate || entry.compileError) return;
  const dialect = entry.dialect ?? '2020-12';
  try {
    entry.validate = compileOnce(entry.hasIds ? newAjv(dialect) : sharedAjv(dialect), schema);
  } catch (e) {
    entry.compileError =
      e instanceof RangeError ? 'the schema is too deeply recursive to compile' : `the schema cannot be compiled: ${(e as Error).message}`;
  }
}

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
  const unions = items
    .filter((it) => it.keyword === 'anyOf' || it.keyword === 'oneOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
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
    valid = validate(withoutPrototypes(args));
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
export function coerceToolArguments(prepared: PreparedToolSchemaOk, raw: RawArgumentValues): CoercedToolArguments {
  // Keys are the server's: own-property reads only, and "__proto__" stays a plain key (put).
  const args: Record<string, unknown> = {};
  const errors: FieldErrors = {};
  for (const field of prepared.fields) {
    const value = ownValue(raw, field.key);
    const whole = field.kind === 'json' && prepared.wholeArguments && field.key === WHOLE_ARGUMENTS_KEY;
    const r = field.kind === 'json' ? coerceJsonField(value, field.required, whole) : coerceFieldValue(field, value as RawFormValue);
    if (r.error !== undefined) put(errors, field.key, r.error);
    else if (r.value === undefined) continue;
    else if (whole) for (const [k, v] of Object.entries(r.value as Record<string, unknown>)) put(args, k, v);
    else put(args, field.key, r.value);
  }
  return { args, errors };
}

/**
 * {@link coerceToolArguments} then {@link validateToolArguments} against the original schema: the
 * arguments to send, or per-field problems (validation errors go to their top-level field, with the
 * inner path when nested, e.g. `window: "from: is required"`; the whole-arguments field collects
 * all) and a one-line summary.
 */
export function buildToolArguments(prepared: PreparedToolSchemaOk, raw: RawArgumentValues): ToolArgumentsOutcome {
  const { args, errors } = coerceToolArguments(prepared, raw);
  if (Object.keys(errors).length > 0) {
    return {
      ok: false,
      errors,
      message: Object.entries(errors)
        .map(([k, m]) => `${k || '(arguments)'}: ${m}`)
        .join('; '),
    };
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
    const text = rest
      ? `${rest}: ${e.message}`
      : e.message === 'is required'
        ? 'Required'
        : e.message.charAt(0).toUpperCase() + e.message.slice(1);
    out[key] = out[key] ? `${out[key]}; ${text}` : text;
  }
  return { ok: false, errors: out, message: check.message };
}
