/**
 * What form and URL elicitations share: they are answered accept, decline or cancel, and a withdrawn
 * one fails with HostError `cancelled`.
 *
 * Spec: MCP 2026-07-28 "Elicitation", `ElicitResult.action`. Decline and cancel carry no content and
 * are never validated (see docs/field-cases.md, F4).
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { AnswerState } from '../protocol';
import { PendingInput, withdrawnError, type InputMessage, type InputPanel } from './pendingInput';

/** How a pending elicitation ends: with the person's answer, or failed (withdrawn). */
export interface ElicitationSettle {
  settle: (r: ElicitResult) => void;
  fail: (e: Error) => void;
}

/** A pending elicitation: its answer state, and accept / decline / cancel / withdraw. */
export abstract class ElicitationInput extends PendingInput {
  state: AnswerState = 'pending';

  constructor(
    id: string,
    key: string,
    /** The server's `message` (why it asks). */
    readonly message: string,
    private readonly settlement: ElicitationSettle,
    protected readonly panel: InputPanel,
  ) {
    super(id, key);
  }

  get pending(): boolean {
    return this.state === 'pending';
  }

  /** Settle with the person's answer. */
  answer(result: ElicitResult): void {
    this.state = result.action === 'accept' ? 'accepted' : result.action === 'decline' ? 'declined' : 'cancelled';
    this.detach();
    this.answered(result);
    this.settlement.settle(result);
  }

  /** Called with each answer before it settles (a URL remembers it for later rounds). */
  protected answered(_result: ElicitResult): void {}

  /** Decline: `{action: 'decline'}`, no content, no validation. */
  override receive(m: InputMessage): string | undefined {
    if (m.type !== 'decline' || !this.pending) return super.receive(m);
    this.answer({ action: 'decline' });
    this.panel.changed();
    return undefined;
  }

  override cancel(): void {
    if (this.pending) this.answer({ action: 'cancel' });
  }

  override withdraw(): void {
    super.withdraw();
    if (this.pending) this.settlement.fail(withdrawnError());
    this.state = 'cancelled';
  }
}
