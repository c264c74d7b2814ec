/**
 * The model's reply → a `CreateMessageResult`, without `vscode`: the stream read with `maxTokens`
 * and `stopSequences` enforced by the host itself (models may ignore the options), tool calls kept
 * (never run), and the stop reason.
 *
 * Spec: MCP 2026-07-28, Sampling (`CreateMessageResult`, `stopReason`, `ToolUseContent`; `maxTokens`
 * MUST be respected). See docs/field-cases.md, F6.
 */
import type { CreateMessageResult } from '@modelcontextprotocol/client';
import { abortRejection } from '../util/async';
import { cancellation, type HostError } from '../util/errors';

/** One part of the model's reply stream, as the adapter reports it. */
export type LmResponsePart =
  { kind: 'text'; text: string } | { kind: 'toolCall'; callId: string; name: string; input: Record<string, unknown> } | { kind: 'other' };

/** Why the reply ended (spec: `CreateMessageResult.stopReason`). */
export type StopReason = 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse';

/** The collected reply. */
export interface Completion {
  /** The reply text, already cut at a stop sequence or at `maxTokens`. */
  text: string;
  /** Tool calls the model asked for (never run by the host). */
  toolCalls: { callId: string; name: string; input: Record<string, unknown> }[];
  stopReason: StopReason;
}

/** Options of {@link collectCompletion}. */
export interface CollectOptions {
  /** Limit of the reply, in the model's tokens. */
  maxTokens: number;
  /** Cut the reply before the first occurrence of any of these (empty strings ignored). */
  stopSequences?: readonly string[];
  /** The model's tokenizer (`LanguageModelChat.countTokens`). */
  countTokens: (text: string) => Promise<number>;
  /** Aborting stops reading at once. */
  signal?: AbortSignal;
}

/** Index of the earliest occurrence of any stop sequence in `text`, or -1. */
export function findStopSequence(text: string, stopSequences: readonly string[]): number {
  let at = -1;
  for (const s of stopSequences) {
    if (!s) continue;
    const i = text.indexOf(s);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

/**
 * The longest prefix of `text` (cut between code points) whose token count is at most `maxTokens`,
 * by binary search with the model's tokenizer (about log2(length) calls; assumes a longer prefix never
 * has fewer tokens).
 */
export async function truncateToTokens(text: string, maxTokens: number, countTokens: (text: string) => Promise<number>): Promise<string> {
  const points = Array.from(text);
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((await countTokens(points.slice(0, mid).join(''))) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return points.slice(0, lo).join('');
}

function abortError(signal: AbortSignal): HostError {
  return cancellation(signal, 'The sampling request was cancelled.');
}

/**
 * Read the model's reply stream and collect text and tool calls.
 *
 * After each text part: the reply is cut before the first stop sequence (→ `stopSequence`), and its
 * tokens are counted with `countTokens`; above `maxTokens` it is cut to the longest prefix within the
 * limit (→ `maxTokens`, which wins over `stopSequence`). Either cut stops reading (the caller then
 * cancels the model request). At a normal end: `toolUse` when the model asked for tools, else `endTurn`.
 * Tool calls received before a cut are kept, with the cut's reason.
 *
 * @throws HostError `cancelled` when `signal` aborts (even while the stream is silent); errors of the
 *   stream itself propagate unchanged.
 */
export async function collectCompletion(stream: AsyncIterable<LmResponsePart>, options: CollectOptions): Promise<Completion> {
  const { maxTokens, countTokens, signal } = options;
  const stops = options.stopSequences ?? [];
  const iterator = stream[Symbol.asyncIterator]();
  let text = '';
  const toolCalls: Completion['toolCalls'] = [];
  const abort = abortRejection(signal, () => abortError(signal!));
  const aborted = abort.promise;
  let finished = false;
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) {
        finished = true;
        break;
      }
      const part = next.value;
      if (part.kind === 'toolCall') {
        toolCalls.push({ callId: part.callId, name: part.name, input: part.input });
        continue;
      }
      if (part.kind !== 'text' || !part.text) continue;
      text += part.text;
      const stopAt = findStopSequence(text, stops);
      const candidate = stopAt >= 0 ? text.slice(0, stopAt) : text;
      const tokens = await Promise.race([countTokens(candidate), aborted]);
      if (tokens > maxTokens) {
        const cut = await Promise.race([truncateToTokens(candidate, maxTokens, countTokens), aborted]);
        return { text: cut, toolCalls, stopReason: 'maxTokens' };
      }
      if (stopAt >= 0) return { text: candidate, toolCalls, stopReason: 'stopSequence' };
    }
  } finally {
    abort.dispose();
    // Stop the producer when we leave early (cut, cancel, error); not awaited: it may be stuck.
    if (!finished) void Promise.resolve(iterator.return?.()).catch(() => {});
  }
  if (signal?.aborted) throw abortError(signal);
  return { text, toolCalls, stopReason: toolCalls.length ? 'toolUse' : 'endTurn' };
}

/**
 * The `CreateMessageResult` for a collected reply: `{role: "assistant", content, model, stopReason}`.
 * `content` is one text block when the model asked for no tool; otherwise an array: the text block
 * (when not empty) followed by one `{type: "tool_use", id, name, input}` per tool call.
 */
export function completionResult(completion: Completion, modelId: string): CreateMessageResult {
  const text = { type: 'text' as const, text: completion.text };
  const content = completion.toolCalls.length
    ? [
        ...(completion.text ? [text] : []),
        ...completion.toolCalls.map((c) => ({ type: 'tool_use' as const, id: c.callId, name: c.name, input: c.input })),
      ]
    : text;
  return { role: 'assistant', content, model: modelId, stopReason: completion.stopReason } as CreateMessageResult;
}
