/**
 * One round of a call as the round panel holds it: its inputs by `inputRequests` key, whether it is
 * shown, and the grace time after which it is shown even though some inputs have not arrived yet.
 *
 * Inputs of a round arrive one by one (`elicit`, `reviewSampling`, `showRoots`, all sharing one
 * `RoundInfo`). Elicitations and roots arrive at once; a sampling review comes later (the sampler
 * first chooses a model, one request per server at a time), so it holds its place as a placeholder:
 * the round never waits for it and it never waits for the round.
 */
import type { RoundInfo } from '../../core/inputs/inputProvider';
import { Placeholder } from './inputs/placeholder';
import type { PendingInput } from './inputs/pendingInput';

/** How long a round waits for its remaining inputs before it is shown anyway (ms). */
export const ROUND_GRACE_MS = 150;

/** Starts a timer; returns a function that clears it. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

/** One round's inputs by key, its shown/cancelled flags and its grace timer. */
export class RoundEntry {
  private readonly inputs = new Map<string, PendingInput>();
  /** Shown in the panel (complete, or its grace time passed). */
  shown = false;
  /** The person cancelled the round (Cancel, Escape, closed the panel): late inputs answer at once. */
  cancelled = false;
  private clearTimer?: () => void;

  /**
   * @param seq the panel's order of rounds (a higher one is newer)
   * @param newId a fresh panel-unique input id (for the placeholders)
   */
  constructor(
    readonly info: RoundInfo,
    readonly seq: number,
    newId: () => string,
  ) {
    for (const input of info.inputs)
      if (input.method === 'sampling/createMessage') this.inputs.set(input.key, new Placeholder(newId(), input.key, input.method));
  }

  /** True while some input of the round waits for the person. */
  get pending(): boolean {
    return [...this.inputs.values()].some((i) => i.pending);
  }

  /** Every input that reaches the panel at once (all but sampling reviews) has arrived. */
  get complete(): boolean {
    return this.info.inputs.every((input) => {
      const arrived = this.inputs.get(input.key);
      return input.method === 'sampling/createMessage' || (arrived !== undefined && !(arrived instanceof Placeholder));
    });
  }

  /** The id of the placeholder holding `key`'s place, if any. */
  placeholderId(key: string): string | undefined {
    const held = this.inputs.get(key);
    return held instanceof Placeholder ? held.id : undefined;
  }

  /** Add an input; one already there under its key (the server asked it again) is withdrawn. */
  put(input: PendingInput): void {
    const previous = this.inputs.get(input.key);
    if (previous && !(previous instanceof Placeholder)) this.withdraw(previous);
    this.inputs.set(input.key, input);
  }

  /** Close one input's UI without an answer (its signal aborted, the call ended). */
  withdraw(input: PendingInput): void {
    if (this.inputs.get(input.key) === input) this.inputs.delete(input.key);
    input.withdraw();
  }

  /** The input with panel id `id`. */
  find(id: string): PendingInput | undefined {
    for (const input of this.inputs.values()) if (input.id === id) return input;
    return undefined;
  }

  /** The inputs of one class (e.g. the forms, which Submit answers together). */
  inputsOf<T extends PendingInput>(cls: abstract new (...args: never[]) => T): T[] {
    return [...this.inputs.values()].filter((i): i is T => i instanceof cls);
  }

  /** The inputs in the server's order (inputs it did not list last). */
  ordered(): PendingInput[] {
    const order = this.info.inputs.map((i) => i.key);
    const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
    return [...this.inputs.values()].sort((a, b) => rank(a.key) - rank(b.key));
  }

  /** Start the grace timer (once): `show` runs after {@link ROUND_GRACE_MS} unless the round was shown first. */
  startGrace(setTimer: SetTimer, show: () => void): void {
    if (this.clearTimer) return;
    this.clearTimer = setTimer(() => {
      this.clearTimer = undefined;
      if (!this.shown) show();
    }, ROUND_GRACE_MS);
  }

  /** The round is shown (its grace timer is no longer needed). */
  markShown(): void {
    this.clearTimer?.();
    this.clearTimer = undefined;
    this.shown = true;
  }

  /** The person cancelled: every input answers as cancelled, and so will late ones. */
  cancel(): void {
    this.cancelled = true;
    for (const input of this.inputs.values()) input.cancel();
  }

  /** The call ended: stop the timer and withdraw every input. */
  end(): void {
    this.clearTimer?.();
    for (const input of this.inputs.values()) this.withdraw(input);
  }
}
