/**
 * The MRTR driver: sends a `tools/call`, `prompts/get` or `resources/read`, and while the server
 * answers `input_required`, gathers the inputs from the {@link InputProvider} and retries, until a
 * complete result, an error, the round limit, the time limit or cancellation.
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests". Client rules implemented here (each has a test):
 * 1. every entry of `inputRequests` is answered before retrying; a state-only round is retried at
 *    once (the spec allows it), and each further one in a row after a growing pause (never a spin);
 * 2. the retry is a new request (new JSON-RPC id) with the original params, `inputResponses` under
 *    the same keys, and `requestState` byte for byte as received;
 * 3. no `requestState` key when the server sent none; the state is never parsed or changed;
 * 4. only this round's answers are sent, only on this call's retry;
 * 5. the host bounds the loop (rounds, time) and says why it stopped.
 */
import type { ServerConnection } from '../connection/serverConnection';
import type { LegOutcome } from '../connection/session';
import type { LegRecord } from '../transport/legResult';
import type { HostEventListener } from '../log/events';
import { AbortLinks, abortableDelay, isPromiseLike } from '../util/async';
import { HostError, errorMessage, isHostError } from '../util/errors';
import { RoundAnswering } from './answerRound';
import type { InputAnswer } from '../inputs/answers';
import { CallClock, MAX_TIMER_MS } from './callClock';
import { FlowEvents, type CarriedState } from './flowEvents';
import { parseInputRequired, type ParsedInputRequired } from '../inputs/inputRequired';
import { MRTR_METHODS, type InputProvider, type MrtrMethod, type RoundInfo } from '../inputs/inputProvider';
import { isPlainObject } from '../util/json';
import { SignInNeeded } from '../oauth/challenge';
import { satisfyUrlElicitations, urlElicitationsOf } from './urlRequired';

/** Default number of retries allowed for one call. */
export const DEFAULT_MAX_ROUNDS = 10;
/** Default time limit for one call, counting only time not spent waiting for a person (ms). */
export const DEFAULT_CALL_TIMEOUT_MS = 5 * 60_000;
/** Default leg idle limit (ms): how long a leg may go without an answer or a progress notification. */
export const DEFAULT_LEG_IDLE_MS = 60_000;
/** Pause before the second state-only retry in a row (ms; the first goes at once); doubles for each further one, capped. */
export const STATE_ONLY_PACING_MS = 250;
const STATE_ONLY_PACING_MAX_MS = 4_000;

/** Prefix of `_meta` keys reserved for the protocol; callers may not set them (docs/field-cases.md, F11). */
export const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

/** Options of one call. All optional. */
export interface RoundTripOptions {
  /** Who answers this call's inputs; defaults to the connection's provider. */
  provider?: InputProvider;
  /** Retries allowed (default 10). A complete result on the last allowed retry is kept. */
  maxRounds?: number;
  /** Time limit for the whole call in ms, not counting time spent in the provider (a person answering). */
  timeoutMs?: number;
  /**
   * How long one leg may go without an answer or a `notifications/progress` from the server, ms
   * (default 60000; the time a person spends answering a pushed request is not counted). The call's
   * limit still holds: a leg kept alive by progress ends at it.
   */
  legIdleMs?: number;
  /** Cancels the call at any point: during a leg, while inputs are pending, or while pacing. */
  signal?: AbortSignal;
  /** Receives this call's round-trip events (in addition to nothing else: the caller routes them). */
  onEvent?: HostEventListener;
  /**
   * Progress notifications for this call (the SDK gives each leg a unique progressToken; without this
   * option no progress is asked for). Each one also starts the leg's idle limit over.
   */
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** Pause before the second state-only retry in a row, ms (default 250; the first goes at once; tests may lower it). */
  statePacingMs?: number;
  /** The call's flow id, minted by whoever starts the call ({@link newFlowId}); a new one when absent. */
  flowId?: number;
  /** The call's history entry, carried by its events (the log names it on the first and last line). */
  historyId?: string;
  /**
   * Client extensions this call's legs declare besides the connection's capabilities, by name (e.g.
   * `io.modelcontextprotocol/tasks`); on a 2026-07-28 connection only (spec: capabilities per request
   * in `_meta`); a 2025-era connection sends them nowhere.
   */
  extensions?: Record<string, object>;
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
  /**
   * True when the server answered a `tools/call` with a created task instead of the tool's result
   * (`result` is then the created task, as received: `core/tasks` follows it). The MRTR phase ends there.
   */
  createdTask?: boolean;
}

