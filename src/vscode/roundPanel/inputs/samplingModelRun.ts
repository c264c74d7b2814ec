/**
 * The model side of a sampling review card: the models offered (listed and judged again after a
 * model failed: it may have gone), the generation on the model the person approved, and the
 * completion it returned, sent with the person's edits.
 *
 * Spec: MCP 2026-07-28 "Sampling", human in the loop: the person picks the model and reviews the
 * completion before it is returned (docs/field-cases.md, F6).
 */
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import type { ModelOffer, ReviewedAnswer, SamplingBackend, SamplingReviewRequest } from '../../../core/sampling/samplingFlow';
import { errorMessage } from '../../../core/util/errors';
import { isPlainObject } from '../../../core/util/json';
import type { ApproveMessage, SamplingInputView } from '../protocol';
import type { InputPanel } from './pendingInput';
import { applyCompletionEdits, applySamplingEdits, blockView } from './samplingContent';
import { contentBlocks } from '../../../core/sampling/modelNeeds';

/** The text blocks' texts of a result's content. */
const textsOf = (r: CreateMessageResult): string[] =>
  contentBlocks(r.content).flatMap((b) => (isPlainObject(b) && b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));

/**
 * Moves the card to `stage` (`generating` as a generation starts; `completion` or back to `review`
 * with `error` as it ends) and shows it; an end arriving when the card is no longer generating
 * changes nothing. @returns whether the card moved
 */
export type MoveCard = (stage: 'generating' | 'completion' | 'review', error?: string) => boolean;

/** The models offered, the generation under way and its completion. */
export class SamplingModelRun {
  private offer: ModelOffer;
  private generation?: AbortController;
  private modelId?: string;
  private result?: CreateMessageResult;

  /**
   * @param signal the input's signal (aborted when the call no longer needs it); generation follows it
   */
  constructor(
    private readonly key: string,
    private readonly request: SamplingReviewRequest,
    private readonly backend: SamplingBackend,
    private readonly signal: AbortSignal,
    private readonly panel: InputPanel,
  ) {
    this.offer = {
      models: request.models,
      chosenModelId: request.chosenModelId,
      chosenBecause: request.chosenBecause,
      noModel: request.noModel,
    };
  }

  /** The completion the model returned, once it did. */
  get completion(): CreateMessageResult | undefined {
    return this.result;
  }

  /** The completion's text blocks joined by lines (seeds a reply the person writes), if there is one. */
  get completionText(): string | undefined {
    return this.result ? textsOf(this.result).join('\n') : undefined;
  }

  /** What the card shows of the models and the completion. */
  view(): Pick<SamplingInputView, 'models' | 'chosenModelId' | 'chosenBecause' | 'noModel' | 'modelId' | 'completion'> {
    const o = this.offer;
    const c = this.result;
    return {
      models: o.models.map((m) => ({ ...m })),
      ...(o.chosenModelId !== undefined ? { chosenModelId: o.chosenModelId } : {}),
      ...(o.chosenBecause ? { chosenBecause: o.chosenBecause } : {}),
      ...(o.noModel ? { noModel: o.noModel } : {}),
      ...(this.modelId ? { modelId: this.modelId } : {}),
      ...(c
        ? {
            completion: {
              model: String(c.model),
              ...(typeof c.stopReason === 'string' ? { stopReason: c.stopReason } : {}),
              blocks: contentBlocks(c.content).map(blockView),
            },
          }
        : {}),
    };
  }

  /**
   * Approve: run the model the person picked (offered, able) on the edited request; the completion
   * comes back for review. After a failure (not a stop) the models are listed again, while `wanted()`.
   * @returns why the model cannot run, or `undefined` when it was started
   */
  approve(m: ApproveMessage, move: MoveCard, wanted: () => boolean): string | undefined {
    const model = this.offer.models.find((x) => x.id === m.modelId);
    if (!model) return `model ${JSON.stringify(m.modelId)} is not offered`;
    if (model.unable) return `model ${JSON.stringify(m.modelId)} cannot do this request (${model.unable})`;
    const { params, rejected } = applySamplingEdits(this.request.params, m.systemPrompt, m.edits);
    if (rejected > 0) this.panel.debug(`${rejected} edit(s) of sampling "${this.key}" did not point at a text block; not applied`);
    const generation = new AbortController();
    this.generation = generation;
    this.modelId = m.modelId;
    move('generating');
    this.backend.generate(m.modelId, params, AbortSignal.any([this.signal, generation.signal])).then(
      (result) => {
        if (this.generation !== generation) return;
        this.result = result;
        move('completion');
      },
      (e: unknown) => {
        if (this.generation !== generation) return;
        const stopped = generation.signal.aborted;
        const moved = move(
          'review',
          stopped ? 'Stopped. You can approve again, write the reply, or decline.' : `The model failed: ${errorMessage(e)}`,
        );
        if (moved && !stopped) this.refreshModels(wanted);
      },
    );
    return undefined;
  }

  /** Abort the generation under way, if any. */
  stop(reason: Error): void {
    this.generation?.abort(reason);
  }

  /** The completion with the person's edits of its text blocks, as the answer to send; `undefined` before there is one. */
  answer(texts: string[]): ReviewedAnswer | undefined {
    const completion = this.result;
    if (!completion) return undefined;
    const result = applyCompletionEdits(completion, texts);
    const before = textsOf(completion);
    return { result, author: 'model', edited: textsOf(result).some((t, i) => t !== before[i]) };
  }

  /** After a model failed: list and judge the models again (it may have gone), and offer what is there now, while `wanted()`. */
  private refreshModels(wanted: () => boolean): void {
    this.backend.refresh?.(this.signal).then(
      (offer) => {
        if (!wanted() || this.panel.ended) return;
        this.offer = offer;
        this.panel.changed();
      },
      (e: unknown) => this.panel.debug(`sampling "${this.key}": listing the models again failed: ${errorMessage(e)}`),
    );
  }
}
