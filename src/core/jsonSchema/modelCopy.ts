/**
 * The copy of a tool's `inputSchema` handed to the model: local `$ref`s inlined so it reads on its
 * own (also for model APIs that ignore `$ref`); a recursive reference stays a pointer into the root
 * `$defs`/`definitions`, which are then kept. Bounded: beyond {@link MAX_INLINED_NODES} nodes, or with
 * `$id`/anchors/dynamic refs, the original (already checked to be local-only) is used.
 *
 * Spec: MCP 2026-07-28 "JSON Schema usage": every `$ref` handed on resolves inside the same document
 * (docs/field-cases.md, F10).
 */
import { isPlainObject } from '../util/json';
import { annotationsOf, ARRAY_KEYWORDS, MAP_KEYWORDS, onlyAnnotations, SINGLE_KEYWORDS, type Analysis } from './document';

/** Most schema nodes the model-facing copy may grow to while `$ref`s are inlined; beyond, refs are kept. */
export const MAX_INLINED_NODES = 5000;

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
export function modelSchema(root: Record<string, unknown>, analysis: Analysis): Record<string, unknown> {
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
      if (MAP_KEYWORDS.includes(k) && isPlainObject(v))
        out[k] = Object.fromEntries(Object.entries(v).map(([pk, sub]) => [pk, copy(sub, inlining)]));
      else if (k === 'dependencies' && isPlainObject(v))
        out[k] = Object.fromEntries(Object.entries(v).map(([pk, sub]) => [pk, Array.isArray(sub) ? sub : copy(sub, inlining)]));
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
    return { ...out, allOf: [...(Array.isArray(out.allOf) ? (out.allOf as unknown[]) : []), inlined] };
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
