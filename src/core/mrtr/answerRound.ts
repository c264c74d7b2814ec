/**
 * Gathering every answer of one MRTR round, concurrently, for the driver (`driver.ts`).
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests": every entry of `inputRequests` is answered
 * before the retry, under the same keys, in the server's order; a client answers only what it declared.
 */
import type { ServerConnection } from '../connection/serverConnection';
import { isPromiseLike, onAbort, watchAbort, type Awaitable } from '../util/async';
import { HostError, cancellation } from '../util/errors';
import { askProvider, undeclaredInput } from '../inputs/answerInput';
import { checkAnswer, type InputAnswer } from '../inputs/answers';
import type { InputContext, InputProvider, InputRequestEntry, RoundInfo } from '../inputs/inputProvider';

/** Called once per input, as soon as its checked answer is in (`last`: the round's last one). */
export type AnswerListener = (entry: InputRequestEntry, answer: InputAnswer, last: boolean) => void;

/**
 * The answering of one call's rounds. The abort listeners are set once per call, not per round (the
 * hot path, docs/architecture.md):
 * the call's signal fails the round waiting at that moment, and a loss of the connection aborts the
 * call only while a round waits (a loss during a leg is that leg's error).
 */
export class RoundAnswering {
  /** Fails the round in progress; `undefined` between rounds. */
  private failPending?: (e: unknown) => void;
  /** The connection's signal followed, and how to stop following it (a reconnect gives a new one). */
  private lost?: AbortSignal;
  private unfollowLost = noop;
  /** Removes the listener on the call's signal; `undefined` before the first round. */
  private stopAbort?: () => void;

  /**
   * @param callAbort the call's one controller: its signal is every input's `ctx.signal`. It is not
   *   aborted on success: a UI kept open across rounds (one panel per call) stays open.
   */
  constructor(
    private readonly conn: Pick<ServerConnection, 'name' | 'lostSignal' | 'checkFormContent'>,
    private readonly callAbort: AbortController,
  ) {}

  /**
   * Answer every input of `round`. If one input fails (declined sampling, no answer, invalid answer,
   * server gone), the call's controller is aborted so the other inputs' UI closes, and the round fails.
   * An input of a capability the host did not declare fails the round before anything is asked.
   * Answers a provider has at hand (roots from the workspace folders) are taken in the same turn: when
   * every answer was, the round's answers are returned as they are, not as a promise (the driver then
   * writes the retry without a microtask turn, in which a transport's own work would run first).
   *
   * @returns the answers by key, exactly the keys the server asked, in its order: as they are when every
   *   provider answered at once, else a promise of them
   * @throws HostError `protocol` for an input of a capability the host did not declare or an invalid
   *   answer; what the provider throws; the call signal's reason (or HostError `cancelled`) once it
   *   aborts, even if a provider ignores its signal. A failure found while the inputs are asked is
   *   thrown; a later one (an awaited answer, an abort while waiting) rejects the returned promise.
   */
  answer(provider: InputProvider, round: RoundInfo, onAnswer: AnswerListener): Awaitable<Record<string, InputAnswer>> {
    const { conn, callAbort } = this;
    const signal = callAbort.signal;
    const inputs = round.inputs;
    const caps = provider.capabilities;
    const checkFormContent = conn.checkFormContent;
    // A Map: server-chosen keys such as "__proto__" must stay plain keys.
    const answers = new Map<string, InputAnswer>();
    let left = inputs.length;
    // Rejects the round's promise once an answer is awaited; until then a failure is kept and thrown.
    let rejectAwaited: ((e: unknown) => void) | undefined;
    let failure: { error: unknown } | undefined;
    const fail = (e: unknown) => {
      if (this.failPending !== fail) return;
      this.failPending = undefined;
      // Close the other inputs' UI: this round cannot be sent.
      callAbort.abort(e);
      if (rejectAwaited) rejectAwaited(e);
      else failure = { error: e };
    };
    // Records a checked answer; true once it was the round's last.
    const take = (entry: InputRequestEntry, raw: unknown): boolean => {
      const answer = checkAnswer(entry, raw, checkFormContent);
      answers.set(entry.key, answer);
      onAnswer(entry, answer, left === 1);
      return --left === 0;
    };
    const all = () => Object.fromEntries(inputs.map((e) => [e.key, answers.get(e.key)!]));
    this.failPending = fail;
    if (signal.aborted) fail(cancellation(signal, 'cancelled'));
    else {
      // Even if a provider ignores its signal, the round ends when the call's signal aborts.
      this.stopAbort ??= onAbort(signal, () => this.failPending?.(cancellation(signal, 'cancelled')));
      this.followLost();
    }
    // Nothing is asked (no UI shown) in a round the host cannot answer whole.
    for (const entry of inputs) {
      if (failure) break;
      const undeclared = undeclaredInput(entry, caps);
      if (undeclared)
        fail(new HostError('protocol', `${conn.name} asked for ${undeclared} ("${entry.key}"), a capability this host did not declare`));
    }
    // Asked in the server's order; the answers awaited are collected, those at hand taken at once.
    const awaited: [InputRequestEntry, Promise<unknown>][] = [];
    for (const entry of inputs) {
      if (failure) break;
      const ctx: InputContext = { round, key: entry.key, signal };
      try {
        // A provider that throws rather than rejects fails the round the same way.
        const asked = askProvider(provider, entry, ctx);
        // A thenable that is not a promise is made one: it settles once, and its `then` cannot throw here.
        if (isPromiseLike(asked)) awaited.push([entry, Promise.resolve(asked)]);
        else take(entry, asked);
      } catch (e) {
        fail(e);
      }
    }
    if (failure) {
      // What was already asked may still settle: it is not the round's any more.
      for (const [, asked] of awaited) asked.then(undefined, noop);
      throw failure.error;
    }
    if (awaited.length === 0) {
      this.failPending = undefined;
      return all();
    }
    return new Promise((resolve, reject) => {
      rejectAwaited = reject;
      for (const [entry, asked] of awaited) {
        asked.then((raw) => {
          if (this.failPending !== fail) return;
          try {
            if (!take(entry, raw)) return;
          } catch (e) {
            return fail(e);
          }
          this.failPending = undefined;
          resolve(all());
        }, fail);
      }
    });
  }

  /** The call ended: remove the listeners. */
  dispose(): void {
    this.failPending = undefined;
    this.stopAbort?.();
    this.unfollowLost();
  }

  /** Follow the connection's current lost signal (once per connection; at once when it already aborted). */
  private followLost(): void {
    const lost = this.conn.lostSignal;
    if (lost === this.lost) return;
    this.unfollowLost();
    this.lost = lost;
    this.unfollowLost = watchAbort(lost, () => {
      if (this.failPending) this.callAbort.abort(lost.reason);
    });
  }
}

function noop(): void {}
