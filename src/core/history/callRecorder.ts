/**
 * Builds the history entry of one call while it runs: from the call's round-trip events (rounds,
 * keys, kinds, timings, how it ended) and from a wrapper around the call's input provider, which sees
 * what each input asked (the form's fields, the model hints) and what was answered. Values are kept
 * only when allowed, never for secret fields; the `requestState` is never seen here (events carry
 * only its length and fingerprint, and only its presence and length are kept).
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests".
 */
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import type { HostEvent } from '../log/events';
import { oneLine } from '../log/traceLog';
import type { InputContext, InputMethod, InputProvider, MrtrMethod } from '../mrtr/inputs';
import { isHostError } from '../util/errors';
import { isPlainObject, jsonSize, ownValue, put } from '../util/json';
import type { AnswerRecord, AskedField, CallRecord, CallStatus, InputRecord, RoundRecord } from './callRecord';
import { isSecretField, scrubSecrets, secretKeys, stringsIn } from './secrets';

/** Largest result (JSON text, UTF-16 code units) kept in an entry; a larger one is noted, not kept. */
export const MAX_KEPT_RESULT_CHARS = 256_000;
/** Largest arguments object (JSON text) kept for Run Again. */
export const MAX_KEPT_ARGUMENTS_CHARS = 64_000;
/** Longest single value kept of what a person typed (when values are kept at all). */
export const MAX_KEPT_VALUE_CHARS = 2_000;

/** Who answered an input, for the history (`you`, `workspace folders`, `saved answers`...). */
export type AnsweredBy = (method: InputMethod, ctx: InputContext) => string;

/** What the recorder is told before the call starts. */
export interface CallRecorderOptions {
  id: string;
  server: string;
  method: MrtrMethod;
  target: string;
  /** The call's params: `arguments` of a tool or prompt are kept (secret ones left out). */
  params: Record<string, unknown>;
  /** The tool's `inputSchema` (its secret properties are left out of the kept arguments). */
  argumentsSchema?: unknown;
  /** Keep the values typed into forms (secret fields never). Off by default. */
  keepValues?: boolean;
  answeredBy?: AnsweredBy;
  /** Told each secret value as soon as it is given (the log masks them: `SecretMask`). */
  onSecrets?: (values: string[]) => void;
  /** Clock (ms since the epoch), for tests. */
  now?: () => number;
}

const DEFAULT_BY: AnsweredBy = (method) => (method === 'elicitation/create' ? 'you' : method === 'sampling/createMessage' ? 'you (reviewed)' : 'workspace folders');

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
      return { key: oneLine(key, 100), label: oneLine(typeof p.title === 'string' && p.title ? p.title : key, 100), type: oneLine(fieldType(p), 40), required: required.has(key), secret: isSecretField(key, p) };
    });
}

/** The history entry of one call, as it runs. */
export class CallRecorder {
  private readonly rounds: RoundRecord[] = [];
  private readonly secrets: string[] = [];
  private readonly started: number;
  private totals = { totalMs: 0, waitingMs: 0 };
  private ended?: { status: CallStatus; error?: string };
  private readonly kept: Pick<CallRecord, 'arguments' | 'omittedArguments' | 'resultNote'> = {};

  constructor(private readonly o: CallRecorderOptions) {
    this.started = (o.now ?? Date.now)();
    this.keepArguments();
  }

  /** The history id of the entry. */
  get id(): string {
    return this.o.id;
  }

  /** The call's round-trip events (pass every event of the call; others are ignored). */
  readonly onEvent = (e: HostEvent): void => {
    if (!('flowId' in e)) return;
    switch (e.kind) {
      case 'inputRequired':
        this.rounds.push({ round: e.round, legMs: Math.round(e.legMs), state: e.state.present ? { present: true, length: e.state.length } : { present: false }, inputs: e.inputs.map((i) => ({ key: i.key, method: i.method })) });
        break;
      case 'answer': {
        const input = this.input(e.round, e.key, e.inputMethod);
        input.answer = { ...input.answer, action: input.answer?.action ?? e.action, by: input.answer?.by ?? 'host', waitedMs: Math.round(e.waitedMs) };
        break;
      }
      case 'complete':
        this.totals = { totalMs: e.totalMs, waitingMs: e.waitingMs };
        this.ended = { status: e.isError ? 'toolError' : 'complete' };
        break;
      case 'error':
        this.totals = { totalMs: e.totalMs, waitingMs: e.waitingMs };
        this.ended = { status: e.errorKind === 'cancelled' ? 'cancelled' : 'error', error: e.message };
        break;
    }
  };

