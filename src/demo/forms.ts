// Server-side checks of accepted form content: the client's own validation is never trusted.
import type { z } from 'zod';

/** Outcome of {@link checkContent}: the parsed value, or a sentence saying what is wrong. */
export type ContentCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * Validates accepted elicitation `content` with `schema` (a zod mirror of the form's JSON schema,
 * plus rules JSON Schema cannot express). Never throws; `problem` is meant for the next round's
 * message, e.g. `partySize: Too big: expected number to be <=12`.
 */
export function checkContent<S extends z.ZodType>(schema: S, content: unknown): ContentCheck<z.output<S>> {
  const parsed = schema.safeParse(content ?? {});
  if (parsed.success) return { ok: true, value: parsed.data };
  const problem = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'form'}: ${issue.message}`).join('; ');
  return { ok: false, problem };
}

/** The JSON type name of a value as a person reads it: `string`, `number`, `boolean`, `array`, `object` or `null`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
