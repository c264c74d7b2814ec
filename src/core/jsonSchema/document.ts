/**
 * One JSON Schema document (a tool's `inputSchema`), analysed in three passes: index it (ids,
 * anchors, JSON pointers, the references to resolve, with the limits enforced during the walk),
 * resolve every reference inside the document, and reject reference cycles that never reach a new
 * part of the instance. Nothing is fetched: a reference that does not resolve inside the document is
 * an error naming it.
 *
 * Spec: MCP 2026-07-28 "JSON Schema usage": 2020-12 unless `$schema` picks another dialect; a client
 * never dereferences a network `$ref` and rejects an unresolved one; the cost of a schema is bounded
 * (docs/field-cases.md, F10).
 */
import { isPlainObject } from '../util/json';

/** Deepest nesting of subschemas accepted in one schema document (spec: bound the cost of a schema). */
export const MAX_SCHEMA_DEPTH = 32;
/** Most subschemas (including every `anyOf`/`oneOf`/`allOf` branch and `$defs` entry) in one document. */
export const MAX_SUBSCHEMA_VISITS = 1000;

/** The JSON Schema dialects the host validates (`$schema`; 2020-12 when absent). */
export type Dialect = '2020-12' | '2019-09' | 'draft-07';
/** A schema: an object or a boolean. */
export type SchemaNode = Record<string, unknown> | boolean;

/** What the three passes learn about a document. Its maps are keyed by the document's own objects. */
export interface Analysis {
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

/** Why a document cannot be used (a limit, an unresolvable or remote ref, a bad keyword value). */
class SchemaProblem extends Error {}

/** Keywords holding a map of subschemas. */
export const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords holding a list of subschemas. */
export const ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords holding one subschema (`items` and draft-07 `dependencies` are handled apart: they take two shapes). */
export const SINGLE_KEYWORDS = [
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'contentSchema',
];
const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];
/** Keywords that apply to the same instance: a cycle through only these never terminates. */
const IN_PLACE_ARRAYS = ['allOf', 'anyOf', 'oneOf'];
const IN_PLACE_SINGLES = ['not', 'if', 'then', 'else'];
/** Keywords that only describe, never constrain: safe to merge onto a referenced schema. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** Base URI for a document without `$id`: never dereferenced, only used to resolve relative refs. */
const DOCUMENT_BASE = 'https://input-schema.invalid/root.json';

/** True when every key of `node` is an annotation or listed in `except`. */
export function onlyAnnotations(node: Record<string, unknown>, except: readonly string[]): boolean {
  return Object.keys(node).every((k) => except.includes(k) || ANNOTATIONS.has(k));
}

/** The annotations of `node` (title, description, default, ...). */
export function annotationsOf(node: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(node).filter(([k]) => ANNOTATIONS.has(k)));
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

// ---------------------------------------------------------------------------------------------
// Pass 1: index the document

/** A reference found by the walk, to resolve in pass 2. */
interface PendingRef {
  node: Record<string, unknown>;
  keyword: string;
  ref: string;
  /** The base URI in scope at the node. */
  base: string;
  /** The node's JSON pointer, for messages. */
  at: string;
}

/** What pass 1 collects. */
interface DocumentIndex {
  /** Schema resources by absolute URI without fragment: the root, and every embedded `$id`. */
  resources: Map<string, Record<string, unknown>>;
  /** `$anchor` / `$dynamicAnchor` / draft-07 `#name` ids, by absolute URI with fragment. */
  anchors: Map<string, SchemaNode>;
  pointers: Map<object, string>;
  refs: PendingRef[];
  hasIds: boolean;
  dynamic: boolean;
}

/**
 * The subschemas of `node` with their JSON pointers, in keyword order, checking each container's
 * shape only when the walk reaches it (so the first problem met is the one reported).
 */
