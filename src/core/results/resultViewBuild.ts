/**
 * Builds the result view's data (`resultView.ts`) from a complete result: each block as what it is,
 * `structuredContent` checked against the tool's `outputSchema` (ajv, here in the extension; the
 * webview only shows the outcome), and every part bounded so that a result of many megabytes neither
 * freezes the view nor floods the webview: long texts are cut (the whole stays in "Open raw"), a
 * huge structured value or media block is named instead of sent.
 *
 * Spec: MCP 2026-07-28 "Tools" (content, `structuredContent`, `outputSchema`: "servers MUST provide
 * structured results that conform to this schema"), "Prompts", "Resources"; docs/field-cases.md F12, F13.
 */
import { validateToolArguments } from '../arguments/toolArguments';
import { imageSize } from '../util/imageSize';
import { isPlainObject, jsonSize, nestsDeeperThan } from '../util/json';
import type { MrtrMethod } from '../inputs/inputProvider';
import { looksLikeMarkdown, sniffBudget } from './markdownSniff';
import { structuredRepeatsText } from './structuredEcho';
import { renderBlock, toolResultBlocks, type RenderedBlock } from './resultText';
import type { ResultBlockView, ResultViewData, SchemaCheckView } from './resultView';

/** Longest text block shown (UTF-16 code units); the rest is cut and counted. */
export const MAX_SHOWN_TEXT = 100_000;
/** Most text of one result sent to the view, all blocks together (UTF-16 code units); later texts are named instead. */
export const MAX_SHOWN_RESULT_TEXT = 2_000_000;
/** Most pixels of an image drawn in the view (its declared width × height; 25 megapixels). */
export const MAX_SHOWN_PIXELS = 25_000_000;
/** Largest image or audio block sent to the view (base64 characters). */
export const MAX_SHOWN_MEDIA = 8_000_000;
/** Largest `structuredContent` shown as a tree (its JSON text, characters). */
export const MAX_SHOWN_STRUCTURED = 1_000_000;
/** Deepest `structuredContent` shown as a tree (levels of objects and arrays). */
export const MAX_SHOWN_DEPTH = 100;
/** Deepest `structuredContent` checked against `outputSchema`. */
export const MAX_CHECKED_DEPTH = 1000;

/** A call's result with what the header says about it. Times in ms. */
export interface ShownCall {
  server: string;
  method: MrtrMethod;
  target: string;
  result: Record<string, unknown>;
  era?: 'modern' | 'legacy';
  rounds?: number;
  totalMs?: number;
  waitingMs?: number;
  historyId?: string;
  startedAt?: number;
  /** The tool's `outputSchema`, when it declares one. */
  outputSchema?: unknown;
}

/** An embedded resource of a result (tool `resource` blocks, prompt message resources, read contents), by index. */
export interface EmbeddedResource {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

function contentsOf(result: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(result.contents) ? result.contents.filter(isPlainObject) : [];
}

function messagesOf(result: Record<string, unknown>): Record<string, unknown>[] {
  return Array.isArray(result.messages) ? result.messages.filter(isPlainObject) : [];
}

/** The result's blocks in display order, with a prompt message's role before its content. */
function blocksOf(call: ShownCall): (RenderedBlock | { kind: 'role'; role: string })[] {
  if (call.method === 'tools/call') return toolResultBlocks(call.result);
  if (call.method === 'prompts/get')
    return messagesOf(call.result).flatMap((m) => [
      { kind: 'role' as const, role: typeof m.role === 'string' ? m.role : '?' },
      renderBlock(m.content),
    ]);
  return contentsOf(call.result).map((c) => ({
    kind: 'resource' as const,
    uri: String(c.uri ?? call.target),
    mimeType: typeof c.mimeType === 'string' ? c.mimeType : undefined,
    text: typeof c.text === 'string' ? c.text : undefined,
    blob: typeof c.blob === 'string' ? c.blob : undefined,
  }));
}

/** The embedded resources of a result, in the order of their `index` in the view. */
export function embeddedResources(call: ShownCall): EmbeddedResource[] {
  return blocksOf(call).filter((b): b is Extract<RenderedBlock, { kind: 'resource' }> => b.kind === 'resource');
}

function cut(text: string): { text: string; truncatedChars?: number } {
  return text.length > MAX_SHOWN_TEXT ? { text: text.slice(0, MAX_SHOWN_TEXT), truncatedChars: text.length - MAX_SHOWN_TEXT } : { text };
}

/** The outcome of checking `structuredContent` against `outputSchema`. */
export function checkStructured(outputSchema: unknown, result: Record<string, unknown>): SchemaCheckView | undefined {
  if (outputSchema === undefined) return undefined;
  if (!('structuredContent' in result) || result.structuredContent === undefined)
    return result.isError === true ? undefined : { state: 'missing' };
  if (nestsDeeperThan(result.structuredContent, MAX_CHECKED_DEPTH))
    return { state: 'unusable', error: `structuredContent nests more than ${MAX_CHECKED_DEPTH} levels deep: too deep to check` };
  const r = validateToolArguments(outputSchema, result.structuredContent);
  if (r.ok) return { state: 'valid' };
  if (r.schemaError) return { state: 'unusable', error: r.message };
  return { state: 'invalid', errors: r.errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)) };
}

