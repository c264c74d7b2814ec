/**
 * A sampling request under review in the round panel. Its stages: `review` (prompt editable, model
 * picker) → Approve → `generating` (Stop goes back to review) → `completion` (editable) → Send →
 * `sent`; from `review` or `completion`, "Write the reply" → `writing` (Back returns) → Send reply →
 * `sent`, only once the written reply passes its check; Decline, Cancel or a withdrawal at any step
 * → `declined`. When no model can do the request, writing the reply (or declining) is all there is.
 *
 * Spec: MCP 2026-07-28 "Sampling", human in the loop: see and edit the prompt, deny it, review the
 * completion before it is returned (docs/field-cases.md, F6).
 */
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { ModelOffer, ReviewedAnswer, SamplingBackend, SamplingReviewRequest } from '../../../core/sampling/samplingFlow';
import { writtenReply, type WrittenReply } from '../../../core/sampling/writtenReply';
import { HostError, errorMessage } from '../../../core/util/errors';
import { isPlainObject } from '../../../core/util/json';
import { ARGUMENT_ERROR_PREFIX, type ApproveMessage, type SamplingInputView, type SamplingStage, type SendReplyMessage } from '../protocol';
import { PendingInput, withdrawnError, type InputMessage, type InputPanel } from './pendingInput';
import { applyCompletionEdits, applySamplingEdits, blockView, blocksOf, samplingRequestView } from './samplingContent';

/** How a sampling review ends: with the answer to send (and who gave it), or failed (declined, withdrawn). */
export interface SamplingSettle {
  settle: (r: ReviewedAnswer) => void;
  fail: (e: Error) => void;
}

/** The text blocks' texts of a result's content. */
const textsOf = (r: CreateMessageResult): string[] => blocksOf(r.content).flatMap((b) => (isPlainObject(b) && b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));

/** A pending sampling review: its stage, the models offered, the generation under way, the completion or the written reply. */
export class SamplingInput extends PendingInput {
  readonly kind = 'sampling';
  stage: SamplingStage = 'review';
  private offer: ModelOffer;
  private generation?: AbortController;
  private modelId?: string;
  private completion?: CreateMessageResult;
  private reply?: WrittenReply;
  /** Where Back goes from `writing`. */
  private writingFrom: 'review' | 'completion' = 'review';
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
    this.offer = { models: request.models, chosenModelId: request.chosenModelId, chosenBecause: request.chosenBecause, noModel: request.noModel };
  }

  get pending(): boolean {
    return this.stage === 'review' || this.stage === 'generating' || this.stage === 'completion' || this.stage === 'writing';
  }

  view(): SamplingInputView {
    const c = this.completion;
    const o = this.offer;
    return {
      kind: 'sampling',
      id: this.id,
      key: this.key,
      stage: this.stage,
      ...samplingRequestView(this.request.params),
      models: o.models.map((m) => ({ ...m })),
      ...(o.chosenModelId !== undefined ? { chosenModelId: o.chosenModelId } : {}),
      ...(o.chosenBecause ? { chosenBecause: o.chosenBecause } : {}),
      ...(o.noModel ? { noModel: o.noModel } : {}),
      ...(this.reply ? { write: this.reply.form } : {}),
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
      case 'send': {
        const completion = this.completion;
        if (this.stage !== 'completion' || !completion) return super.receive(m);
        const result = applyCompletionEdits(completion, m.texts);
        const before = textsOf(completion);
        return this.finish({ result, author: 'model', edited: textsOf(result).some((t, i) => t !== before[i]) });
      }
      case 'write':
        if (this.stage !== 'review' && this.stage !== 'completion') return super.receive(m);
        this.writingFrom = this.stage;
        // The form is built once (the person's typing stays in the webview); a completion seeds its text.
        this.reply ??= writtenReply(this.request.params, this.completion ? textsOf(this.completion).join('\n') : undefined);
        this.stage = 'writing';
        this.error = undefined;
        this.panel.changed();
        return undefined;
      case 'back':
        if (this.stage !== 'writing') return super.receive(m);
        this.stage = this.writingFrom;
        this.panel.changed();
        return undefined;
      case 'sendReply':
        return this.stage === 'writing' && this.reply ? this.sendReply(this.reply, m) : super.receive(m);
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

  /** Send an answer: the card is done. */
  private finish(answer: ReviewedAnswer): undefined {
    this.stage = 'sent';
    this.detach();
    this.settlement.settle(answer);
    this.panel.changed();
    return undefined;
  }

  /** Send reply: only a reply that passes its check (`writtenReply`); otherwise its errors, by field. */
  private sendReply(reply: WrittenReply, m: SendReplyMessage): undefined {
    const outcome = reply.build(m.values, m.args);
    if (outcome.ok) {
      this.panel.errors(this.id, {});
      return this.finish({ result: outcome.result, author: 'person' });
    }
    const errors = { ...outcome.errors };
    for (const [k, v] of Object.entries(outcome.argumentErrors)) errors[`${ARGUMENT_ERROR_PREFIX}${k}`] = v;
    this.panel.errors(this.id, errors);
    return undefined;
  }

  /** Approve: run the chosen (offered, able) model on the edited request; the completion comes back for review. */
  private approve(m: ApproveMessage): string | undefined {
    const model = this.offer.models.find((x) => x.id === m.modelId);
    if (!model) return `model ${JSON.stringify(m.modelId)} is not offered`;
    if (model.unable) return `model ${JSON.stringify(m.modelId)} cannot do this request (${model.unable})`;
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
        const stopped = generation.signal.aborted;
        this.error = stopped ? 'Stopped. You can approve again, write the reply, or decline.' : `The model failed: ${errorMessage(e)}`;
        this.panel.changed();
        if (!stopped) this.refreshModels();
      },
    );
    return undefined;
  }

  /** After a model failed: list and judge the models again (it may have gone), and offer what is there now. */
  private refreshModels(): void {
    this.backend.refresh?.(this.signal).then(
      (offer) => {
        if (!this.pending || this.panel.ended) return;
        this.offer = offer;
        this.panel.changed();
      },
      (e: unknown) => this.panel.debug(`sampling "${this.key}": listing the models again failed: ${errorMessage(e)}`),
    );
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
