/**
 * `x-mcp-header` tool parameters mirrored as `Mcp-Param-{Name}` HTTP headers (SEP-2243).
 *
 * Spec: MCP 2026-07-28, "Streamable HTTP" → "Custom Headers from Tool Parameters" and "Value Encoding",
 * and "Tools" → `x-mcp-header`. A Streamable HTTP client MUST exclude tools whose declarations break the
 * constraints and MUST mirror the declared parameters of every `tools/call` into headers. The SDK does
 * this only inside `Client.callTool()`, which the host does not use (it sends MRTR legs with
 * `client.request()`), and does not export its helpers, hence this module. Pure logic, no I/O.
 */
import { isPlainObject } from '../util/json';

/** One declared header: where the value sits in `arguments` and the `{Name}` of `Mcp-Param-{Name}`. */
export interface HeaderDeclaration {
  /** The chain of `properties` keys from the schema root to the annotated property. */
  path: string[];
  /** The `x-mcp-header` value as declared (header names are case-insensitive on the wire). */
  name: string;
  type: 'string' | 'integer' | 'boolean';
}

/** Outcome of {@link scanHeaderDeclarations}: the declarations, or why the tool must be excluded. */
export type HeaderScan = { ok: true; declarations: HeaderDeclaration[] } | { ok: false; reason: string };

/** The extension keyword. */
const KEY = 'x-mcp-header';
/** RFC 9110 `token` (`1*tchar`): no space, control character, non-ASCII or delimiter. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);
/**
 * Keywords holding subschemas off the `properties` chain. An annotation under any of them is not
 * statically reachable, which makes the whole tool definition invalid (`$ref` targets live in `$defs`).
 */
const OFF_CHAIN_SINGLE = [
  'items',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
const OFF_CHAIN_ARRAYS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const OFF_CHAIN_MAPS = ['patternProperties', 'dependentSchemas', '$defs', 'definitions'];
/** Bound on schema nesting so a hostile schema cannot overflow the stack. */
const MAX_DEPTH = 64;

/**
 * Finds the `x-mcp-header` declarations of a tool's `inputSchema` and checks every constraint: a
 * non-empty RFC 9110 token, case-insensitively unique, on a property of type string, integer or
 * boolean (`number` is not permitted), reachable from the root through `properties` keys only.
 * @returns `{ok: false, reason}` naming the property and the broken rule (the tool must be excluded)
 */
export function scanHeaderDeclarations(inputSchema: unknown): HeaderScan {
  const declarations: HeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  const where = (path: string[]) => (path.length ? path.join('.') : '<root>');
  const visit = (node: unknown, path: string[], onChain: boolean, depth: number): string | undefined => {
    if (!isPlainObject(node)) return undefined;
    if (depth > MAX_DEPTH) return `the schema is nested deeper than ${MAX_DEPTH} levels`;
    if (KEY in node) {
      const name = node[KEY];
      if (!onChain || path.length === 0)
        return `${where(path)}: ${KEY} is only allowed on properties reached through "properties" keys alone`;
      if (typeof name !== 'string' || name === '') return `${where(path)}: ${KEY} must be a non-empty string`;
      if (!TOKEN.test(name)) return `${where(path)}: ${KEY} ${JSON.stringify(name)} is not an HTTP header name token`;
      if (typeof node.type !== 'string' || !PRIMITIVES.has(node.type)) {
        return `${where(path)}: ${KEY} is only allowed on string, integer or boolean properties, not ${JSON.stringify(node.type ?? null)}`;
      }
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined) return `${KEY} ${JSON.stringify(name)} is declared twice (also as ${JSON.stringify(prior)})`;
      seen.set(name.toLowerCase(), name);
      declarations.push({ path, name, type: node.type as HeaderDeclaration['type'] });
    }
    if (isPlainObject(node.properties)) {
      for (const [k, child] of Object.entries(node.properties)) {
        const fault = visit(child, [...path, k], onChain, depth + 1);
        if (fault) return fault;
      }
    }
    const off: unknown[] = [];
    for (const k of OFF_CHAIN_SINGLE) if (k in node) off.push(node[k]);
    for (const k of OFF_CHAIN_ARRAYS) if (Array.isArray(node[k])) off.push(...(node[k] as unknown[]));
    for (const k of OFF_CHAIN_MAPS) if (isPlainObject(node[k])) off.push(...Object.values(node[k]));
    // `items` may also be an array of schemas (draft 2019 and earlier).
    if (Array.isArray(node.items)) off.push(...(node.items as unknown[]));
    for (const sub of off) {
      const fault = visit(sub, [...path, '<off-chain>'], false, depth + 1);
      if (fault) return fault;
    }
    return undefined;
  };
  const fault = visit(inputSchema, [], true, 0);
  return fault ? { ok: false, reason: fault } : { ok: true, declarations };
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';

/**
 * A header value as sent: plain when it is a safe ASCII field value (visible ASCII, inner spaces and
 * tabs, nothing at the edges that field parsing would strip), else `=?base64?{UTF-8 Base64}?=`. A plain
 * value that looks like the sentinel is encoded too, so it cannot be misread.
 */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  // Leading/trailing whitespace (including a tab) would be stripped by HTTP field parsing.
  const safe = !looksEncoded && value === value.trim() && /^[\x20-\x7e\t]*$/.test(value);
  return safe ? value : `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;
}

/** The string form of an argument (spec: strings as-is, integers in decimal, booleans lowercase), or undefined. */
function asHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // Integers must stay within the IEEE 754 safe range to mean the same number on both sides.
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value)))
    return String(value);
  return undefined;
}

/**
 * The `Mcp-Param-{Name}` headers of one `tools/call`: the value at each declaration's path in
 * `args`, encoded. A value that is absent or `null` gets no header (spec: the client MUST omit it);
 * a value that is not a primitive gets none either (it cannot be mirrored).
 */
export function buildParamHeaders(declarations: readonly HeaderDeclaration[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const d of declarations) {
    let v: unknown = args;
    for (const k of d.path) v = isPlainObject(v) ? v[k] : undefined;
    const text = v === null || v === undefined ? undefined : asHeaderText(v);
    if (text !== undefined) headers[`Mcp-Param-${d.name}`] = encodeHeaderValue(text);
  }
  return headers;
}
