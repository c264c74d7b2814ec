/**
 * What a history entry keeps of a call's arguments and result: within bounds (a larger one is noted,
 * not kept), secret arguments left out (their values handed on, to be scrubbed and masked), and the
 * call's secret values scrubbed from what is kept.
 */
import type { MrtrMethod } from '../inputs/inputProvider';
import { isPlainObject, jsonSize, put } from '../util/json';
import type { CallRecord } from './callRecord';
import { isSecretField, scrubSecrets, stringsIn } from './secrets';

/** Largest result (JSON text, UTF-16 code units) kept in an entry; a larger one is noted, not kept. */
export const MAX_KEPT_RESULT_CHARS = 256_000;
/** Largest arguments object (JSON text) kept for Run Again. */
export const MAX_KEPT_ARGUMENTS_CHARS = 64_000;

/** What is kept of the arguments: those kept, the secret ones left out, or a note that they were too large. */
export type KeptArguments = Pick<CallRecord, 'arguments' | 'omittedArguments' | 'resultNote'>;

/**
 * The arguments of a tool or prompt call as kept (none for `resources/read`).
 * @param argumentsSchema the tool's `inputSchema` (its secret properties are left out)
 * @param secret told the values of the arguments left out as secret
 */
export function keptArguments(
  method: MrtrMethod,
  params: Record<string, unknown>,
  argumentsSchema: unknown,
  secret: (values: string[]) => void,
): KeptArguments {
  const kept: KeptArguments = {};
  const args = params.arguments;
  if (method === 'resources/read' || !isPlainObject(args)) return kept;
  const omitted: string[] = [];
  const values = withoutSecrets(args, argumentsSchema, '', 0, omitted, secret) as Record<string, unknown>;
  if (omitted.length) kept.omittedArguments = omitted;
  if (jsonSize(values) <= MAX_KEPT_ARGUMENTS_CHARS) kept.arguments = values;
  else kept.resultNote = 'the arguments were too large to keep';
  return kept;
}

/** How deep secret fields are looked for inside object and array arguments; deeper values are kept as they are (scrubbed of the secrets found). */
const MAX_SECRET_DEPTH = 16;

/**
 * A copy of `value` without its secret fields, at any depth (`connection.password` as well as
 * `password`): a field is secret by its schema (the matching `properties` / `items` of `schema`) or by its key.
 * @param omitted told each secret field's path, e.g. `connection.password`, `servers[0].token`
 * @param secret told the values left out
 */
function withoutSecrets(
  value: unknown,
  schema: unknown,
  path: string,
  depth: number,
  omitted: string[],
  secret: (values: string[]) => void,
): unknown {
  if (depth > MAX_SECRET_DEPTH) return value;
  const s = isPlainObject(schema) ? schema : {};
  if (Array.isArray(value)) return value.map((item, i) => withoutSecrets(item, s.items, `${path}[${i}]`, depth + 1, omitted, secret));
  if (!isPlainObject(value)) return value;
  const props = isPlainObject(s.properties) ? s.properties : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    const schemaOf = Object.prototype.hasOwnProperty.call(props, k) ? props[k] : undefined;
    if (isSecretField(k, schemaOf)) {
      omitted.push(at);
      secret(stringsIn(v));
    } else put(out, k, withoutSecrets(v, schemaOf, at, depth + 1, omitted, secret));
  }
  return out;
}

/** `v` with the `secrets` scrubbed, or `undefined` when it nests too deeply to walk. */
export function scrubbed<T>(v: T, secrets: readonly string[]): T | undefined {
  try {
    return scrubSecrets(v, secrets);
  } catch {
    return undefined;
  }
}

/** The result as kept (secrets scrubbed), or the note saying why it was not (too large, nested too deeply). */
export function keptResult(result: Record<string, unknown>, secrets: readonly string[]): Pick<CallRecord, 'result' | 'resultNote'> {
  const size = jsonSize(result);
  const kept = size <= MAX_KEPT_RESULT_CHARS ? scrubbed(result, secrets) : undefined;
  if (kept) return { result: kept };
  if (size === Number.POSITIVE_INFINITY || size <= MAX_KEPT_RESULT_CHARS)
    return { resultNote: 'the result was nested too deeply to keep; run the call again to see it' };
  return {
    resultNote: `the result (${(size / 1_000_000).toFixed(1)} million characters) was too large to keep; run the call again to see it`,
  };
}