  /**
   * `inner`, seen by the recorder: what each input asks and how it is answered are noted (values only
   * as allowed). Capabilities and answers are `inner`'s, unchanged.
   */
  provider(inner: InputProvider): InputProvider {
    const by = this.o.answeredBy ?? DEFAULT_BY;
    const seen = <T>(method: InputMethod, ctx: InputContext, ask: Partial<InputRecord>, run: () => Promise<T>, answered: (r: T) => Partial<AnswerRecord>): Promise<T> => {
      const input = this.input(ctx.round.round, ctx.key, method);
      Object.assign(input, ask);
      const started = Date.now();
      return run().then(
        (r) => {
          input.answer = { action: input.answer?.action ?? 'answered', waitedMs: input.answer?.waitedMs ?? Date.now() - started, ...answered(r), by: by(method, ctx) };
          return r;
        },
        (e: unknown) => {
          input.answer = { action: isHostError(e, 'declined') ? 'decline' : isHostError(e, 'cancelled') ? 'cancel' : 'failed', by: by(method, ctx), waitedMs: Date.now() - started };
          throw e;
        },
      );
    };
    return {
      get capabilities() {
        return inner.capabilities;
      },
      elicit: (params, ctx) => {
        const p = params as unknown as Record<string, unknown>;
        const url = p.mode === 'url';
        const ask: Partial<InputRecord> = { mode: url ? 'url' : 'form', message: typeof p.message === 'string' ? oneLine(p.message, 500) : undefined };
        if (url) ask.urlHost = hostOf(p.url);
        else ask.fields = askedFields(p.requestedSchema);
        return seen('elicitation/create', ctx, ask, () => inner.elicit(params, ctx), (r: ElicitResult) => this.formAnswer(r, p.requestedSchema));
      },
      sample: (params, ctx) => {
        const hints = (params.modelPreferences?.hints ?? []).map((h) => h?.name).filter((n): n is string => typeof n === 'string').slice(0, 10).map((n) => oneLine(n, 80));
        return seen('sampling/createMessage', ctx, { modelHints: hints, maxTokens: params.maxTokens }, () => inner.sample(params, ctx), (r: CreateMessageResult) => ({ action: 'answered', model: oneLine(String(r.model ?? ''), 120), stopReason: typeof r.stopReason === 'string' ? oneLine(r.stopReason, 40) : undefined }));
      },
      listRoots: (ctx) => seen('roots/list', ctx, {}, () => inner.listRoots(ctx), (r: ListRootsResult) => ({ action: 'answered', roots: Array.isArray(r.roots) ? r.roots.length : 0 })),
    };
  }

  /**
   * The entry, once the call ended.
   * @param result the complete result, when there is one
   * @param era the era the server spoke
   */
  finish(result: Record<string, unknown> | undefined, era?: 'modern' | 'legacy', failure?: { kind: string; message: string }): CallRecord {
    const ended = this.ended ?? (failure ? { status: (failure.kind === 'cancelled' ? 'cancelled' : 'error') as CallStatus, error: failure.message } : { status: 'complete' as CallStatus });
    const record: CallRecord = {
      id: this.o.id,
      server: this.o.server,
      method: this.o.method,
      target: this.o.target,
      ...(this.kept.arguments && this.scrubbed(this.kept.arguments) ? { arguments: this.scrubbed(this.kept.arguments) } : {}),
      ...(this.kept.omittedArguments?.length ? { omittedArguments: this.kept.omittedArguments } : {}),
      ...(era ? { era } : {}),
      startedAt: this.started,
      totalMs: Math.round(this.totals.totalMs),
      waitingMs: Math.round(this.totals.waitingMs),
      status: ended.status,
      ...(ended.error ? { error: scrubSecrets(oneLine(ended.error, 500), this.secrets) } : {}),
      rounds: this.rounds,
    };
    if (result) {
      const size = jsonSize(result);
      const kept = size <= MAX_KEPT_RESULT_CHARS ? this.scrubbed(result) : undefined;
      if (kept) record.result = kept;
      else if (size === Number.POSITIVE_INFINITY || size <= MAX_KEPT_RESULT_CHARS) record.resultNote = 'the result was nested too deeply to keep; run the call again to see it';
      else record.resultNote = `the result (${(size / 1_000_000).toFixed(1)} million characters) was too large to keep; run the call again to see it`;
    }
    if (this.kept.resultNote) record.resultNote = [this.kept.resultNote, record.resultNote].filter(Boolean).join('; ');
    return record;
  }

  private secret(values: string[]): void {
    this.secrets.push(...values);
    this.o.onSecrets?.(values);
  }

  /** `v` with the call's secrets scrubbed, or `undefined` when it nests too deeply to walk. */
  private scrubbed<T>(v: T): T | undefined {
    try {
      return scrubSecrets(v, this.secrets);
    } catch {
      return undefined;
    }
  }

  private keepArguments(): void {
    const args = this.o.params.arguments;
    if (this.o.method === 'resources/read' || !isPlainObject(args)) return;
    const fromSchema = secretKeys(this.o.argumentsSchema);
    const omitted: string[] = [];
    const kept: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(args)) {
      if (fromSchema.has(k) || isSecretField(k, undefined)) {
        omitted.push(k);
        this.secret(stringsIn(v));
      } else put(kept, k, v);
    }
    if (omitted.length) this.kept.omittedArguments = omitted;
    if (jsonSize(kept) <= MAX_KEPT_ARGUMENTS_CHARS) this.kept.arguments = kept;
    else this.kept.resultNote = 'the arguments were too large to keep';
  }

  private formAnswer(r: ElicitResult, requestedSchema: unknown): Partial<AnswerRecord> {
    if (r?.action !== 'accept' || !isPlainObject(r.content)) return { action: String(r?.action ?? 'answered') };
    const props = isPlainObject(requestedSchema) && isPlainObject(requestedSchema.properties) ? requestedSchema.properties : {};
    const values: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r.content)) {
      if (isSecretField(k, ownValue(props, k))) this.secret(stringsIn(v));
      else if (this.o.keepValues) put(values, k, typeof v === 'string' && v.length > MAX_KEPT_VALUE_CHARS ? `${v.slice(0, MAX_KEPT_VALUE_CHARS)}…` : v);
    }
    return { action: 'accept', fields: Object.keys(r.content), ...(this.o.keepValues ? { values } : {}) };
  }

  private input(round: number, key: string, method: InputMethod): InputRecord {
    let r = this.rounds.find((x) => x.round === round);
    if (!r) this.rounds.push((r = { round, legMs: 0, state: { present: false }, inputs: [] }));
    let input = r.inputs.find((i) => i.key === key);
    if (!input) r.inputs.push((input = { key, method }));
    return input;
  }
}

function hostOf(url: unknown): string | undefined {
  try {
    return typeof url === 'string' ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}


