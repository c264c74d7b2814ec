/**
 * Sampling content as the review card shows and edits it: content blocks as card data, and the
 * person's edits applied to the request (text blocks and the system prompt) and to the completion.
 *
 * Spec: MCP 2026-07-28 "Sampling": `SamplingMessage.content` is one block or an array of blocks;
 * the person may see and edit the prompt and the completion (docs/field-cases.md, F6).
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { isPlainObject } from '../../../core/util/json';
import { shownText } from '../../../core/util/shownText';
import { mediaTooLarge } from '../../../core/results/resultViewBuild';
import type { BlockView, MessageEdit, SamplingInputView, SamplingMessageView } from '../protocol';

/** Longest JSON shown for a content block the card cannot render (tool_use, tool_result, ...). */
export const MAX_BLOCK_JSON = 20_000;

/** Content as a list of blocks (the spec allows one block or an array). */
import { contentBlocks } from '../../../core/sampling/modelNeeds';

/**
 * One sampling content block as card data: text, image and audio as such (data stays base64, shown
 * only as a `data:` URI; one too large to draw is named instead, `mediaTooLarge`), anything else (tool_use, tool_result, unknown) as read-only JSON, cut at
 * {@link MAX_BLOCK_JSON} characters.
 */
export function blockView(block: unknown): BlockView {
  if (isPlainObject(block)) {
    if (block.type === 'text' && typeof block.text === 'string') return { kind: 'text', text: block.text };
    if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string' && typeof block.mimeType === 'string') {
      const media = { kind: block.type === 'image' ? ('image' as const) : ('audio' as const), mimeType: block.mimeType, data: block.data };
      // A huge image (bytes, or pixels its header declares) would grow the webview by gigabytes: named instead.
      const why = mediaTooLarge(media);
      return why ? { kind: 'other', type: block.type, json: why } : media;
    }
  }
  let json: string;
  try {
    json = JSON.stringify(block, null, 2) ?? String(block);
  } catch {
    json = String(block);
  }
  return {
    kind: 'other',
    type: isPlainObject(block) && typeof block.type === 'string' ? block.type : 'unknown',
    json: shownText(json, MAX_BLOCK_JSON),
  };
}

/** The messages of a sampling request as card data (a malformed message shows as role `?`, no blocks). */
export function samplingMessagesView(params: CreateMessageRequestParams): SamplingMessageView[] {
  const messages = Array.isArray(params.messages) ? (params.messages as unknown[]) : [];
  return messages.map((m) => ({
    role: isPlainObject(m) && typeof m.role === 'string' ? m.role : '?',
    blocks: contentBlocks(isPlainObject(m) ? m.content : undefined).map(blockView),
  }));
}

/**
 * What the review card shows of a sampling request: system prompt, messages, limits, tools (name and
 * description), `includeContext` and the model hints' names; each only when the request has it.
 */
export function samplingRequestView(
  params: CreateMessageRequestParams,
): Pick<
  SamplingInputView,
  'systemPrompt' | 'messages' | 'maxTokens' | 'temperature' | 'stopSequences' | 'tools' | 'includeContext' | 'hints'
> {
  const p = params as CreateMessageRequestParams & Record<string, unknown>;
  const hints =
    isPlainObject(p.modelPreferences) && Array.isArray(p.modelPreferences.hints)
      ? p.modelPreferences.hints.map((h) => (isPlainObject(h) && typeof h.name === 'string' ? h.name : '')).filter((n) => n !== '')
      : [];
  const tools = Array.isArray(p.tools)
    ? p.tools
        .filter(isPlainObject)
        .map((t) => ({ name: String(t.name), ...(typeof t.description === 'string' ? { description: t.description } : {}) }))
    : [];
  return {
    ...(typeof p.systemPrompt === 'string' ? { systemPrompt: p.systemPrompt } : {}),
    messages: samplingMessagesView(p),
    ...(typeof p.maxTokens === 'number' ? { maxTokens: p.maxTokens } : {}),
    ...(typeof p.temperature === 'number' ? { temperature: p.temperature } : {}),
    ...(Array.isArray(p.stopSequences) ? { stopSequences: p.stopSequences.filter((s): s is string => typeof s === 'string') } : {}),
    ...(tools.length ? { tools } : {}),
    ...(typeof p.includeContext === 'string' ? { includeContext: p.includeContext } : {}),
    ...(hints.length ? { hints } : {}),
  };
}

/** Replace the text of one text block; the content keeps its shape (single block or array). */
function withText(content: unknown, index: number, text: string): { content: unknown; ok: boolean } {
  const blocks = contentBlocks(content);
  const b = blocks[index];
  if (!isPlainObject(b) || b.type !== 'text' || typeof b.text !== 'string') return { content, ok: false };
  const copy = blocks.slice();
  copy[index] = { ...b, text };
  return { content: Array.isArray(content) ? copy : copy[0], ok: true };
}

/**
 * The sampling request the person approved: their edited system prompt (an empty one is left out
 * when the server sent none) and edited text blocks. Only text blocks can be edited; edits that point
 * elsewhere are counted in `rejected` and not applied. Everything else (maxTokens, tools, ...) is kept.
 */
export function applySamplingEdits(
  params: CreateMessageRequestParams,
  systemPrompt: string,
  edits: readonly MessageEdit[],
): { params: CreateMessageRequestParams; rejected: number } {
  const messages = (Array.isArray(params.messages) ? params.messages : []).map((m) => ({ ...m })) as { content: unknown }[];
  let rejected = 0;
  for (const e of edits) {
    const m = messages[e.message];
    const r = m ? withText(m.content, e.block, e.text) : { content: undefined, ok: false };
    if (!m || !r.ok) rejected++;
    else m.content = r.content;
  }
  const out: Record<string, unknown> = { ...params, messages };
  if (systemPrompt !== '' || typeof params.systemPrompt === 'string') out.systemPrompt = systemPrompt;
  return { params: out as CreateMessageRequestParams, rejected };
}

/** The completion the person sends: `texts[i]` replaces the i-th text block (extra texts are ignored). */
export function applyCompletionEdits(result: CreateMessageResult, texts: readonly string[]): CreateMessageResult {
  const blocks = contentBlocks(result.content);
  let t = 0;
  const edited = blocks.map((b) =>
    isPlainObject(b) && b.type === 'text' && typeof b.text === 'string' && t < texts.length ? { ...b, text: texts[t++] } : b,
  );
  return { ...result, content: (Array.isArray(result.content) ? edited : edited[0]) as CreateMessageResult['content'] };
}
