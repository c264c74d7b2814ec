/**
 * Builds the history entry of one call while it runs: from the call's round-trip events (rounds,
 * keys, kinds, timings, how it ended) and from a wrapper around the call's input provider, which sees
 * what each input asked (the form's fields, the model hints) and what was answered. Values are kept
 * only when allowed, never for secret fields; the `requestState` is never seen here (events carry
 * only its length and fingerprint, and only its presence and length are kept).
 *
 * The parts: `recordingProvider.ts` (what each input asked and how it was answered) and
 * `keptContent.ts` (what is kept of the arguments and the result).
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests".
 */
import type { HostEvent } from '../log/events';
import { MAX_KEYS_IN_LINE } from '../log/traceLog';
import { jsonSize } from '../util/json';
import { oneLine } from '../util/shownText';
import type { InputMethod, InputProvider, MrtrMethod } from '../inputs/inputProvider';
import type { CallOrigin, CallRecord, CallStatus, InputRecord, RoundRecord } from './callRecord';
import { keptArguments, keptResult, scrubbed, type KeptArguments } from './keptContent';
import { DEFAULT_BY, recordingProvider, type AnsweredBy } from './recordingProvider';
import { scrubSecrets } from './secrets';

/** Longest `inputRequests` key kept, as the log shows it (a longer one is cut, and marked `keyCut`). */
export const MAX_KEPT_KEY_CHARS = 80;
/** Most rounds one entry keeps (the rest are counted in `roundsNotKept`). */
export const MAX_KEPT_ROUNDS = 20;
/** Most inputs one round of an entry keeps, as many as a log line names (the rest are counted in `inputsNotKept`). */
export const MAX_KEPT_INPUTS = MAX_KEYS_IN_LINE;
/** Largest JSON text of an entry's rounds together; the rounds past it are counted, not kept. */
export const MAX_KEPT_ROUNDS_CHARS = 200_000;

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
  /** Where the call was asked (none: not said in the entry). */
  from?: CallOrigin;
  /** Keep the values typed into forms (secret fields never). Off by default. */
  keepValues?: boolean;
  answeredBy?: AnsweredBy;
  /** Told each secret value as soon as it is given (the log masks them: `SecretMask`). */
  onSecrets?: (values: string[]) => void;
  /** Clock (ms since the epoch), for tests. */
  now?: () => number;
}

/** The history entry of one call, as it runs. */
export class CallRecorder {
  private readonly rounds: RoundRecord[] = [];
  /** The kept inputs by round and the server's own key (the record keeps the key cut). */
  private readonly inputs = new Map<string, InputRecord>();
  /** Inputs seen past the bounds (by round and key), and rounds past them: counted once each. */
  private readonly notKept = new Set<string>();
  private readonly roundsNotKept = new Set<number>();
  private readonly secrets: string[] = [];
  private readonly started: number;
  private totals = { totalMs: 0, waitingMs: 0 };
  private ended?: { status: CallStatus; error?: string };
  private readonly kept: KeptArguments;

  constructor(private readonly o: CallRecorderOptions) {
    this.started = (o.now ?? Date.now)();
    this.kept = keptArguments(o.method, o.params, o.argumentsSchema, (values) => this.secret(values));
  }

  /** The history id of the entry. */
  get id(): string {
    return this.o.id;
  }

