/**
 * A sampling request under review in the round panel. Its stages: `review` (prompt editable, model
 * picker) → Approve → `generating` (Stop goes back to review) → `completion` (editable) → Send →
 * `sent`; from `review` or `completion`, "Write the reply" → `writing` (Back returns) → Send reply →
 * `sent`, only once the written reply passes its check; Decline, Cancel or a withdrawal at any step
 * → `declined`. When no model can do the request, writing the reply (or declining) is all there is.
 *
 * This class holds the stage; its parts: `samplingModelRun.ts` (the models offered, the generation,
 * the completion) and `samplingReplyWriting.ts` (the reply the person writes).
 *
 * Spec: MCP 2026-07-28 "Sampling", human in the loop: see and edit the prompt, deny it, review the
 * completion before it is returned (docs/field-cases.md, F6).
 */
import type { ReviewedAnswer, SamplingBackend, SamplingReviewRequest } from '../../../core/sampling/samplingFlow';
import { HostError } from '../../../core/util/errors';
import type { SamplingInputView, SamplingStage } from '../protocol';
import { PendingInput, withdrawnError, type InputMessage, type InputPanel } from './pendingInput';
import { samplingRequestView } from './samplingContent';
import { SamplingModelRun, type MoveCard } from './samplingModelRun';
import { SamplingReplyWriting } from './samplingReplyWriting';

/** How a sampling review ends: with the answer to send (and who gave it), or failed (declined, withdrawn). */
export interface SamplingSettle {
  settle: (r: ReviewedAnswer) => void;
  fail: (e: Error) => void;
}

/** A pending sampling review: its stage, the models offered, the generation under way, the completion or the written reply. */
export class SamplingInput extends PendingInput {
  readonly kind = 'sampling';
  stage: SamplingStage = 'review';
  private readonly model: SamplingModelRun;
  private readonly writing: SamplingReplyWriting;
  private error?: string;

  /** The model run moves the card (see {@link MoveCard}). */
  private readonly move: MoveCard = (stage, error) => {
    if (stage !== 'generating' && this.stage !== 'generating') return false;
    this.stage = stage;
    this.error = error;
    this.panel.changed();
    return true;
  };

  /**
   * @param signal the input's signal (aborted when the call no longer needs it); generation follows it
   */
  constructor(
    id: string,
    key: string,
    private readonly request: SamplingReviewRequest,
    backend: SamplingBackend,
    signal: AbortSignal,
    private readonly settlement: SamplingSettle,
    private readonly panel: InputPanel,
  ) {
    super(id, key);
    this.model = new SamplingModelRun(key, request, backend, signal, panel);
    this.writing = new SamplingReplyWriting(id, request.params, panel);
  }

  get pending(): boolean {
    return this.stage === 'review' || this.stage === 'generating' || this.stage === 'completion' || this.stage === 'writing';
  }

  view(): SamplingInputView {
    const write = this.writing.form;
    return {
      kind: 'sampling',
      id: this.id,
      key: this.key,
      stage: this.stage,
      ...samplingRequestView(this.request.params),
      ...this.model.view(),
      ...(write ? { write } : {}),
      ...(this.error ? { error: this.error } : {}),
    };
  }

  override receive(m: InputMessage): string | undefined {
    switch (m.type) {
      case 'approve':
        return this.stage === 'review' ? this.model.approve(m, this.move, () => this.pending) : super.receive(m);
      case 'stop':
        if (this.stage !== 'generating') return super.receive(m);
        this.model.stop(new HostError('cancelled', 'Stopped by the person.'));
        return undefined;
      case 'send': {
        const answer = this.stage === 'completion' ? this.model.answer(m.texts) : undefined;
        return answer ? this.finish(answer) : super.receive(m);
      }
      case 'write':
        if (this.stage !== 'review' && this.stage !== 'completion') return super.receive(m);
        // The form is built once (the person's typing stays in the webview); a completion seeds its text.
        this.writing.open(this.stage, this.model.completionText);
        this.stage = 'writing';
        this.error = undefined;
        this.panel.changed();
        return undefined;
      case 'back':
        if (this.stage !== 'writing') return super.receive(m);
        this.stage = this.writing.from;
        this.panel.changed();
        return undefined;
      case 'sendReply': {
        if (this.stage !== 'writing' || !this.writing.started) return super.receive(m);
        const answer = this.writing.check(m);
        return answer ? this.finish(answer) : undefined;
      }
      case 'decline':
        if (!this.pending) return super.receive(m);
        this.reject('you pressed Decline');
        this.panel.changed();
        return undefined;
      default:
        return super.receive(m);
    }
  }

  override cancel(): void {
    if (this.pending) this.reject('you cancelled the round');
  }

  override withdraw(): void {
    super.withdraw();
    this.model.stop(withdrawnError());
    if (this.pending) this.settlement.fail(withdrawnError());
    this.stage = 'declined';
  }

  /** Send an answer: the card is done. */
  private finish(answer: ReviewedAnswer): undefined {
    this.stage = 'sent';
    this.detach();
    this.settlement.settle(answer);
    this.panel.changed();
    return undefined;
  }

  private reject(why: string): void {
    this.model.stop(new HostError('cancelled', 'The sampling request was declined.'));
    this.stage = 'declined';
    this.detach();
    this.settlement.fail(declinedSampling(this.key, this.panel.server, why));
  }
}

/** The error of a sampling request the person declined (`why`: "you pressed Decline", ...). */
export function declinedSampling(key: string, server: string | undefined, why: string): HostError {
  return new HostError('declined', `You declined the sampling request "${key}" of ${server ?? 'the server'} (${why}).`);
}
