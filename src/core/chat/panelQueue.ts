/**
 * One call from chat at a time in the round panel. The chat's agent may run tools in parallel; each
 * call has its own panel, and two panels asking at once would fight for the person's attention. So
 * the calls take turns: a call's inputs wait until every call that asked earlier has ended. The wait
 * is inside the provider, so it counts as time spent answering (the call limit pauses) and the call's
 * cancellation ends it.
 *
 * Spec: MCP 2026-07-28 "Multi Round-Trip Requests" (the host gathers a round's answers as it sees
 * fit; the retry waits for all of them).
 */
import { KeyedQueue } from '../util/async';
import type { InputContext, InputProvider, RoundInfo } from '../inputs/inputProvider';

const PANEL = 'panel';

/** A flow's turn: started once it holds the panel, released when the flow ends. */
interface Turn {
  started: Promise<void>;
  release: () => void;
}

/** The queue of calls from chat waiting for the round panel, in the order they first asked. */
export class PanelQueue {
  private readonly queue = new KeyedQueue();
  private readonly turns = new Map<number, Turn>();

  /**
   * `host`, answering each flow's inputs only once the flow holds the panel.
   * @param onWait called once per flow that has to wait for another (with the round it waits in)
   */
  provider(host: InputProvider, onWait?: (round: RoundInfo) => void): InputProvider {
    return {
      get capabilities() {
        return host.capabilities;
      },
      elicit: async (params, ctx) => (await this.turn(ctx, onWait), host.elicit(params, ctx)),
      sample: async (params, ctx) => (await this.turn(ctx, onWait), host.sample(params, ctx)),
      listRoots: async (ctx) => (await this.turn(ctx, onWait), host.listRoots(ctx)),
    };
  }

  /** Flows holding or waiting for the panel. */
  get size(): number {
    return this.queue.size(PANEL);
  }

  /** Flow `flowId` ended: the next one may ask. Safe to call for a flow that never asked. */
  end(flowId: number): void {
    const turn = this.turns.get(flowId);
    this.turns.delete(flowId);
    turn?.release();
  }

  /**
   * Wait for the flow's turn (at once when it holds it, or nobody does).
   * @throws HostError `cancelled` when the call's signal aborts while it waits
   */
  private turn(ctx: InputContext, onWait?: (round: RoundInfo) => void): Promise<void> {
    const flowId = ctx.round.flowId;
    let turn = this.turns.get(flowId);
    if (!turn) {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const start = new Promise<void>((resolve) => (started = resolve));
      // The call's signal releases the panel when the call is cancelled or fails (the queue listens to it).
      const running = this.queue.run(
        PANEL,
        ctx.signal,
        () => (started(), held),
        () => onWait?.(ctx.round),
      );
      turn = { started: Promise.race([start, running]), release };
      running.catch(() => this.turns.delete(flowId));
      this.turns.set(flowId, turn);
    }
    return turn.started;
  }
}