  /** The call's round-trip events (pass every event of the call; others are ignored). */
  readonly onEvent = (e: HostEvent): void => {
    if (!('flowId' in e)) return;
    switch (e.kind) {
      case 'inputRequired': {
        const r = this.round(e.round);
        if (!r) break;
        r.legMs = Math.round(e.legMs);
        r.state = e.state.present ? { present: true, length: e.state.length } : { present: false };
        for (const i of e.inputs) this.input(e.round, i.key, i.method);
        break;
      }
      case 'answer': {
        const input = this.input(e.round, e.key, e.inputMethod);
        input.answer = {
          ...input.answer,
          action: input.answer?.action ?? e.action,
          by: input.answer?.by ?? 'host',
          waitedMs: Math.round(e.waitedMs),
        };
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
    return recordingProvider(inner, {
      input: (round, key, method) => this.input(round, key, method),
      secret: (values) => this.secret(values),
      keepValues: !!this.o.keepValues,
      answeredBy: this.o.answeredBy ?? DEFAULT_BY,
    });
  }

  /**
   * The entry, once the call ended.
   * @param result the complete result, when there is one
   * @param era the era the server spoke
   */
  finish(result: Record<string, unknown> | undefined, era?: 'modern' | 'legacy', failure?: { kind: string; message: string }): CallRecord {
    const ended =
      this.ended ??
      (failure
        ? { status: (failure.kind === 'cancelled' ? 'cancelled' : 'error') as CallStatus, error: failure.message }
        : { status: 'complete' as CallStatus });
    const args = this.kept.arguments && scrubbed(this.kept.arguments, this.secrets);
    const record: CallRecord = {
      id: this.o.id,
      server: this.o.server,
      method: this.o.method,
      target: this.o.target,
      ...(args ? { arguments: args } : {}),
      ...(this.kept.omittedArguments?.length ? { omittedArguments: this.kept.omittedArguments } : {}),
      ...(era ? { era } : {}),
      ...(this.o.from ? { from: this.o.from } : {}),
      startedAt: this.started,
      totalMs: Math.round(this.totals.totalMs),
      waitingMs: Math.round(this.totals.waitingMs),
      status: ended.status,
      ...(ended.error ? { error: scrubSecrets(oneLine(ended.error, 500), this.secrets) } : {}),
      ...this.keptRounds(),
      ...(result ? keptResult(result, this.secrets) : {}),
    };
    if (this.kept.resultNote) record.resultNote = [this.kept.resultNote, record.resultNote].filter(Boolean).join('; ');
    return record;
  }

  private secret(values: string[]): void {
    this.secrets.push(...values);
    this.o.onSecrets?.(values);
  }

  /** The rounds within {@link MAX_KEPT_ROUNDS_CHARS} (the first ones), and how many were not kept. */
  private keptRounds(): Pick<CallRecord, 'rounds' | 'roundsNotKept'> {
    let size = 0;
    let kept = 0;
    for (const r of this.rounds) {
      size += jsonSize(r);
      if (size > MAX_KEPT_ROUNDS_CHARS) break;
      kept++;
    }
    const notKept = this.roundsNotKept.size + this.rounds.length - kept;
    return { rounds: this.rounds.slice(0, kept), ...(notKept ? { roundsNotKept: notKept } : {}) };
  }

  /** Round `n`'s record, made when new; `undefined` past {@link MAX_KEPT_ROUNDS} (counted). */
  private round(n: number): RoundRecord | undefined {
    let r = this.rounds.find((x) => x.round === n);
    if (r) return r;
    if (this.rounds.length >= MAX_KEPT_ROUNDS) {
      this.roundsNotKept.add(n);
      return undefined;
    }
    this.rounds.push((r = { round: n, legMs: 0, state: { present: false }, inputs: [] }));
    return r;
  }

  /**
   * The record of input `key` in round `round` (made when new, its key cut as the log shows it). Past
   * the bounds it is counted and a record is still returned, but kept nowhere.
   */
  private input(round: number, key: string, method: InputMethod): InputRecord {
    const id = `${round}\u0000${key}`;
    const found = this.inputs.get(id);
    if (found) return found;
    const shown = oneLine(key, MAX_KEPT_KEY_CHARS);
    const input: InputRecord = { key: shown, method, ...(shown !== key ? { keyCut: true } : {}) };
    const r = this.round(round);
    if (!r) return input;
    if (r.inputs.length < MAX_KEPT_INPUTS) {
      r.inputs.push(input);
      this.inputs.set(id, input);
    } else if (!this.notKept.has(id)) {
      this.notKept.add(id);
      r.inputsNotKept = (r.inputsNotKept ?? 0) + 1;
    }
    return input;
  }
}