function* subschemas(node: Record<string, unknown>, at: string): Generator<[unknown, string]> {
  for (const kw of MAP_KEYWORDS) {
    const map = node[kw];
    if (map === undefined) continue;
    if (!isPlainObject(map)) throw new SchemaProblem(`"${kw}" at ${at || '/'} must be an object`);
    for (const [k, sub] of Object.entries(map)) yield [sub, `${at}/${kw}/${escapePointerSegment(k)}`];
  }
  for (const kw of ARRAY_KEYWORDS) {
    const list = node[kw];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new SchemaProblem(`"${kw}" at ${at || '/'} must be an array`);
    for (const [i, sub] of list.entries()) yield [sub, `${at}/${kw}/${i}`];
  }
  for (const kw of SINGLE_KEYWORDS) if (node[kw] !== undefined) yield [node[kw], `${at}/${kw}`];
  if (Array.isArray(node.items))
    for (const [i, sub] of node.items.entries()) yield [sub, `${at}/items/${i}`]; // draft-07 tuples
  else if (node.items !== undefined) yield [node.items, `${at}/items`];
  // draft-07 `dependencies`: values are schemas or lists of names
  if (isPlainObject(node.dependencies))
    for (const [k, sub] of Object.entries(node.dependencies))
      if (!Array.isArray(sub)) yield [sub, `${at}/dependencies/${escapePointerSegment(k)}`];
}

/**
 * Walk the document once: every subschema's pointer, the resources and anchors its ids define, and
 * its references; enforces {@link MAX_SUBSCHEMA_VISITS} and {@link MAX_SCHEMA_DEPTH} during the walk.
 * @throws SchemaProblem naming the limit or the node at fault
 */
function indexDocument(root: Record<string, unknown>): DocumentIndex {
  const index: DocumentIndex = { resources: new Map(), anchors: new Map(), pointers: new Map(), refs: [], hasIds: false, dynamic: false };
  const ancestors = new Set<object>();
  let visits = 0;
  const visit = (node: unknown, at: string, depth: number, base: string): void => {
    if (++visits > MAX_SUBSCHEMA_VISITS)
      throw new SchemaProblem(
        `the schema has more than ${MAX_SUBSCHEMA_VISITS} subschemas (anyOf/oneOf/allOf branches, $defs, properties); refusing to process it`,
      );
    if (depth > MAX_SCHEMA_DEPTH)
      throw new SchemaProblem(
        `subschemas are nested deeper than ${MAX_SCHEMA_DEPTH} levels (at ${at.length > 100 ? `${at.slice(0, 50)}...${at.slice(-40)}` : at})`,
      );
    if (typeof node === 'boolean') return;
    if (!isPlainObject(node)) throw new SchemaProblem(`${at || '/'} is not a schema (an object or a boolean)`);
    if (ancestors.has(node)) throw new SchemaProblem(`${at} contains itself (the schema object graph is circular)`);
    if (!index.pointers.has(node)) index.pointers.set(node, at);
    let here = base;
    if (typeof node.$id === 'string' && depth > 0) {
      index.hasIds = true;
      if (node.$id.startsWith('#'))
        index.anchors.set(stripFragment(here) + node.$id, node); // draft-07 plain-name id
      else {
        try {
          here = new URL(node.$id, base).href;
        } catch {
          throw new SchemaProblem(`"$id" ${JSON.stringify(node.$id)} at ${at} is not a valid URI`);
        }
        index.resources.set(stripFragment(here), node);
      }
    }
    for (const kw of ['$anchor', '$dynamicAnchor']) {
      if (typeof node[kw] === 'string') {
        index.hasIds = true;
        index.anchors.set(`${stripFragment(here)}#${node[kw]}`, node);
      }
    }
    for (const kw of REF_KEYWORDS) {
      const ref = node[kw];
      if (ref === undefined) continue;
      if (typeof ref !== 'string') throw new SchemaProblem(`"${kw}" at ${at || '/'} must be a string`);
      if (kw !== '$ref') index.dynamic = true;
      index.refs.push({ node, keyword: kw, ref, base: here, at: at || '/' });
    }
    ancestors.add(node);
    for (const [sub, pointer] of subschemas(node, at)) visit(sub, pointer, depth + 1, here);
    ancestors.delete(node);
  };
  let rootBase = DOCUMENT_BASE;
  if (typeof root.$id === 'string') {
    index.hasIds = true;
    try {
      rootBase = new URL(root.$id, DOCUMENT_BASE).href;
    } catch {
      throw new SchemaProblem(`"$id" ${JSON.stringify(root.$id)} is not a valid URI`);
    }
  }
  index.resources.set(stripFragment(rootBase), root);
  visit(root, '', 0, rootBase);
  return index;
}

