/**
 * Parsing of an `input_required` result, done by the host itself on the raw bytes received, so that
 * a malformed result yields an error naming exactly what was wrong (the SDK's own check reports
 * several distinct faults with one generic message).
 *
 * Spec: MCP 2026-07-28, MRTR: `InputRequiredResult = { resultType: "input_required",
 * inputRequests?: {key: {method, params}}, requestState?: string }`, at least one of the two.
 */
import { MAX_INPUT_REQUESTS_PER_ROUND } from '../limits';
import { HostError } from '../util/errors';
import { INPUT_METHODS, type InputMethod, type InputRequestEntry } from './inputProvider';
import { isPlainObject } from '../util/json';

/** A well-formed `input_required` result. `requestState` is kept exactly as received (never parsed). */
export interface ParsedInputRequired {
  inputs: InputRequestEntry[];
  /** Present iff the server sent the key (an empty string is present). */
  requestState?: string;
  hasRequestState: boolean;
}

/**
 * Validate and split a raw `input_required` result.
 *
 * @param raw the `result` member of the JSON-RPC response, as parsed from the wire
 * @param where e.g. `tools/call book_table`, used in error messages
 * @param server the server's name, for the error of a round over the host's limit
 * @throws HostError (kind `protocol`) naming the fault: neither field, `inputRequests` not an object,
 *   an entry that is not `{method, params}`, an unknown embedded method, a non-string `requestState`,
 *   more than {@link MAX_INPUT_REQUESTS_PER_ROUND} entries
 */
export function parseInputRequired(raw: unknown, where: string, server = 'the server'): ParsedInputRequired {
  const bad = (why: string) => new HostError('protocol', `Malformed input_required result for ${where}: ${why}`);
  if (!isPlainObject(raw)) throw bad('the result is not an object');
  const hasRequests = 'inputRequests' in raw && raw.inputRequests !== undefined;
  const hasRequestState = 'requestState' in raw && raw.requestState !== undefined;
  if (!hasRequests && !hasRequestState) throw bad('it carries neither inputRequests nor requestState (at least one is required)');
  if (hasRequestState && typeof raw.requestState !== 'string') {
    throw bad(`requestState must be a string, got ${raw.requestState === null ? 'null' : typeof raw.requestState}`);
  }
  const inputs: InputRequestEntry[] = [];
  if (hasRequests) {
    const reqs = raw.inputRequests;
    if (!isPlainObject(reqs))
      throw bad(
        `inputRequests must be an object keyed by request id, got ${Array.isArray(reqs) ? 'an array' : reqs === null ? 'null' : typeof reqs}`,
      );
    const count = Object.keys(reqs).length;
    if (count > MAX_INPUT_REQUESTS_PER_ROUND) {
      throw new HostError(
        'protocol',
        `${server} asked for ${count} inputs in one round of ${where}; the host answers at most ${MAX_INPUT_REQUESTS_PER_ROUND} (MAX_INPUT_REQUESTS_PER_ROUND)`,
      );
    }
    for (const [key, entry] of Object.entries(reqs)) {
      if (!isPlainObject(entry)) throw bad(`inputRequests["${key}"] is not an object`);
      const method = entry.method;
      if (typeof method !== 'string') throw bad(`inputRequests["${key}"] has no method`);
      if (!(INPUT_METHODS as readonly string[]).includes(method)) {
        throw bad(`inputRequests["${key}"] has unknown method "${method}" (allowed: ${INPUT_METHODS.join(', ')})`);
      }
      const params = entry.params ?? {};
      if (!isPlainObject(params)) throw bad(`inputRequests["${key}"].params is not an object`);
      inputs.push({ key, method: method as InputMethod, params });
    }
  }
  if (hasRequests && inputs.length === 0 && !hasRequestState) throw bad('inputRequests is empty and there is no requestState');
  return hasRequestState ? { inputs, requestState: raw.requestState as string, hasRequestState: true } : { inputs, hasRequestState: false };
}
