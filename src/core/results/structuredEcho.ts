/**
 * A tool result's `structuredContent` that only repeats its text: the spec asks a tool that returns
 * structured content to return it serialized in a text block too, so a person reading the result
 * would see the same data twice.
 *
 * Spec: MCP 2026-07-28 "Tools", structured content ("SHOULD also return the serialized JSON in a TextContent block").
 */
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from '../util/json';

/**
 * True when `result.structuredContent` only repeats the text blocks of `result.content`: some text
 * block parses as JSON equal to it, or it is an object whose values are all strings, each the text
 * of a text block (`{"content": "<the text>"}`, as `server-filesystem` answers).
 */
export function structuredRepeatsText(result: Record<string, unknown>): boolean {
  const structured = result.structuredContent;
  if (structured === undefined || !Array.isArray(result.content)) return false;
  const texts = result.content
    .filter((b: unknown) => (b as { type?: unknown })?.type === 'text' && typeof (b as { text?: unknown }).text === 'string')
    .map((b) => (b as { text: string }).text);
  if (texts.some((text) => parsesTo(text, structured))) return true;
  if (!isPlainObject(structured)) return false;
  const values = Object.values(structured);
  return values.length > 0 && values.every((v) => typeof v === 'string' && texts.includes(v));
}

/** Whether `text` is JSON equal to `value` (key order aside). */
function parsesTo(text: string, value: unknown): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}

/** The result as shown to a person: without its `structuredContent` when that only repeats the text. */
export function withoutRepeatedStructured<T extends Record<string, unknown>>(result: T): T {
  if (!structuredRepeatsText(result)) return result;
  const shown = { ...result };
  delete shown.structuredContent;
  return shown;
}
