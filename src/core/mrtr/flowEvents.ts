/**
 * The round-trip events of one call (what the log shows, one per leg and per answer). The driver
 * holds a `FlowEvents` only when someone listens and calls it as `events?.retry(...)`, so with no
 * listener no event, digest or key list is ever built. A listener that throws never breaks the call.
 *
 * Values that may be secret (form content, `requestState`) never appear: only keys, lengths and
 * fingerprints (docs/field-cases.md, F9).
 */
import type { HostEventListener, RoundTripEvent, StateDigest } from '../log/events';
import { fingerprint } from '../log/fingerprint';
import type { LegRecord } from '../transport/legResult';
import { answerAction, summarizeAnswer, type InputAnswer } from '../inputs/answers';
import type { InputRequestEntry, MrtrMethod } from '../inputs/inputProvider';

/** What every event of a call carries. */
export interface FlowIdentity {
  flowId: number;
  server: string;
  method: MrtrMethod;
  target: string;
  /** The call's history entry, when the host keeps one. */
  historyId?: string;
}

/** The `requestState` a leg carries: present or not (an empty string is present). */
export interface CarriedState {
  has: boolean;
  value?: string;
}

/** A `requestState` as the log may show it: presence, length in UTF-16 code units, fingerprint. */
export function digest(hasState: boolean, state?: string): StateDigest {
  return hasState ? { present: true, length: state!.length, fingerprint: fingerprint(state!) } : { present: false };
}

/** Times of the call at its end, for `complete` and `error`. */
interface Totals {
  readonly totalMs: number;
  readonly waitingMs: number;
}

/** Builds and sends the events of one call to its listener; one method per event kind. */
export class FlowEvents {
  // The identity's fields, copied once: every event literal names them (an object spread `{...flow}`
  // per event costs several times the whole literal; see test/bench).
  private readonly flowId: number;
  private readonly server: string;
  private readonly method: MrtrMethod;
  private readonly target: string;
  private readonly historyId: string | undefined;
  /** A held answer event, sent before the next event (see {@link answer}). */
  private held?: () => void;

  constructor(
    flow: FlowIdentity,
    private readonly listener: HostEventListener,
  ) {
    ({ flowId: this.flowId, server: this.server, method: this.method, target: this.target, historyId: this.historyId } = flow);
  }

  /** The original request was written (round 0). */
  request(id: string | number | undefined): void {
    this.emit({
      flowId: this.flowId,
      server: this.server,
      method: this.method,
      target: this.target,
      historyId: this.historyId,
      round: 0,
      kind: 'request',
      id,
    });
  }

  /** Retry `round` was written: a new id, this round's answer keys, and whether `requestState` went out exactly as received. */
  retry(
    round: number,
    leg: Pick<LegRecord, 'id' | 'sentParams'>,
    previousId: string | number | undefined,
    inputResponses: Record<string, InputAnswer> | undefined,
    state: CarriedState,
    delayMs: number,
  ): void {
    const sent = leg.sentParams ?? {};
    const echoExact = state.has ? sent.requestState === state.value : !('requestState' in sent);
    this.emit({
      flowId: this.flowId,
      server: this.server,
      method: this.method,
      target: this.target,
      historyId: this.historyId,
      round,
      kind: 'retry',
      id: leg.id,
      previousId,
      keys: Object.keys(inputResponses ?? {}),
      state: digest(state.has, state.value),
      echoExact,
      delayMs,
    });
  }

  /** The server answered `input_required`, opening round `round`. */
  inputRequired(
    round: number,
    id: string | number | undefined,
    inputs: readonly InputRequestEntry[],
    hasState: boolean,
    state: string | undefined,
    legMs: number,
  ): void {
    this.emit({
      flowId: this.flowId,
      server: this.server,
      method: this.method,
      target: this.target,
      historyId: this.historyId,
      round,
      kind: 'inputRequired',
      id,
      inputs: inputs.map(({ key, method }) => ({ key, method })),
      state: digest(hasState, state),
      legMs,
    });
  }

  /**
   * One input of the round was answered (`waitStarted`: when the round started waiting, ms since the
   * epoch). With `hold` (the round's last answer: its retry is written at once), the event is built and
   * sent just before the call's next event, off the hot path (docs/architecture.md).
   */
  answer(round: number, entry: InputRequestEntry, answer: InputAnswer, waitStarted: number, hold = false): void {
    const waitedMs = Date.now() - waitStarted;
    const send = () =>
      this.emit({
        flowId: this.flowId,
        server: this.server,
        method: this.method,
        target: this.target,
        historyId: this.historyId,
        round,
        kind: 'answer',
        key: entry.key,
        inputMethod: entry.method,
        action: answerAction(entry, answer),
        summary: summarizeAnswer(entry, answer),
        waitedMs,
      });
    if (hold) this.held = send;
    else send();
  }

  /** Something the server did that the host tolerates (a missing `resultType`). */
  warning(round: number, id: string | number | undefined, message: string): void {
    this.emit({
      flowId: this.flowId,
      server: this.server,
      method: this.method,
      target: this.target,
      historyId: this.historyId,
      round,
      kind: 'warning',
      id,
      message,
    });
  }

  /** The complete result arrived. */
  complete(round: number, id: string | number | undefined, legMs: number, totals: Totals, isError: boolean): void {
    this.emit({
      flowId: this.flowId,
      server: this.server,
      method: this.method,
      target: this.target,
      historyId: this.historyId,
      round,
      kind: 'complete',
      id,
      legMs,
      totalMs: totals.totalMs,
      waitingMs: totals.waitingMs,
      isError,
    });
  }

  /** The call failed (`id`: its last leg's). */
  error(round: number, id: string | number | undefined, err: { kind: string; code?: number; message: string }, totals: Totals): void {
    this.emit({
      flowId: this.flowId,
      server: this.server,
      method: this.method,
      target: this.target,
      historyId: this.historyId,
      round,
      kind: 'error',
      id,
      errorKind: err.kind,
      code: err.code,
      message: err.message,
      totalMs: totals.totalMs,
      waitingMs: totals.waitingMs,
    });
  }

  private emit(e: RoundTripEvent): void {
    const held = this.held;
    if (held) {
      this.held = undefined;
      held();
    }
    try {
      this.listener(e);
    } catch {
      /* never let a listener break the call */
    }
  }
}
