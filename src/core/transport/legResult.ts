/**
 * A tracked leg's result as the wire tap (`wireTap.ts`) records it, and what the SDK sees of it: a
 * complete result is the host's to check and render, so the SDK gets a minimal valid stand-in (one
 * unknown content block cannot fail the whole call, docs/field-cases.md, F12); an `input_required`
 * result on a modern connection is handed to its leg first; a `task` result (the server runs the call as
 * a task, `core/tasks`) is the host's like a complete one; other resultTypes pass through untouched
 * (those are the SDK's to decode or refuse).
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests" (`resultType`: absent means `complete`); the
 * `io.modelcontextprotocol/tasks` extension (`resultType: "task"`).
 */
import { isPlainObject } from '../util/json';

/** What the host learns about one leg from the wire. */
export interface LegRecord {
  /** The method the leg is expected to send. */
  method: string;
  /** The JSON-RPC id the SDK gave the leg, once sent. */
  id?: string | number;
  /** The params exactly as written to the transport (after the SDK added `_meta`). */
  sentParams?: Record<string, unknown>;
  /** The raw `result` member received (before any SDK validation), if any. */
  rawResult?: unknown;
  /** The raw `error` member received, if any. */
  rawError?: { code: number; message: string; data?: unknown };
  /** True when the server omitted `resultType` and the tap filled in `complete`. */
  resultTypeMissing?: boolean;
  /**
   * Called at once when an `input_required` result for the leg arrives on a modern connection; the
   * SDK then sees that result on the next turn of the event loop.
   */
  onInputRequired?: () => void;
}

/**
 * Minimal valid complete results per tracked method (what the SDK sees of a complete result): the
 * MRTR methods, and the lists (the host checks their pages itself, within its bounds).
 */
const STAND_IN: Record<string, Record<string, unknown>> = {
  'tools/call': { content: [] },
  'prompts/get': { messages: [] },
  'resources/read': { contents: [], ttlMs: 0, cacheScope: 'private' },
  'tools/list': { tools: [], ttlMs: 0, cacheScope: 'private' },
  'prompts/list': { prompts: [], ttlMs: 0, cacheScope: 'private' },
  'resources/list': { resources: [], ttlMs: 0, cacheScope: 'private' },
  'resources/templates/list': { resourceTemplates: [], ttlMs: 0, cacheScope: 'private' },
};

/** {@link recordResult}'s verdict for an `input_required` result to hand to its leg at once. */
export const HAND_ON = Symbol('input_required');

/**
 * Record `result` on `leg` (raw, and whether `resultType` was filled in).
 * @param fillResultType whether the connection is modern (an absent `resultType` is filled, an
 *   `input_required` handed on first); asked only when it matters
 * @returns the stand-in result the SDK sees instead of a complete one, {@link HAND_ON} for an
 *   `input_required` to hand on, `undefined` when the SDK sees the result as it came
 */
export function recordResult(
  leg: LegRecord,
  result: unknown,
  fillResultType: () => boolean,
): Record<string, unknown> | typeof HAND_ON | undefined {
  leg.rawResult = result;
  if (!isPlainObject(result)) return undefined;
  const missing = !('resultType' in result);
  if (missing && fillResultType()) leg.resultTypeMissing = true;
  if (result.resultType === 'input_required' && fillResultType()) return HAND_ON;
  // A created task ends the call's MRTR phase: the host follows it (core/tasks); the SDK, which has no
  // tasks runtime, sees a complete stand-in rather than refusing a resultType it does not know.
  const task = result.resultType === 'task' && leg.method === 'tools/call';
  if (result.resultType !== 'complete' && !missing && !task) return undefined;
  const withType = result.resultType === 'complete' || task || leg.resultTypeMissing ? { resultType: 'complete' } : {};
  return { ...withType, ...STAND_IN[leg.method] };
}