let lastFlowId = 0;

/**
 * A new call's flow id (a positive whole number, unique in this process): whoever starts a call mints
 * it and passes it in {@link RoundTripOptions.flowId}, so it knows the id before the first event.
 */
export function newFlowId(): number {
  return ++lastFlowId;
}

/** No `requestState` to carry. */
const NO_STATE: CarriedState = { has: false };

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
  if (isPlainObject(_meta)) {
    const kept = Object.fromEntries(
      Object.entries(_meta).filter(([k]) => !k.startsWith(RESERVED_META_PREFIX) && !(dropProgressToken && k === 'progressToken')),
    );
    if (Object.keys(kept).length) return { ...rest, _meta: kept };
  }
  return rest;
}

/** The `_meta` key of a 2026-07-28 request's client capabilities (spec: "Lifecycle", per-request `_meta`). */
const CLIENT_CAPABILITIES_META = `${RESERVED_META_PREFIX}clientCapabilities`;

/**
 * The legs' params with `extensions` declared in their per-request client capabilities (the
 * connection's capabilities, plus these): on a 2026-07-28 connection only, and only when there are some.
 */
function withExtensions(
  params: Record<string, unknown>,
  conn: ServerConnection,
  provider: InputProvider,
  extensions: Record<string, object> | undefined,
): Record<string, unknown> {
  if (!extensions || !Object.keys(extensions).length || conn.era === 'legacy') return params;
  const declared = provider.capabilities as Record<string, unknown>;
  const own = isPlainObject(declared.extensions) ? declared.extensions : {};
  const capabilities = { ...declared, extensions: { ...own, ...extensions } };
  const meta = isPlainObject(params._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [CLIENT_CAPABILITIES_META]: capabilities } };
}

