/**
 * A sampling request under review in the round panel. Its stages: `review` (prompt editable, model
 * picker) → Approve → `generating` (Stop goes back to review) → `completion` (editable) → Send →
 * `sent`; Decline, Cancel or a withdrawal at any step → `declined`.
 *
 * Spec: MCP 2026-07-28 "Sampling", human in the loop: see and edit the prompt, deny it, review the
 * completion before it is returned (docs/field-cases.md, F6).
 */
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { SamplingBackend, SamplingReviewRequest } from '../../../core/sampling/samplingFlow';
import { HostError, errorMessage } from '../../../core/util/errors';
import type { ApproveMessage, SamplingInputView, SamplingStage } from '../protocol';
import { PendingInput, withdrawnError, type InputMessage, type InputPanel } from './pendingInput';
import { applyCompletionEdits, applySamplingEdits, blockView, blocksOf, samplingRequestView } from './samplingContent';

/** How a sampling review ends: with the completion to send, or failed (declined, withdrawn). */
export interface SamplingSettle {
  settle: (r: CreateMessageResult) => void;
  fail: (e: Error) => void;
}

/** A pending sampling review: its stage, the generation under way, and the completion to send. */
export class SamplingInput extends PendingInput {
  readonly kind = 'sampling';
  stage: SamplingStage = 'review';
  private generation?: AbortController;
  private modelId?: string;
  private completion?: CreateMessageResult;
  private error?: string;

  /**
   * @param signal the input's signal (aborted when the call no longer needs it); generation follows it
   */
  constructor(
    id: string,
    key: string,
    private readonly request: SamplingReviewRequest,
    private readonly backend: SamplingBackend,
    private readonly signal: AbortSignal,
    private readonly settlement: SamplingSettle,
    private readonly panel: InputPanel,
  ) {
    super(id, key);
  }

  get pending(): boolean {
    return this.stage === 'review' || this.stage === 'generating' || this.stage === 'completion';
  }

  view(): SamplingInputView {
    const c = this.completion;
    return {
      kind: 'sampling',
      id: this.id,
      key: this.key,
      stage: this.stage,
      ...samplingRequestView(this.request.params),
      models: this.request.models.map((m) => ({ ...m })),
      chosenModelId: this.request.chosenModelId,
      ...(this.modelId ? { modelId: this.modelId } : {}),
      ...(c ? { completion: { model: String(c.model), ...(typeof c.stopReason === 'string' ? { stopReason: c.stopReason } : {}), blocks: blocksOf(c.content).map(blockView) } } : {}),
      ...(this.error ? { error: this.error } : {}),
    };
  }

  override receive(m: InputMessage): string | undefined {
    switch (m.type) {
      case 'approve':
        return this.stage === 'review' ? this.approve(m) : super.receive(m);
      case 'stop':
        if (this.stage !== 'generating') return super.receive(m);
        this.generation?.abort(new HostError('cancelled', 'Stopped by the person.'));
        return undefined;
      case 'send':
        if (this.stage !== 'completion' || !this.completion) return super.receive(m);
        this.stage = 'sent';
        this.detach();
        this.settlement.settle(applyCompletionEdits(this.completion, m.texts));
        this.panel.changed();
        return undefined;
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
    this.generation?.abort(withdrawnError());
    if (this.pending) this.settlement.fail(withdrawnError());
    this.stage = 'declined';
  }

  /** Approve: run the chosen (offered) model on the edited request; the completion comes back for review. */
  private approve(m: ApproveMessage): string | undefined {
    if (!this.request.models.some((x) => x.id === m.modelId)) return `model ${JSON.stringify(m.modelId)} is not offered`;
    const { params, rejected } = applySamplingEdits(this.request.params, m.systemPrompt, m.edits);
    if (rejected > 0) this.panel.debug(`${rejected} edit(s) of sampling "${this.key}" did not point at a text block; not applied`);
    const generation = new AbortController();
    this.generation = generation;
    this.stage = 'generating';
    this.modelId = m.modelId;
    this.error = undefined;
    this.panel.changed();
    this.backend.generate(m.modelId, params, AbortSignal.any([this.signal, generation.signal])).then(
      (result) => {
        if (this.generation !== generation || this.stage !== 'generating') return;
        this.completion = result;
        this.stage = 'completion';
        this.panel.changed();
      },
      (e: unknown) => {
        if (this.generation !== generation || this.stage !== 'generating') return;
        this.stage = 'review';
        this.error = generation.signal.aborted ? 'Stopped. You can approve again or decline.' : `The model failed: ${errorMessage(e)}`;
        this.panel.changed();
      },
    );
    return undefined;
  }

  private reject(why: string): void {
    this.generation?.abort(new HostError('cancelled', 'The sampling request was declined.'));
    this.stage = 'declined';
    this.detach();
    this.settlement.fail(declinedSampling(this.key, this.panel.server, why));
  }
}

/** The error of a sampling request the person declined (`why`: "you pressed Decline", ...). */
export function declinedSampling(key: string, server: string | undefined, why: string): HostError {
  return new HostError('declined', `You declined the sampling request "${key}" of ${server ?? 'the server'} (${why}).`);
}