/**
 * Why an image or audio block is not drawn, or `undefined` when it may be: past {@link MAX_SHOWN_MEDIA}
 * base64 characters, or an image whose header declares more than {@link MAX_SHOWN_PIXELS} (read
 * without decoding it, `util/imageSize.ts`). Used by the result view and the round panel's sampling card.
 * @returns e.g. `image (image/png, 20000 × 20000 pixels): too large to show here`
 */
export function mediaTooLarge(b: { kind: 'image' | 'audio'; mimeType: string; data: string }): string | undefined {
  const bytes = Math.floor((b.data.length * 3) / 4);
  if (b.data.length > MAX_SHOWN_MEDIA) return `${b.kind} (${b.mimeType}, ${bytes} bytes): too large to show here`;
  const size = b.kind === 'image' ? imageSize(b.mimeType, b.data) : undefined;
  if (size && size.width * size.height > MAX_SHOWN_PIXELS)
    return `image (${b.mimeType}, ${size.width} × ${size.height} pixels): too large to show here`;
  return undefined;
}

/** An image or audio block as the view gets it, or a placeholder naming it ({@link mediaTooLarge}). */
function mediaBlock(b: { kind: 'image' | 'audio'; mimeType: string; data: string }): ResultBlockView {
  const why = mediaTooLarge(b);
  return why ? { kind: 'omitted', what: `${why}; use Open raw` } : b;
}

/**
 * The data of the result view for `call` (never throws on a malformed result: unknown parts become
 * placeholders). Bounded whatever the result's size: each text cut at {@link MAX_SHOWN_TEXT}, past
 * {@link MAX_SHOWN_RESULT_TEXT} in all a text block is named instead of sent, and Markdown sniffing
 * looks at no more than one budget's characters for the whole result (`markdownSniff.ts`).
 * @param budget the result's sniffing budget (a fresh one when omitted; tests pass theirs to count the work)
 */
export function buildResultView(call: ShownCall, budget = sniffBudget()): ResultViewData {
  const blocks: ResultBlockView[] = [];
  let resourceIndex = 0;
  let shownText = 0;
  const check = call.method === 'tools/call' ? checkStructured(call.outputSchema, call.result) : undefined;
  const repeats = call.method === 'tools/call' && structuredRepeatsText(call.result);
  for (const b of blocksOf(call)) {
    switch (b.kind) {
      case 'text': {
        if (shownText >= MAX_SHOWN_RESULT_TEXT) {
          blocks.push({
            kind: 'omitted',
            what: `text (${b.text.length} characters): past what the view shows of one result; use Open raw`,
          });
          break;
        }
        const shown = cut(b.text);
        shownText += shown.text.length;
        blocks.push({ kind: 'text', ...shown, markdown: b.text.length <= MAX_SHOWN_TEXT && looksLikeMarkdown(b.text, budget) });
        break;
      }
      case 'image':
      case 'audio':
        blocks.push(mediaBlock(b));
        break;
      case 'resource': {
        const mime = b.mimeType;
        const view: ResultBlockView = { kind: 'resource', index: resourceIndex++, uri: b.uri, ...(mime ? { mimeType: mime } : {}) };
        if (b.text !== undefined && shownText >= MAX_SHOWN_RESULT_TEXT) {
          blocks.push({
            kind: 'omitted',
            what: `resource (${b.text.length} characters): past what the view shows of one result; use Open raw`,
          });
          break;
        }
        if (b.text !== undefined) {
          const shown = cut(b.text);
          shownText += shown.text.length;
          Object.assign(view, shown, {
            markdown: b.text.length <= MAX_SHOWN_TEXT && (mime === 'text/markdown' || (!mime && looksLikeMarkdown(b.text, budget))),
          });
        } else view.binaryChars = b.blob?.length ?? 0;
        blocks.push(view);
        break;
      }
      case 'structured': {
        // The same data as a text block (the spec's serialized mirror): shown once, as the text; the
        // outputSchema check stays (Open raw keeps everything).
        if (repeats) {
          blocks.push({ kind: 'structured', repeatsText: true, ...(check ? { check } : {}) });
          break;
        }
        const deep = nestsDeeperThan(b.json, MAX_SHOWN_DEPTH);
        const size = deep ? Number.POSITIVE_INFINITY : jsonSize(b.json);
        const shown = deep ? { tooDeep: MAX_SHOWN_DEPTH } : size > MAX_SHOWN_STRUCTURED ? { tooLargeChars: size } : { json: b.json };
        blocks.push({ kind: 'structured', ...shown, ...(check ? { check } : {}) });
        break;
      }
      default:
        blocks.push(b);
    }
  }
  // A declared outputSchema with no structuredContent is a mismatch too: say so, do not hide it.
  if (check?.state === 'missing') blocks.push({ kind: 'structured', check });
  const r = call.result;
  return {
    header: {
      server: call.server,
      method: call.method,
      target: call.target,
      status: call.method === 'tools/call' && r.isError === true ? 'toolError' : 'complete',
      ...(call.era ? { era: call.era } : {}),
      ...(call.rounds !== undefined ? { rounds: call.rounds } : {}),
      ...(call.totalMs !== undefined ? { totalMs: Math.round(call.totalMs) } : {}),
      ...(call.waitingMs !== undefined ? { waitingMs: Math.round(call.waitingMs) } : {}),
      ...(call.historyId ? { historyId: call.historyId } : {}),
      ...(call.startedAt ? { startedAt: call.startedAt } : {}),
    },
    ...(call.method === 'prompts/get' && typeof r.description === 'string' ? { description: cut(r.description).text } : {}),
    blocks,
  };
}