// ---------------------------------------------------------------------------------------------
// Pass 2: resolve the references

/** The node a JSON pointer fragment (`/$defs/Node`, already percent-decoded) names in `doc`, if any. */
function atPointer(doc: unknown, fragment: string): unknown {
  let target = doc;
  for (const seg of fragment.slice(1).split('/')) {
    const key = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(target) && /^\d+$/.test(key)) target = target[Number(key)];
    else if (isPlainObject(target) && Object.prototype.hasOwnProperty.call(target, key)) target = target[key];
    else return undefined;
  }
  return target;
}

/** The schema one reference points at, inside the document. @throws SchemaProblem naming the ref */
function resolveRef(p: PendingRef, index: DocumentIndex): SchemaNode {
  const outside = () =>
    new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} points outside this schema; remote references are never fetched`);
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
      throw outside();
    }
    fragment = abs.hash.slice(1);
    abs.hash = '';
    docUri = abs.href;
  }
  const doc = index.resources.get(docUri);
  if (!doc) throw outside();
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} has a malformed fragment`);
  }
  const target = fragment === '' ? doc : fragment.startsWith('/') ? atPointer(doc, fragment) : index.anchors.get(`${docUri}#${fragment}`);
  if (target === undefined) throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} does not resolve inside this schema`);
  if (typeof target !== 'boolean' && !isPlainObject(target))
    throw new SchemaProblem(`${p.keyword} "${p.ref}" at ${p.at} points at something that is not a schema`);
  return target;
}

/** Resolve every reference of the document, in walk order. @throws SchemaProblem for the first that fails */
function resolveRefs(index: DocumentIndex): Map<object, SchemaNode[]> {
  const refTargets = new Map<object, SchemaNode[]>();
  for (const p of index.refs) {
    const target = resolveRef(p, index);
    const list = refTargets.get(p.node) ?? [];
    list.push(target);
    refTargets.set(p.node, list);
  }
  return refTargets;
}

// ---------------------------------------------------------------------------------------------
// Pass 3: reject cycles that stay on the same instance

/**
 * A cycle through references and same-instance keywords only (A -> allOf -> $ref A) never reaches a
 * new part of the instance: every validator would recurse forever. Depth-first, with an explicit
 * stack (a long chain must not overflow ours).
 * @throws SchemaProblem naming the cycle's pointers
 */
function rejectInPlaceCycles(pointers: Map<object, string>, refTargets: Map<object, SchemaNode[]>): void {
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
    const stack: { node: Record<string, unknown>; next: SchemaNode[] }[] = [
      { node: start as Record<string, unknown>, next: inPlace(start as Record<string, unknown>) },
    ];
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
        const cycle = [...stack.slice(stack.findIndex((f) => f.node === child)).map((f) => f.node), child].map(
          (n) => pointers.get(n) || '/',
        );
        throw new SchemaProblem(`$ref cycle with no property in between (${cycle.join(' -> ')}): it can never be validated`);
      }
      if (s === 2) continue;
      state.set(child, 1);
      stack.push({ node: child, next: inPlace(child) });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The three passes, cached per schema object

/** The analysis of a document, or why it cannot be used. */
export type Analyzed = { analysis: Analysis; error?: undefined } | { analysis?: undefined; error: string };

const analysisByObject = new WeakMap<object, Analyzed>();

/**
 * The analysis of `schema` (cached per schema object: its maps are keyed by the schema's own nodes).
 * @returns `{analysis}`, or `{error}` naming the dialect, limit, reference or cycle at fault. Never throws.
 */
export function analysisFor(schema: Record<string, unknown>): Analyzed {
  let hit = analysisByObject.get(schema);
  if (!hit) {
    try {
      const dialect = dialectOf(schema);
      const index = indexDocument(schema);
      const refTargets = resolveRefs(index);
      rejectInPlaceCycles(index.pointers, refTargets);
      hit = { analysis: { dialect, hasIds: index.hasIds, refTargets, pointers: index.pointers, dynamic: index.dynamic } };
    } catch (e) {
      if (!(e instanceof SchemaProblem) && !(e instanceof RangeError)) throw e;
      hit = { error: e instanceof SchemaProblem ? e.message : 'the schema is too deeply nested to process' };
    }
    analysisByObject.set(schema, hit);
  }
  return hit;
}
