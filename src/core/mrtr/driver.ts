/**
 * The MRTR driver: sends a `tools/call`, `prompts/get` or `resources/read`, and while the server
 * answers `input_required`, gathers the inputs from the {@link InputProvider} and retries, until a
 * complete result, an error, the round limit, the time limit or cancellation.
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests". Client rules implemented here (each has a test):
 * 1. every entry of `inputRequests` is answered before retrying; a state-only round is retried
 *    after a pause (never a spin);
 * 2. the retry is a new request (new JSON-RPC id) with the original params, `inputResponses` under
 *    the same keys, and `requestState` byte for byte as received;
 * 3. no `requestState` key when the server sent none; the state is never parsed or changed;
 * 4. only this round's answers are sent, only on this call's retry;
 * 5. the host bounds the loop (rounds, time) and says why it stopped.
 */
import type { ServerConnection } from '../connection/serverConnection';
import { answerRound } from './answerRound';
import { describeAnswer, type InputAnswer } from './answers';
import { HostError, errorMessage } from '../util/errors';
import { AbortLinks, abortableDelay } from '../util/async';
import type { HostEventListener, RoundTripEvent, StateDigest } from '../log/events';
import { fingerprint } from '../log/fingerprint';
import { parseInputRequired } from './inputRequired';
import { MRTR_METHODS, type InputProvider, type MrtrMethod, type RoundInfo } from './inputs';

/** Default number of retries allowed for one call. */
export const DEFAULT_MAX_ROUNDS = 10;
/** Default time limit for one call, counting only time not spent waiting for a person (ms). */
export const DEFAULT_CALL_TIMEOUT_MS = 5 * 60_000;
/** Default time limit for one leg (ms). */
export const DEFAULT_LEG_TIMEOUT_MS = 60_000;
/** First pause before retrying a state-only round (ms); doubles for each consecutive one, capped. */
export const STATE_ONLY_PACING_MS = 250;
const STATE_ONLY_PACING_MAX_MS = 4_000;

/** Prefix of `_meta` keys reserved for the protocol; callers may not set them (field case F11). */
export const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

/** Options of one call. All optional. */
export interface RoundTripOptions {
  /** Who answers this call's inputs; defaults to the connection's provider. */
  provider?: InputProvider;
  /** Retries allowed (default 10). A complete result on the last allowed retry is kept. */
  maxRounds?: number;
  /** Time limit for the whole call in ms, not counting time spent in the provider (a person answering). */
  timeoutMs?: number;
  /** Time limit of one leg in ms (default 60000). */
  legTimeoutMs?: number;
  /** Cancels the call at any point: during a leg, while inputs are pending, or while pacing. */
  signal?: AbortSignal;
  /** Receives this call's round-trip events (in addition to nothing else: the caller routes them). */
  onEvent?: HostEventListener;
  /** Progress notifications for this call (the SDK gives each leg a unique progressToken). */
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** Base pause before a state-only retry, ms (default 250; tests may lower it). */
  statePacingMs?: number;
}

/** The outcome of a successful call. */
export interface RoundTripResult {
  /** The complete result (as received; `resultType` filled in when the server omitted it). */
  result: Record<string, unknown>;
  flowId: number;
  /** Number of retries made. */
  rounds: number;
  /** Wall time of the whole call, ms. */
  totalMs: number;
  /** Time spent waiting for the provider (a person), ms. */
  waitingMs: number;
}

let nextFlowId = 1;

function digest(hasState: boolean, state?: string): StateDigest {
  return hasState ? { present: true, length: state!.length, fingerprint: fingerprint(state!) } : { present: false };
}

/** The target of a call for display: tool/prompt name, or resource URI. */
export function targetOf(method: MrtrMethod, params: Record<string, unknown>): string {
  const v = method === 'resources/read' ? params.uri : params.name;
  return typeof v === 'string' ? v : '?';
}

/**
 * The params every leg of a call repeats: the caller's params without `inputResponses`/`requestState`
 * and without reserved `_meta` keys (the SDK adds the protocol envelope itself).
 */
