/**
 * The reply a person writes in a sampling review card instead of a model's ("Write the reply"): its
 * form, built once (the person's typing stays in the webview), where Back returns to, and Send reply,
 * which sends only a reply that passes its check (`core/sampling/writtenReply.ts`).
 *
 * Spec: MCP 2026-07-28 "Sampling" (`CreateMessageResult`: content, model, stopReason).
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import type { ReviewedAnswer } from '../../../core/sampling/samplingFlow';
import { writtenReply, type WrittenReply, type WrittenReplyForm } from '../../../core/sampling/writtenReply';
import { ARGUMENT_ERROR_PREFIX, type SendReplyMessage } from '../protocol';
import type { InputPanel } from './pendingInput';

/** The written reply of one sampling input. */
export class SamplingReplyWriting {
  private reply?: WrittenReply;
  /** Where Back goes from `writing`. */
  from: 'review' | 'completion' = 'review';

  /** @param id the input's panel id (its field errors are shown under it) */
  constructor(
    private readonly id: string,
    private readonly params: CreateMessageRequestParams,
    private readonly panel: InputPanel,
  ) {}

  /** The form, from the first "Write the reply" on. */
  get form(): WrittenReplyForm | undefined {
    return this.reply?.form;
  }

  /** True once the person started writing (there is a reply to send). */
  get started(): boolean {
    return this.reply !== undefined;
  }

  /** "Write the reply" from stage `from`; the first time, `seed` (a completion's text) pre-fills it. */
  open(from: 'review' | 'completion', seed: string | undefined): void {
    this.from = from;
    this.reply ??= writtenReply(this.params, seed);
  }

  /** Send reply: the answer when the reply passes its check (errors cleared); otherwise `undefined`, its errors shown by field. */
  check(m: SendReplyMessage): ReviewedAnswer | undefined {
    const outcome = this.reply?.build(m.values, m.args);
    if (!outcome) return undefined;
    if (outcome.ok) {
      this.panel.errors(this.id, {});
      return { result: outcome.result, author: 'person' };
    }
    const errors = { ...outcome.errors };
    for (const [k, v] of Object.entries(outcome.argumentErrors)) errors[`${ARGUMENT_ERROR_PREFIX}${k}`] = v;
    this.panel.errors(this.id, errors);
    return undefined;
  }
}
