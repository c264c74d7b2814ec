/**
 * Checks every answer an {@link InputProvider} gives before it can reach the wire, and summarises
 * it for the log without revealing values. The host is the authority: a provider bug must never
 * send an invalid or mistyped answer (docs/field-cases.md, F1 and F4).
 *
 * Spec: MCP 2026-07-28, `ElicitResult`, `CreateMessageResult`, `ListRootsResult`.
 */
import { specTypeSchemas, type CreateMessageResult, type ElicitResult, type ListRootsResult } from '@modelcontextprotocol/client';
import { analyzeUrl } from '../elicitation/urlConsent';
import { oneLine } from '../util/shownText';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import type { InputRequestEntry } from './inputProvider';

/** A checked answer: the exact JSON value that goes under the key in `inputResponses`. */
export type InputAnswer = ElicitResult | CreateMessageResult | ListRootsResult;

/**
 * The deep check of accepted form content against its requested schema (the host wires
 * `elicitation/formCheck.ts`'s `checkFormContent`): problems by field key, `''` for the form as a
 * whole; `{}` when the content is valid.
 */
export type FormContentCheck = (requestedSchema: unknown, content: Record<string, unknown>) => Readonly<Record<string, string>>;

/** Problems by field key as lines: "key: message", or the message alone for the form as a whole (`''`). */
export function problemLines(problems: Readonly<Record<string, string>>): string[] {
  return Object.entries(problems).map(([k, m]) => (k === '' ? m : `${k}: ${m}`));
}

/**
 * Normalise and check one answer.
 *
 * - Elicitation: `action` must be accept | decline | cancel. Decline and cancel go out as `{action}`
 *   only (no content, whatever the provider put there). Accept of a form elicitation must carry a
 *   content object that passes `checkFormContent` (when given) and has every `required` key;
 *   accept of a URL elicitation carries no content, and only an http or https URL can be accepted
 *   (the one rule of URL consent, whoever answers: the round panel, the terminal, `--answers`).
 * - Sampling: `role: "assistant"`, a content block (or array of blocks) and a `model` string.
 * - Roots: `roots` array of `{uri, name?}` with absolute URIs (`file://` for local folders).
 *
 * @throws HostError (kind `protocol`) naming the key and the fault; nothing is sent then.
 */
export function checkAnswer(entry: InputRequestEntry, answer: unknown, checkFormContent?: FormContentCheck): InputAnswer {
  const bad = (why: string) => new HostError('protocol', `Answer to ${entry.method} "${entry.key}" is invalid: ${why}`);
  if (!isPlainObject(answer)) throw bad('not an object');
  switch (entry.method) {
    case 'elicitation/create': {
      const action = answer.action;
      if (action === 'decline' || action === 'cancel') return { action };
      if (action !== 'accept') throw bad(`action must be accept, decline or cancel, got ${JSON.stringify(action)}`);
      if (entry.params.mode === 'url') {
        const url = analyzeUrl(String(entry.params.url ?? ''));
        if (!url.openable)
          throw bad(`only an http or https URL can be accepted, and the server sent ${JSON.stringify(oneLine(url.url, 100))}`);
        return { action: 'accept' };
      }
      const content = answer.content;
      if (!isPlainObject(content)) throw bad('an accepted form elicitation needs a content object');
      const schema = entry.params.requestedSchema as { required?: unknown } | undefined;
      const required = Array.isArray(schema?.required)
        ? (schema.required as unknown[]).filter((k): k is string => typeof k === 'string')
        : [];
      // Own properties only: a required "constructor" or "__proto__" is not "present" by inheritance.
      const missing = required.filter((k) => !Object.prototype.hasOwnProperty.call(content, k) || content[k] === undefined);
      if (missing.length) throw bad(`required field(s) missing: ${missing.join(', ')}`);
      const problems = checkFormContent ? problemLines(checkFormContent(entry.params.requestedSchema, content)) : [];
      if (problems.length) throw bad(problems.join('; '));
      return { action: 'accept', content: content as ElicitResult['content'] };
    }
    case 'sampling/createMessage': {
      if (answer.role !== 'assistant') throw bad('role must be "assistant"');
      if (typeof answer.model !== 'string' || !answer.model) throw bad('model must be a non-empty string');
      const c = answer.content;
      const blocks = Array.isArray(c) ? c : [c];
      if (!blocks.length || !blocks.every((b) => isPlainObject(b) && typeof b.type === 'string'))
        throw bad('content must be a content block or an array of them');
      // Each block and field as the spec types them (a text block's text is a string, an image has
      // data and mimeType, stopReason is a string...): the SDK's own schemas, with and without tools.
      const problems = specIssues('CreateMessageResult', answer);
      if (problems && specIssues('CreateMessageResultWithTools', answer)) throw bad(problems);
      return answer as unknown as CreateMessageResult;
    }
    case 'roots/list': {
      const roots = answer.roots;
      if (!Array.isArray(roots)) throw bad('roots must be an array');
      for (const [i, r] of roots.entries()) {
        if (!isPlainObject(r) || typeof r.uri !== 'string') throw bad(`roots[${i}] needs a uri string`);
        // file:// normally; a remote/virtual workspace folder keeps its own scheme (logged by the adapter).
        if (!/^[a-z][a-z0-9+.-]*:/i.test(r.uri)) throw bad(`roots[${i}].uri must be an absolute URI, got ${JSON.stringify(r.uri)}`);
        if (r.name !== undefined && typeof r.name !== 'string') throw bad(`roots[${i}].name must be a string`);
      }
      return { roots: roots as ListRootsResult['roots'] };
    }
  }
}

