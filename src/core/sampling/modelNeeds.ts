/**
 * What a `sampling/createMessage` request needs of a model, and why a model cannot do it (pure; no
 * `vscode`): tools offered → tool calling, image content → image input, audio → audio input (no VS
 * Code language model has it), a prompt longer than the model's input limit. The rules mirror the
 * request mapping (`lmRequest.ts`), so a model judged able is never refused there.
 *
 * Spec: MCP 2026-07-28, Sampling (`SamplingMessage` content, `tools`, `toolChoice`).
 */
import type { CreateMessageRequestParams } from '@modelcontextprotocol/client';
import { abortRejection } from '../util/async';
import { cancellation } from '../util/errors';
import { isPlainObject } from '../util/json';
import { SYSTEM_PROMPT_HEADER } from './lmRequest';

/** What a request needs of the model that answers it. */
export interface RequestNeeds {
  /** Tools are offered and `toolChoice.mode` is not `none`: the model must support tool calling. */
  toolCalling: boolean;
  /** A message or a tool result holds an image. */
  imageInput: boolean;
  /** A message or a tool result holds audio. */
  audioInput: boolean;
  /** The prompt as one text (system prompt, text blocks, tool definitions), measured against input limits. */
  promptText: string;
}

/** The blocks of a message's content: the spec allows one block or an array of them. */
export function contentBlocks(content: unknown): unknown[] {
  return Array.isArray(content) ? content : content === undefined ? [] : [content];
}
const blocks = contentBlocks;

/** JSON text of a value that may be cyclic or huge (then: what could be written). */
function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

/**
 * What `params` needs: read defensively (a malformed request is refused elsewhere, by
 * `buildLmRequest`), in bounded time (one pass over what the server sent).
 */
export function requestNeeds(params: CreateMessageRequestParams): RequestNeeds {
  const p = params as CreateMessageRequestParams & Record<string, unknown>;
  const needs: RequestNeeds = { toolCalling: false, imageInput: false, audioInput: false, promptText: '' };
  const text: string[] = [];
  if (typeof p.systemPrompt === 'string' && p.systemPrompt.trim()) text.push(SYSTEM_PROMPT_HEADER, p.systemPrompt);
  const visit = (b: unknown, depth: number) => {
    if (!isPlainObject(b)) return;
    if (b.type === 'image') needs.imageInput = true;
    else if (b.type === 'audio') needs.audioInput = true;
    else if (b.type === 'text' && typeof b.text === 'string') text.push(b.text);
    else if (b.type === 'tool_use') text.push(String(b.name), jsonText(b.input));
    else if (b.type === 'tool_result' && depth === 0) for (const c of blocks(b.content)) visit(c, 1);
  };
  for (const m of Array.isArray(p.messages) ? p.messages : []) if (isPlainObject(m)) for (const b of blocks(m.content)) visit(b, 0);
  const mode = isPlainObject(p.toolChoice) ? p.toolChoice.mode : undefined;
  const tools = Array.isArray(p.tools) ? p.tools : [];
  if (tools.length && mode !== 'none') {
    needs.toolCalling = true;
    for (const t of tools)
      if (isPlainObject(t)) text.push(String(t.name), typeof t.description === 'string' ? t.description : '', jsonText(t.inputSchema));
  }
  needs.promptText = text.join('\n');
  return needs;
}

/**
 * Why `model` cannot do a request with `needs`, or `undefined` when it can. Short, for the picker and
 * the log: "no tool calling", "no image input", "no audio input", "prompt too long (N tokens, limit M)".
 * As in `buildLmRequest`: tools are refused only by an explicit `toolCalling: false`, images are taken
 * only with `imageInput: true`.
 * @param promptTokens the prompt's size in this model's tokens, when measured ({@link measurePrompt})
 */
export function unableReason(model: ModelInfo, needs: RequestNeeds, promptTokens?: number): string | undefined {
  if (needs.audioInput) return 'no audio input';
  if (needs.toolCalling && model.toolCalling === false) return 'no tool calling';
  if (needs.imageInput && model.imageInput !== true) return 'no image input';
  const limit = model.maxInputTokens;
  if (promptTokens !== undefined && typeof limit === 'number' && limit > 0 && promptTokens > limit)
    return `prompt too long (${promptTokens} tokens, limit ${limit})`;
  return undefined;
}

/** What {@link measurePrompt} needs of a model. */
export interface CountingModel extends ModelInfo {
  countTokens(text: string, signal: AbortSignal): Promise<number>;
}

/** Longest a model's tokenizer may take to count a prompt before the model counts as fitting (ms). */
export const COUNT_TIMEOUT_MS = 10_000;

/**
 * The prompt's size in each model's tokens, for the models whose input limit it might exceed. A
 * tokenizer makes at least one byte per token, so a prompt of at most `maxInputTokens` UTF-8 bytes
 * fits without counting; only longer prompts are counted, with each model's own tokenizer, all at
 * once, each bounded by {@link COUNT_TIMEOUT_MS} and by `signal`. A model whose count fails or times
 * out is left out (it counts as fitting: the model itself will say when it does not).
 * @returns tokens by model id
 * @throws HostError `cancelled` when `signal` aborts
 */
export async function measurePrompt(
  models: readonly CountingModel[],
  text: string,
  signal: AbortSignal,
  timeoutMs = COUNT_TIMEOUT_MS,
): Promise<Map<string, number>> {
  const bytes = Buffer.byteLength(text, 'utf8');
  const out = new Map<string, number>();
  const toCount = models.filter((m) => typeof m.maxInputTokens === 'number' && m.maxInputTokens > 0 && bytes > m.maxInputTokens);
  if (!toCount.length) return out;
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  const aborted = abortRejection(signal, () => cancellation(signal, 'The sampling request was cancelled.'));
  // A tokenizer that never answers stops holding the count up when the time is over.
  const stopped = abortRejection(both, () => undefined);
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  try {
    const counts = toCount.map(async (m) => {
      const n = await Promise.race([m.countTokens(text, both), stopped.promise]).catch(() => undefined);
      if (typeof n === 'number' && Number.isFinite(n)) out.set(m.id, n);
    });
    await Promise.race([Promise.all(counts), aborted.promise]);
  } finally {
    clearTimeout(timer);
    stop.abort();
    aborted.dispose();
    stopped.dispose();
  }
  return out;
}

/**
 * What the host knows about one model: the stable fields of VS Code's `LanguageModelChat`
 * (`vscode.lm.selectChatModels()`); also what the review card lists to pick from.
 */
export interface ModelInfo {
  /** Opaque model id (the provider's id, e.g. `gpt-4.1` or `claude-sonnet-4`). Sent back as `result.model`. */
  id: string;
  /** Human-readable name. */
  name: string;
  /** Family, e.g. `claude-sonnet`, `gpt-4.1`, `gemini-flash`. */
  family: string;
  /** Vendor (the provider's id, e.g. `copilot`). */
  vendor: string;
  /** Maximum input tokens of one request, when known. */
  maxInputTokens?: number;
  /** Accepts image input (`true` only when VS Code says so). */
  imageInput?: boolean;
  /** Supports tool calling (`false` only when VS Code says so). */
  toolCalling?: boolean;
}
