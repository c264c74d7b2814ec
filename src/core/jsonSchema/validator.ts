/**
 * The host's one ajv setup, shared by tool arguments (`toolArguments.ts`) and elicitation content
 * (`elicitation/formCheck.ts`): an instance per dialect, a cache of compiled validators, and ajv's
 * errors as short messages.
 *
 * Every instance: `strict: false` (servers add vendor keywords), all errors, no logger, no
 * `loadSchema` (a reference ajv cannot find is a compile error, never a fetch), ajv-formats, and RE2
 * for `pattern` (`safeRegExp.ts`: a server's pattern must not be able to freeze the host). ajv
 * compiles code with `new Function`, so none of this may reach a webview (its CSP forbids it).
 */
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type Ajv2019 from 'ajv/dist/2019';
import type Ajv2020 from 'ajv/dist/2020';
import { plural } from '../util/shownText';
import type { Dialect } from './document';
import { safeRegExp, withPatternBudget } from './safeRegExp';

/** An ajv instance of any dialect. */
export type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/** What an instance accepts beyond its dialect. */
export interface AjvExtras {
  /** The legacy titled-enum annotation `enumNames` (an array), as elicitation schemas carry it (spec: LegacyTitledEnumSchema). */
  enumNames?: boolean;
}

/**
 * A new ajv instance for `dialect` (see the module comment for its options). A schema with `$id`s
 * gets one of its own, so its ids can neither clash with nor resolve against another schema's.
 */
export function newAjv(dialect: Dialect, extras: AjvExtras = {}): AnyAjv {
  const { Ajv, Ajv2019, Ajv2020, addFormats } = ajvModules();
  const opts = { strict: false, allErrors: true, logger: false as const, addUsedSchema: false, code: { regExp: safeRegExp } };
  const ajv = dialect === '2020-12' ? new Ajv2020(opts) : dialect === '2019-09' ? new Ajv2019(opts) : new Ajv(opts);
  addFormats(ajv);
  if (extras.enumNames) ajv.addKeyword({ keyword: 'enumNames', schemaType: 'array' });
  return ajv;
}

let loaded: typeof import('./ajvModules') | undefined;
/** ajv, loaded on the first schema check (its own bundle, dist/ajv.js: activation never parses it). */
function ajvModules(): typeof import('./ajvModules') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./ajvModules') as typeof import('./ajvModules'));
}

const shared = new Map<string, AnyAjv>();

/** The shared instance of `dialect` (created on first use), for schemas without `$id`. */
export function sharedAjv(dialect: Dialect, extras: AjvExtras = {}): AnyAjv {
  const key = `${dialect}${extras.enumNames ? '+enumNames' : ''}`;
  let ajv = shared.get(key);
  if (!ajv) shared.set(key, (ajv = newAjv(dialect, extras)));
  return ajv;
}

/**
 * Compile `schema` and unregister it again: the compiled function stays usable, and ajv's own cache
 * (which would only grow) keeps nothing.
 * @throws what ajv throws for a schema it cannot compile
 */
export function compileOnce(ajv: AnyAjv, schema: Record<string, unknown>): ValidateFunction {
  try {
    return withPatternBudget(() => ajv.compile(schema));
  } finally {
    ajv.removeSchema(schema);
  }
}

/** Default number of schema texts a {@link SchemaCache} keeps. */
export const SCHEMA_CACHE_SIZE = 256;

/**
 * Values computed from a schema (a compiled validator, ...), cached by the schema object and, bounded
 * and least recently used first out, by the schema's JSON text: each `tools/list` and each round
 * brings freshly parsed (new) schema objects with the same text.
 */
export class SchemaCache<V> {
  private readonly byObject = new WeakMap<object, V>();
  private readonly byText = new Map<string, V>();

  constructor(private readonly size = SCHEMA_CACHE_SIZE) {}

  /**
   * The value for `schema`: cached by object, else by `text`, else `compute()` (not cached when it throws).
   * @param text the schema's JSON text; `undefined` caches by object only (a schema that cannot be stringified)
   */
  get(schema: object, text: string | undefined, compute: () => V): V {
    const hit = this.byObject.get(schema);
    if (hit !== undefined) return hit;
    let value = text === undefined ? undefined : this.byText.get(text);
    if (value !== undefined)
      this.byText.delete(text!); // refresh its place in the LRU order
    else {
      value = compute();
      if (text !== undefined && this.byText.size >= this.size) this.byText.delete(this.byText.keys().next().value as string);
    }
    if (text !== undefined) this.byText.set(text, value);
    this.byObject.set(schema, value);
    return value;
  }
}

/** Decodes an ajv `instancePath` (`/a/b~1c`) into its segments. */
export function instancePathSegments(instancePath: string): string[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function listValues(values: unknown): string {
  return Array.isArray(values) ? values.map((v) => JSON.stringify(v)).join(', ') : String(values);
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};
const FORMAT_EXAMPLES: Record<string, string> = {
  date: 'a date like 2026-11-01',
  'date-time': 'a date and time like 2026-11-01T09:30:00Z',
  email: 'an email address',
  uri: 'a full URI like https://example.com/page',
  time: 'a time like 09:30:00Z',
};

/**
 * A short lower-case message for one ajv error ("must be a whole number", "is required", "must be a
 * date like 2026-11-01"), without the property path.
 */
export function describeAjvError(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not an allowed property';
    case 'type':
      return `must be ${String(p.type)
        .split(',')
        .map((t) => TYPE_NAMES[t] ?? t)
        .join(' or ')}`;
    case 'minimum':
      return `must be ${String(p.limit)} or more`;
    case 'maximum':
      return `must be ${String(p.limit)} or less`;
    case 'exclusiveMinimum':
      return `must be more than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'minLength':
      return `must be at least ${plural(Number(p.limit), 'character', 'characters')}`;
    case 'maxLength':
      return `must be at most ${plural(Number(p.limit), 'character', 'characters')}`;
    case 'minItems':
      return `must have at least ${plural(Number(p.limit), 'item', 'items')}`;
    case 'maxItems':
      return `must have at most ${plural(Number(p.limit), 'item', 'items')}`;
    case 'uniqueItems':
      return 'must not repeat items';
    case 'minProperties':
      return `must have at least ${plural(Number(p.limit), 'property', 'properties')}`;
    case 'maxProperties':
      return `must have at most ${plural(Number(p.limit), 'property', 'properties')}`;
    case 'enum':
      return `must be one of ${listValues(p.allowedValues)}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'format':
      return `must be ${FORMAT_EXAMPLES[String(p.format)] ?? `a valid ${String(p.format)}`}`;
    case 'oneOf':
      if (Array.isArray(p.passingSchemas)) return 'matches more than one of the allowed shapes (exactly one is allowed)';
      return 'does not match any of the allowed shapes';
    case 'anyOf':
      return 'does not match any of the allowed shapes';
    default:
      return e.message ?? `fails "${e.keyword}"`;
  }
}