/** The issues of `value` against one of the SDK's spec type schemas, as one line; `undefined` when valid. */
function specIssues(type: 'CreateMessageResult' | 'CreateMessageResultWithTools', value: unknown): string | undefined {
  const r = specTypeSchemas[type]['~standard'].validate(value);
  if (r instanceof Promise || !r.issues) return undefined;
  return r.issues
    .slice(0, 3)
    .map((i) => `${(i.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.') || '(result)'}: ${i.message}`)
    .join('; ');
}

// Notes for the log, by answer object: they ride with the answer to its log line and never reach the wire.
const notes = new WeakMap<object, string>();

/**
 * Attach a note for the log line of `answer` (for sampling: who answered, and why that model), shown
 * after its summary. The answer itself is unchanged: nothing of the note is sent.
 */
export function noteAnswer(answer: object, note: string): void {
  notes.set(answer, note);
}

/** The answer's action for the log: accept/decline/cancel for elicitation, `answered` otherwise. */
export function answerAction(entry: InputRequestEntry, answer: InputAnswer): string {
  return entry.method === 'elicitation/create' ? String((answer as ElicitResult).action) : 'answered';
}

/**
 * A one-line summary of an answer that reveals no value: field names for forms, model and size for
 * sampling (and its note, {@link noteAnswer}), count and URIs for roots (roots are the workspace the
 * person chose to share).
 */
export function summarizeAnswer(entry: InputRequestEntry, answer: InputAnswer): string {
  switch (entry.method) {
    case 'elicitation/create': {
      const a = answer as ElicitResult;
      if (a.action !== 'accept') return a.action;
      if (entry.params.mode === 'url') return 'accept (user consented to open the URL)';
      return `accept fields [${Object.keys(a.content ?? {}).join(', ')}]`;
    }
    case 'sampling/createMessage': {
      const a = answer as CreateMessageResult;
      const blocks: ReadonlyArray<{ type: string; text?: unknown }> = Array.isArray(a.content) ? a.content : [a.content];
      const chars = blocks.reduce((n, b) => n + (b.type === 'text' ? (b as { text: string }).text.length : 0), 0);
      const types = blocks.map((b) => b.type).join('+');
      const note = notes.get(a);
      return `model ${a.model}, ${types}${chars ? ` ${chars} chars` : ''}${a.stopReason ? `, stopReason ${a.stopReason}` : ''}${note ? `; ${note}` : ''}`;
    }
    case 'roots/list': {
      const a = answer as ListRootsResult;
      return a.roots.length ? `${a.roots.length} root(s): ${a.roots.map((r) => r.uri).join(' ')}` : '0 roots (no folder open)';
    }
  }
}

/** What the log shows of an answer: {@link answerAction} and {@link summarizeAnswer}. */
export function describeAnswer(entry: InputRequestEntry, answer: InputAnswer): { action: string; summary: string } {
  return { action: answerAction(entry, answer), summary: summarizeAnswer(entry, answer) };
}