export function originalParams(params: Record<string, unknown>, dropProgressToken: boolean): Record<string, unknown> {
  const { inputResponses: _r, requestState: _s, _meta, ...rest } = params;
  if (_meta && typeof _meta === 'object' && !Array.isArray(_meta)) {
    const kept = Object.fromEntries(
      Object.entries(_meta as Record<string, unknown>).filter(([k]) => !k.startsWith(RESERVED_META_PREFIX) && !(dropProgressToken && k === 'progressToken')),
    );
    if (Object.keys(kept).length) return { ...rest, _meta: kept };
  }
  return rest;
}

/**
 * Run one MRTR call to completion.
 *
 * @param conn the server's connection (connected on demand)
 * @param method `tools/call` | `prompts/get` | `resources/read`
 * @param params the request params (e.g. `{name, arguments}` or `{uri}`), optionally with `_meta`
 * @returns the complete result with round and timing figures
 * @throws HostError: `usage` (not an MRTR method), `server` (JSON-RPC error, `code` set), `protocol`
 *   (malformed result, unknown resultType, invalid answer), `connection`, `declined`, `missingAnswer`,
 *   `roundLimit`, `timeLimit`, `cancelled`
 */
export async function callWithRoundTrips(
  conn: ServerConnection,
  method: MrtrMethod,
  params: Record<string, unknown>,
  options: RoundTripOptions = {},
): Promise<RoundTripResult> {
  if (!(MRTR_METHODS as readonly string[]).includes(method)) {
    throw new HostError('usage', `${method} cannot be called with round trips; only ${MRTR_METHODS.join(', ')} can`);
  }
  const provider = options.provider ?? conn.provider;
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const legTimeoutMs = options.legTimeoutMs ?? DEFAULT_LEG_TIMEOUT_MS;
  const pacing = options.statePacingMs ?? STATE_ONLY_PACING_MS;
  const flowId = nextFlowId++;
  const target = targetOf(method, params);
  const base = { flowId, server: conn.name, method, target };
  const original = originalParams(params, !!options.onProgress);
  // Events are built only when someone listens: `emit?.({...})` does not evaluate its argument otherwise.
  const listener = options.onEvent;
  const emit = listener
    ? (e: RoundTripEvent) => {
        try {
          listener(e);
        } catch {
          /* never let a listener break the call */
        }
      }
    : undefined;
  // One controller for the whole call, not one per leg or round (an AbortSignal costs 2-3 µs to
  // create, and every reason to abort a leg or a round ends the call anyway): aborted by the caller's
  // signal, a leg's time limit, a failed input of a round, or the connection's loss during a round.
  // `cancelled()` tells the caller's cancellation apart from the others.
  const callAbort = new AbortController();
  const callSignal = callAbort.signal;
  const scope = new AbortLinks();
  if (options.signal) scope.follow(options.signal, callAbort);
  const cancelled = () => options.signal?.aborted === true;
  const started = Date.now();
  let waitingMs = 0;
  let round = 0;
  let stateOnlyStreak = 0;
  let delayMs = 0;
  let lastId: string | number | undefined;
  // What the next leg carries: only this round's answers and state (rule 4).
  let inputResponses: Record<string, InputAnswer> | undefined;
  let state: { has: boolean; value?: string } = { has: false };

  const activeMs = () => Date.now() - started - waitingMs;
  const fail = (e: unknown): never => {
    const err = e instanceof HostError ? e : new HostError('protocol', errorMessage(e));
    emit?.({ ...base, round, kind: 'error', id: lastId, errorKind: err.kind, code: err.code, message: err.message, totalMs: Date.now() - started, waitingMs });
    throw err;
  };
  const endFlow = conn.beginFlow({ flowId, method, target });
  try {
    for (;;) {
      if (cancelled()) fail(new HostError('cancelled', `${method} ${target} was cancelled`));
      const remaining = timeoutMs - activeMs();
      if (remaining <= 0) fail(timeLimitError());
      const legParams: Record<string, unknown> = { ...original };
      if (inputResponses) legParams.inputResponses = inputResponses;
      if (state.has) legParams.requestState = state.value;
      // A leg is bounded by the call's remaining active time; a person's time is never counted.
      const legLimit = Math.min(legTimeoutMs, remaining);
      const legStarted = Date.now();
      const timer = setTimeout(
        () =>
          callAbort.abort(
            legLimit === remaining
              ? timeLimitError(unreadableSince(legStarted))
              : new HostError('timeLimit', `${method} ${target}: the server did not answer within ${legTimeoutMs} ms${unreadableSince(legStarted)}`),
          ),
        legLimit,
      );
      let outcome;
      const previousId = lastId;
      // Announce the leg the moment it is written, with the id the SDK gave it.
      const onSent = (leg: { id?: string | number; sentParams?: Record<string, unknown> }) => {
        lastId = leg.id;
        if (round === 0) return emit?.({ ...base, round, kind: 'request', id: leg.id });
        const sent = leg.sentParams ?? {};
        const echoExact = state.has ? sent.requestState === state.value : !('requestState' in sent);
        emit?.({ ...base, round, kind: 'retry', id: leg.id, previousId, keys: Object.keys(inputResponses ?? {}), state: digest(state.has, state.value), echoExact, delayMs });
      };
      try {
        outcome = await conn.sendLeg(method, legParams, { signal: callSignal, timeoutMs: legLimit + 1000, onProgress: options.onProgress, onSent });
      } catch (e) {
        if (cancelled()) fail(new HostError('cancelled', `${method} ${target} was cancelled`));
        fail(e);
      } finally {
        clearTimeout(timer);
      }
      const { leg, result, inputRequired } = outcome!;
      const legMs = Date.now() - legStarted;
      if (leg.resultTypeMissing) {
        emit?.({ ...base, round, kind: 'warning', id: leg.id, message: `${conn.name} omitted resultType (2026-07-28 servers must send it); treated as complete` });
      }
      if (!inputRequired) {
        emit?.({ ...base, round, kind: 'complete', id: leg.id, legMs, totalMs: Date.now() - started, waitingMs, isError: result.isError === true });
        return { result, flowId, rounds: round, totalMs: Date.now() - started, waitingMs };
      }
      let parsed;
      try {
        parsed = parseInputRequired(result, `${method} ${target}`);
      } catch (e) {
        fail(e);
      }
      const { inputs, requestState, hasRequestState } = parsed!;
      emit?.({ ...base, round: round + 1, kind: 'inputRequired', id: leg.id, inputs: inputs.map(({ key, method }) => ({ key, method })), state: digest(hasRequestState, requestState), legMs });
      if (round >= maxRounds) {
        fail(new HostError('roundLimit', `${conn.name} still asked for input after ${maxRounds} round(s) of ${method} ${target}; the host stopped (limit: ${maxRounds})`));
      }
      round++;
      state = hasRequestState ? { has: true, value: requestState } : { has: false };
      if (inputs.length === 0) {
        // State-only round (e.g. load shedding): retry after a growing pause, never a spin.
        inputResponses = undefined;
        delayMs = Math.min(pacing * 2 ** stateOnlyStreak, STATE_ONLY_PACING_MAX_MS);
        stateOnlyStreak++;
        try {
          await abortableDelay(delayMs, callSignal);
        } catch {
          fail(new HostError('cancelled', `${method} ${target} was cancelled`));
        }
        continue;
      }
      stateOnlyStreak = 0;
      delayMs = 0;
      const roundInfo: RoundInfo = { ...base, round, inputs, era: conn.era ?? 'modern' };
      const waitStarted = Date.now();
      try {
        inputResponses = await answerRound(conn, provider, roundInfo, callAbort, scope, (entry, answer) =>
          emit?.({ ...base, round, kind: 'answer', key: entry.key, inputMethod: entry.method, ...describeAnswer(entry, answer), waitedMs: Date.now() - waitStarted }),
        );
      } catch (e) {
        waitingMs += Date.now() - waitStarted;
        if (cancelled()) fail(new HostError('cancelled', `${method} ${target} was cancelled while waiting for input`));
        fail(e);
      }
      waitingMs += Date.now() - waitStarted;
    }
  } finally {
    endFlow();
    scope.dispose();
  }

  function timeLimitError(cause = ''): HostError {
    return new HostError(
      'timeLimit',
      `${method} ${target} on ${conn.name} exceeded its time limit of ${timeoutMs} ms (time spent answering, ${waitingMs} ms, not counted)${cause}`,
    );
  }

  /** Why a leg may have had no answer: a message the server sent during it that could not be read. */
  function unreadableSince(legStarted: number): string {
    const u = conn.lastUnreadable;
    return u && u.at >= legStarted ? `; meanwhile ${conn.name} sent a message the host could not read (an answer that is not valid JSON-RPC is dropped): ${u.message.replace(/\s+/g, ' ').slice(0, 300)}` : '';
  }
}
