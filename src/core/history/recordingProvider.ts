/**
 * The call recorder's wrapper around a call's input provider: it notes what each input asked (a
 * form's fields, a URL's host, the model hints) and how it was answered (action, who, how long,
 * typed values only when allowed), and hands on every secret value as it is given. Capabilities and
 * answers are the inner provider's, unchanged.
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests" (`inputRequests`: elicitation, sampling, roots).
 */
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import { oneLine } from '../util/shownText';
import type { InputContext, InputMethod, InputProvider } from '../inputs/inputProvider';
import { isPromiseLike, type Awaitable } from '../util/async';
import { isHostError } from '../util/errors';
import { isPlainObject, ownValue, put } from '../util/json';
import type { AnswerRecord, AskedField, InputRecord } from './callRecord';
import { isSecretField, stringsIn } from './secrets';

/** Longest single value kept of what a person typed (when values are kept at all). */
export const MAX_KEPT_VALUE_CHARS = 2_000;

/** Who answered an input, for the history (`you`, `workspace folders`, `saved answers`...). */
export type AnsweredBy = (method: InputMethod, ctx: InputContext) => string;

/** The default {@link AnsweredBy}: a person for forms and reviews, the workspace for roots. */
export const DEFAULT_BY: AnsweredBy = (method) =>
  method === 'elicitation/create' ? 'you' : method === 'sampling/createMessage' ? 'you (reviewed)' : 'workspace folders';

/** Where the wrapper notes what it sees. */
export interface InputNotes {
  /** The record of input `key` in round `round` (made when it is new). */
  input(round: number, key: string, method: InputMethod): InputRecord;
  /** Told the values of secret fields as they are given. */
  secret(values: string[]): void;
  /** Keep the values typed into forms (secret fields never). */
  keepValues: boolean;
  answeredBy: AnsweredBy;
}

/** JSON type or format of a form property, for display. */
function fieldType(schema: Record<string, unknown>): string {
  if (typeof schema.format === 'string') return schema.format;
  if (schema.type === 'array') return 'multi-select';
  if (Array.isArray(schema.enum) || Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return 'choice';
  return typeof schema.type === 'string' ? schema.type : 'value';
}

/** The fields of a form elicitation's `requestedSchema`, in order (bounded). */
export function askedFields(requestedSchema: unknown): AskedField[] {
  const s = isPlainObject(requestedSchema) ? requestedSchema : {};
  const props = isPlainObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : []);
  return Object.entries(props)
    .slice(0, 100)
    .map(([key, raw]) => {
      const p = isPlainObject(raw) ? raw : {};
      return {
        key: oneLine(key, 100),
        label: oneLine(typeof p.title === 'string' && p.title ? p.title : key, 100),
        type: oneLine(fieldType(p), 40),
        required: required.has(key),
        secret: isSecretField(key, p),
      };
    });
}

/** `inner`, seen by the recorder (see the module comment). */
export function recordingProvider(inner: InputProvider, notes: InputNotes): InputProvider {
  const by = notes.answeredBy;
  // An answer at hand (roots) is noted and handed on in the same turn; an awaited one once it settles.
  const seen = <T, R extends Awaitable<T>>(
    method: InputMethod,
    ctx: InputContext,
    ask: Partial<InputRecord>,
    run: () => R,
    answered: (r: T) => Partial<AnswerRecord>,
  ): R => {
    const input = notes.input(ctx.round.round, ctx.key, method);
    Object.assign(input, ask);
    const started = Date.now();
    const done = (r: T): T => {
      input.answer = {
        action: input.answer?.action ?? 'answered',
        waitedMs: input.answer?.waitedMs ?? Date.now() - started,
        ...answered(r),
        by: by(method, ctx),
      };
      return r;
    };
    const failed = (e: unknown): never => {
      input.answer = {
        action: isHostError(e, 'declined') ? 'decline' : isHostError(e, 'cancelled') ? 'cancel' : 'failed',
        by: by(method, ctx),
        waitedMs: Date.now() - started,
      };
      throw e;
    };
    let out: R;
    try {
      out = run();
    } catch (e) {
      return failed(e);
    }
    return (isPromiseLike(out) ? Promise.resolve(out as PromiseLike<T>).then(done, failed) : done(out as T)) as R;
  };
  return {
    get capabilities() {
      return inner.capabilities;
    },
    elicit: (params, ctx) => {
      const p = params as unknown as Record<string, unknown>;
      const url = p.mode === 'url';
      const ask: Partial<InputRecord> = {
        mode: url ? 'url' : 'form',
        message: typeof p.message === 'string' ? oneLine(p.message, 500) : undefined,
      };
      if (url) ask.urlHost = hostOf(p.url);
      else ask.fields = askedFields(p.requestedSchema);
      return seen(
        'elicitation/create',
        ctx,
        ask,
        () => inner.elicit(params, ctx),
        (r: ElicitResult) => formAnswer(r, p.requestedSchema, notes),
      );
    },
    sample: (params, ctx) => {
      const hints = (params.modelPreferences?.hints ?? [])
        .map((h) => h?.name)
        .filter((n): n is string => typeof n === 'string')
        .slice(0, 10)
        .map((n) => oneLine(n, 80));
      return seen(
        'sampling/createMessage',
        ctx,
        { modelHints: hints, maxTokens: params.maxTokens },
        () => inner.sample(params, ctx),
        (r: CreateMessageResult) => ({
          action: 'answered',
          model: oneLine(String(r.model ?? ''), 120),
          stopReason: typeof r.stopReason === 'string' ? oneLine(r.stopReason, 40) : undefined,
        }),
      );
    },
    listRoots: (ctx) =>
      seen(
        'roots/list',
        ctx,
        {},
        () => inner.listRoots(ctx),
        (r: ListRootsResult) => ({ action: 'answered', roots: Array.isArray(r.roots) ? r.roots.length : 0 }),
      ),
    urlDone: (params, ctx) => inner.urlDone?.(params, ctx) ?? Promise.resolve(),
  };
}

/** What is kept of a form's answer: its action and fields; its values when allowed; secret values only told, never kept. */
function formAnswer(r: ElicitResult, requestedSchema: unknown, notes: InputNotes): Partial<AnswerRecord> {
  if (r?.action !== 'accept' || !isPlainObject(r.content)) return { action: String(r?.action ?? 'answered') };
  const props = isPlainObject(requestedSchema) && isPlainObject(requestedSchema.properties) ? requestedSchema.properties : {};
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r.content)) {
    if (isSecretField(k, ownValue(props, k))) notes.secret(stringsIn(v));
    else if (notes.keepValues)
      put(values, k, typeof v === 'string' && v.length > MAX_KEPT_VALUE_CHARS ? `${v.slice(0, MAX_KEPT_VALUE_CHARS)}…` : v);
  }
  return { action: 'accept', fields: Object.keys(r.content), ...(notes.keepValues ? { values } : {}) };
}

function hostOf(url: unknown): string | undefined {
  try {
    return typeof url === 'string' ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}
