/**
 * What a history entry keeps of a call's arguments and result: within bounds (a larger one is noted,
 * not kept), secret arguments left out (their values handed on, to be scrubbed and masked), and the
 * call's secret values scrubbed from what is kept.
 */
import type { MrtrMethod } from '../mrtr/inputs';
import { isPlainObject, jsonSize, put } from '../util/json';
import type { CallRecord } from './callRecord';
import { isSecretField, scrubSecrets, secretKeys, stringsIn } from './secrets';

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
export function keptArguments(method: MrtrMethod, params: Record<string, unknown>, argumentsSchema: unknown, secret: (values: string[]) => void): KeptArguments {
  const kept: KeptArguments = {};
  const args = params.arguments;
  if (method === 'resources/read' || !isPlainObject(args)) return kept;
  const fromSchema = secretKeys(argumentsSchema);
  const omitted: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (fromSchema.has(k) || isSecretField(k, undefined)) {
      omitted.push(k);
      secret(stringsIn(v));
    } else put(values, k, v);
  }
  if (omitted.length) kept.omittedArguments = omitted;
  if (jsonSize(values) <= MAX_KEPT_ARGUMENTS_CHARS) kept.arguments = values;
  else kept.resultNote = 'the arguments were too large to keep';
  return kept;
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
  if (size === Number.POSITIVE_INFINITY || size <= MAX_KEPT_RESULT_CHARS) return { resultNote: 'the result was nested too deeply to keep; run the call again to see it' };
  return { resultNote: `the result (${(size / 1_000_000).toFixed(1)} million characters) was too large to keep; run the call again to see it` };
}
