/**
 * The rounds of one call in its round panel: which are shown, in which order, and when a newer round
 * comes to the front. A round is shown at once when every input that reaches the panel synchronously
 * has arrived, or after its grace time (`roundEntry.ts`); earlier rounds that need nothing more then
 * leave the panel.
 */
import type { RoundInfo } from '../../core/inputs/inputProvider';
import { onAbort } from '../../core/util/async';
import { FormInput } from './inputs/formInput';
import type { PendingInput } from './inputs/pendingInput';
import type { RoundView } from './protocol';
import { RoundEntry, type SetTimer } from './roundEntry';

/** The rounds of one call's panel, in order, with the panel-unique ids of their inputs. */
export class CallRounds {
  private readonly rounds: RoundEntry[] = [];
  private nextId = 1;
  private nextSeq = 1;
  private shownSeq = 0;
  private readonly setTimer: SetTimer;

  /**
   * @param setTimer the panel host's timer (tests run it by hand); default `setTimeout`
   * @param render shows the panel (`reveal`: bring it to the front, a new round opened)
   */
  constructor(
    setTimer: SetTimer | undefined,
    private readonly render: (reveal: boolean) => void,
  ) {
    this.setTimer =
      setTimer ??
      ((fn, ms) => {
        const t = setTimeout(fn, ms);
        return () => clearTimeout(t);
      });
  }

  /** A fresh panel-unique input id (keys repeat across rounds; ids never do). */
  newId(): string {
    return String(this.nextId++);
  }

  /** The round `info` describes, created on its first input. */
  entryFor(info: RoundInfo): RoundEntry {
    let entry = this.rounds.find((r) => r.info === info);
    if (!entry) this.rounds.push((entry = new RoundEntry(info, this.nextSeq++, () => this.newId())));
    return entry;
  }

  /**
   * Add an input to its round and show what changed.
   * @param signal withdraws the input when it aborts (not aborted yet: callers refuse an aborted one)
   */
  add(round: RoundEntry, input: PendingInput, signal: AbortSignal | undefined): void {
    round.put(input);
    if (signal) {
      input.detach = onAbort(signal, () => {
        round.withdraw(input);
        this.render(false);
      });
    }
    if (round.shown) return this.render(false);
    if (round.complete) return this.show(round);
    round.startGrace(this.setTimer, () => {
      if (this.rounds.includes(round)) this.show(round);
    });
  }

  /** True while some input of the call waits for the person. */
  get pending(): boolean {
    return this.rounds.some((r) => r.pending);
  }

  /** The server of the newest round (all rounds of a call share it; a 2025-era push of an unknown call may not). */
  get server(): string | undefined {
    return this.rounds[this.rounds.length - 1]?.info.server;
  }

  /** The view of the shown rounds (the newest gives the header), or `undefined` before one is shown. */
  view(): RoundView | undefined {
    const shown = this.rounds.filter((r) => r.shown);
    const last = shown[shown.length - 1];
    if (!last) return undefined;
    const { server, method, target, round, era, task } = last.info;
    const items = shown.flatMap((r) => r.ordered().map((input) => input.view()));
    return {
      kind: 'round',
      server,
      method,
      target,
      round,
      roundSeq: last.seq,
      era,
      items,
      status: shown.some((r) => r.pending) ? 'open' : 'sent',
      ...(task ? { task } : {}),
    };
  }

  /** The input with panel id `id`, in any round. */
  find(id: string): PendingInput | undefined {
    for (const r of this.rounds) {
      const input = r.find(id);
      if (input) return input;
    }
    return undefined;
  }

  /** The forms of the shown rounds that still wait for Submit (not those an app answers). */
  pendingForms(): FormInput[] {
    return this.rounds
      .filter((r) => r.shown)
      .flatMap((r) => r.inputsOf(FormInput))
      .filter((f) => f.pending && !f.showsApp);
  }

  /** The person cancelled: every round and its inputs (also the ones still to come). */
  cancel(): void {
    for (const r of this.rounds) r.cancel();
  }

  /** The call ended: withdraw every input and forget the rounds. */
  end(): void {
    for (const r of this.rounds) r.end();
    this.rounds.length = 0;
  }

  private show(round: RoundEntry): void {
    round.markShown();
    for (const r of this.rounds.slice()) if (r !== round && r.shown && !r.pending) this.rounds.splice(this.rounds.indexOf(r), 1);
    const reveal = round.seq > this.shownSeq;
    this.shownSeq = Math.max(this.shownSeq, round.seq);
    this.render(reveal);
  }
}
