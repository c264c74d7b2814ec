// Server-side checks of accepted form content: the client's own validation is never trusted.
import type { InputResponseView } from '@modelcontextprotocol/server';
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
  const problem = parsed.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'form'}: ${issue.message}`)
    .join('; ');
  return { ok: false, problem };
}

/** What the answer to a form leads to: the person refused it, a valid value, or the form to ask (again) with this message. */
export type FormReading<T> =
  { kind: 'refused'; action: 'decline' | 'cancel' } | { kind: 'value'; value: T } | { kind: 'ask'; message: string };

/**
 * Reads the answer to a form round: declined or cancelled; accepted with content that passes
 * `schema`; or to be asked: `question` alone when there is no answer yet, prefixed with what was
 * wrong after an answer that could not be used (the same key is asked again in a new round).
 */
export function readFormAnswer<S extends z.ZodType>(answer: InputResponseView, schema: S, question: string): FormReading<z.output<S>> {
  if (answer.kind !== 'elicit') return { kind: 'ask', message: question };
  if (answer.action !== 'accept') return { kind: 'refused', action: answer.action };
  const checked = checkContent(schema, answer.content);
  if (checked.ok) return { kind: 'value', value: checked.value };
  return { kind: 'ask', message: `Your last answer could not be used (${checked.problem}). ${question}` };
}

/** The JSON type name of a value as a person reads it: `string`, `number`, `boolean`, `array`, `object` or `null`. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