/**
 * Run one MRTR call to completion.
 *
 * @param conn the server's connection (connected on demand)
 * @param method `tools/call` | `prompts/get` | `resources/read`
 * @param params the request params (e.g. `{name, arguments}` or `{uri}`), optionally with `_meta`
 * @returns the complete result with round and timing figures (or the created task, `createdTask` set)
 * @throws HostError: `usage` (not an MRTR method), `server` (JSON-RPC error, `code` set), `protocol`
 *   (malformed result, unknown resultType, invalid answer), `connection`, `declined`, `missingAnswer`,
 *   `roundLimit`, `timeLimit`, `cancelled`, `auth` / `authRequired` (a sign-in the server asked for failed)
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
  const pacing = options.statePacingMs ?? STATE_ONLY_PACING_MS;
  const flowId = options.flowId ?? newFlowId();
  const target = targetOf(method, params);
  const what = `${method} ${target}`;
  const flow = { flowId, server: conn.name, method, target, ...(options.historyId ? { historyId: options.historyId } : {}) };
  const original = withExtensions(originalParams(params, !!options.onProgress), conn, provider, options.extensions);
  const events = options.onEvent ? new FlowEvents(flow, options.onEvent) : undefined;
  const clock = new CallClock(conn, what, options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS, options.legIdleMs ?? DEFAULT_LEG_IDLE_MS);
  // One controller for the whole call, not one per leg or round (signals are not free on the hot path,
  // and every reason to abort a leg or a round ends the call anyway): aborted by the caller's signal,
  // a failed input of a round or of a pushed request, the connection's loss during a round, or the
  // leg's timer (the call's clock: the SDK's own timer of the request is never the one that fires).
  const callAbort = conn.callController();
  const expire = () => callAbort.abort(clock.expired);
  const userProgress = options.onProgress;
  const onProgress =
    userProgress &&
    ((p: { progress: number; total?: number; message?: string }) => {
      clock.activity();
      userProgress(p);
    });
  const links = new AbortLinks();
  if (options.signal) links.follow(options.signal, callAbort);
  const rounds = new RoundAnswering(conn, callAbort);
  // The caller's cancellation, told apart from the other reasons the call's signal aborts.
  const cancelled = (during = '') => (options.signal?.aborted ? new HostError('cancelled', `${what} was cancelled${during}`) : undefined);
  let round = 0;
  let stateOnlyStreak = 0;
  let delayMs = 0;
  let lastId: string | number | undefined;
  // What the next leg carries: only this round's answers and state (rule 4).
  let inputResponses: Record<string, InputAnswer> | undefined;
  let state = NO_STATE;
  const fail = (e: unknown): never => {
    const err = e instanceof HostError ? e : new HostError('protocol', errorMessage(e));
    events?.error(round, lastId, err, clock);
    throw err;
  };
  // Which limit a leg reached, and what the server sent meanwhile (the call's clock knows).
  const limitError = () => clock.expired ?? clock.legTimeoutError();
  // A pushed request (2025 era) of this call: a person answering it stops the clock; one the person
  // cancelled, or with no scripted answer, ends the call as the same input of a round would.
  let pushFailure: HostError | undefined;
  // A URLElicitationRequiredError is answered once per call: the request is then sent once more.
  let urlRetried = false;
  const endFlow = conn.beginFlow({
    flowId,
    method,
    target,
    signal: callAbort.signal,
    pause: () => clock.pause(),
    fail: (e) => {
      if (callAbort.signal.aborted) return;
      pushFailure = e;
      callAbort.abort(e);
    },
  });
  try {
    for (;;) {
      const stop = cancelled();
      if (stop) fail(stop);
      // A leg is bounded by its idle limit and the call's remaining active time; a person's time is never counted.
      if (!clock.startLeg(expire, true)) fail(clock.timeLimitError());
      const legParams: Record<string, unknown> = { ...original };
      if (inputResponses) legParams.inputResponses = inputResponses;
      if (state.has) legParams.requestState = state.value;
      const previousId = lastId;
      // Announce the leg the moment it is written, with the id the SDK gave it.
      const onSent = (leg: LegRecord) => {
        lastId = leg.id;
        clock.activity();
        if (round === 0) events?.request(leg.id);
        else events?.retry(round, leg, previousId, inputResponses, state, delayMs);
      };
      let outcome: LegOutcome;
      try {
        // The leg's limit is the call's clock, which can pause and start over; the SDK's timer of the
        // request is set past any limit. When the clock runs out it aborts the call and says which limit it was.
        outcome = await conn.sendLeg(method, legParams, {
          signal: callAbort.signal,
          timeoutMs: MAX_TIMER_MS,
          limitError,
          onProgress,
          onSent,
        });
      } catch (e) {
        clock.endLeg();
        if (pushFailure) return fail(pushFailure);
        // The leg's own words when it names the limit (e.g. "while connecting"), else the clock's.
        if (clock.expired) return fail(isHostError(e, 'timeLimit') ? e : clock.expired);
        if (e instanceof SignInNeeded && !cancelled()) {
          // The server refused the leg until the person signs in: sign in (a person's time, not
          // counted), then send the same leg again; the round, its answers and state are kept.
          const waitStarted = Date.now();
          try {
            await e.signIn(callAbort.signal);
          } catch (err) {
            // Counted before the failure is told: its accounting line says the person's time too.
            clock.addWaiting(waitStarted);
            return fail(cancelled(' while signing in') ?? err);
          }
          clock.addWaiting(waitStarted);
          continue;
        }
        const urls = urlRetried || cancelled() ? undefined : urlElicitationsOf(e);
        if (urls) {
          // The server needs URLs opened first (-32042): offered with the URL consent of any URL
          // elicitation (a person's time, not counted), then the same leg is sent once more.
          urlRetried = true;
          events?.warning(
            round,
            lastId,
            `${conn.name} needs ${urls.length} URL(s) opened first (URLElicitationRequiredError -32042); the request is sent once more after`,
          );
          const waitStarted = Date.now();
          try {
            const info = { flowId, server: flow.server, method, target, round, era: conn.era ?? 'modern' } as const;
            await satisfyUrlElicitations(conn, provider, urls, info, callAbort.signal);
          } catch (err) {
            // A declined or cancelled URL: the person's time is counted before the failure is told.
            clock.addWaiting(waitStarted);
            return fail(cancelled(' while waiting for input') ?? err);
          }
          clock.addWaiting(waitStarted);
          continue;
        }
        // A cancellation the leg already named (e.g. while connecting) is kept as it is.
        return fail(isHostError(e, 'cancelled') ? e : (cancelled() ?? e));
      }
      clock.endLeg();
      const { leg, result, inputRequired } = outcome;
      const legMs = clock.legMs;
      if (leg.resultTypeMissing)
        events?.warning(round, leg.id, `${conn.name} omitted resultType (2026-07-28 servers must send it); treated as complete`);
      if (!inputRequired) {
        events?.complete(round, leg.id, legMs, clock, result.isError === true);
        const task = outcome.task ? { createdTask: true } : {};
        return { result, flowId, rounds: round, totalMs: clock.totalMs, waitingMs: clock.waitingMs, ...task };
      }
      let parsed: ParsedInputRequired;
      try {
        parsed = parseInputRequired(result, what, conn.name);
      } catch (e) {
        return fail(e);
      }
      const { inputs, requestState, hasRequestState } = parsed;
      events?.inputRequired(round + 1, leg.id, inputs, hasRequestState, requestState, legMs);
      if (round >= maxRounds)
        fail(
          new HostError(
            'roundLimit',
            `${conn.name} still asked for input after ${maxRounds} round(s) of ${what}; the host stopped (limit: ${maxRounds})`,
          ),
        );
      round++;
      state = hasRequestState ? { has: true, value: requestState } : NO_STATE;
      if (inputs.length === 0) {
        // State-only round (e.g. load shedding): the first retry goes at once (spec: a client MAY
        // retry at once), each further one in a row after a growing pause, never a spin.
        inputResponses = undefined;
        delayMs = stateOnlyStreak === 0 ? 0 : Math.min(pacing * 2 ** (stateOnlyStreak - 1), STATE_ONLY_PACING_MAX_MS);
        stateOnlyStreak++;
        if (delayMs > 0)
          await abortableDelay(delayMs, callAbort.signal).catch(() => fail(new HostError('cancelled', `${what} was cancelled`)));
        continue;
      }
      stateOnlyStreak = 0;
      delayMs = 0;
      const roundInfo: RoundInfo = { flowId, server: flow.server, method, target, round, inputs, era: conn.era ?? 'modern' };
      const waitStarted = Date.now();
      try {
        const answered = rounds.answer(provider, roundInfo, (entry, answer, last) =>
          events?.answer(round, entry, answer, waitStarted, last),
        );
        // Answers at hand go on in this turn (a transport's own work queued meanwhile would run first).
        inputResponses = isPromiseLike(answered) ? await answered : answered;
      } catch (e) {
        clock.addWaiting(waitStarted);
        return fail(cancelled(' while waiting for input') ?? e);
      }
      clock.addWaiting(waitStarted);
    }
  } finally {
    clock.endLeg();
    endFlow();
    links.dispose();
    rounds.dispose();
  }
}
