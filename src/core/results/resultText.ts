/**
 * Plain-text / Markdown rendering of complete results, for the CLI and for documents in the editor.
 * Tolerant by design: an unknown content block becomes a placeholder and the rest is still shown
 * (docs/field-cases.md, F12); `structuredContent` is shown when `content` is empty, and offered beside a
 * non-empty `content` (docs/field-cases.md, F13). Links are shown, never fetched.
 *
 * Spec: MCP 2026-07-28 "Tools" (CallToolResult, content blocks, structuredContent),
 * "Prompts" (GetPromptResult), "Resources" (ReadResourceResult).
 */

type Json = Record<string, unknown>;

/** A rendered block: text to show, plus what a richer UI may do with it. */
export type RenderedBlock =
  | { kind: 'text'; text: string }
  | { kind: 'image' | 'audio'; mimeType: string; data: string }
  | { kind: 'link'; label: string; uri: string; mimeType?: string }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string }
  | { kind: 'structured'; json: unknown }
  | { kind: 'unsupported'; type: string };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** One content block → a rendered block (never throws). */
export function renderBlock(block: unknown): RenderedBlock {
  const b = (block && typeof block === 'object' ? block : {}) as Json;
  switch (b.type) {
    case 'text':
      return { kind: 'text', text: str(b.text) ?? '' };
    case 'image':
    case 'audio':
      return { kind: b.type, mimeType: str(b.mimeType) ?? 'application/octet-stream', data: str(b.data) ?? '' };
    case 'resource_link':
      return { kind: 'link', label: str(b.title) ?? str(b.name) ?? str(b.uri) ?? 'link', uri: str(b.uri) ?? '', mimeType: str(b.mimeType) };
    case 'resource': {
      const r = (b.resource ?? {}) as Json;
      return { kind: 'resource', uri: str(r.uri) ?? '', mimeType: str(r.mimeType), text: str(r.text), blob: str(r.blob) };
    }
    default:
      return { kind: 'unsupported', type: typeof b.type === 'string' ? b.type : typeof block };
  }
}

/**
 * The blocks of a tool result: its content, and its `structuredContent` (any JSON value) as a
 * structured block, first when `content` is empty, last otherwise.
 */
export function toolResultBlocks(result: Json): RenderedBlock[] {
  const content = Array.isArray(result.content) ? result.content.map(renderBlock) : [];
  if (!('structuredContent' in result) || result.structuredContent === undefined) return content;
  return [...content, { kind: 'structured', json: result.structuredContent }];
}

/** A rendered block as Markdown-ish plain text (no HTML; server text is never interpreted). */
export function blockToText(b: RenderedBlock): string {
  switch (b.kind) {
    case 'text':
      return b.text;
    case 'image':
    case 'audio':
      return `[${b.kind} ${b.mimeType}, ${Math.floor((b.data.length * 3) / 4)} bytes]`;
    case 'link':
      return `[link] ${b.label} <${b.uri}>${b.mimeType ? ` (${b.mimeType})` : ''}`;
    case 'resource':
      return b.text !== undefined ? `[resource ${b.uri}]\n${b.text}` : `[resource ${b.uri}${b.mimeType ? ` ${b.mimeType}` : ''}, binary]`;
    case 'structured':
      return JSON.stringify(b.json, null, 2);
    case 'unsupported':
      return `[unsupported content: ${b.type}]`;
  }
}

/**
 * A whole complete result as text.
 * @param method which request produced it (shapes differ per method)
 */
export function resultToText(method: 'tools/call' | 'prompts/get' | 'resources/read', result: Json): string {
  switch (method) {
    case 'tools/call': {
      const blocks = toolResultBlocks(result);
      const body = blocks.map(blockToText).join('\n');
      return (result.isError === true ? '[tool reported an error]\n' : '') + (body || '(empty result)');
    }
    case 'prompts/get': {
      const msgs = Array.isArray(result.messages) ? (result.messages as Json[]) : [];
      const description = str(result.description);
      const head = description ? `${description}\n\n` : '';
      return head + msgs.map((m) => `## ${str(m.role) ?? '?'}\n\n${blockToText(renderBlock(m.content))}`).join('\n\n');
    }
    case 'resources/read': {
      const contents = Array.isArray(result.contents) ? (result.contents as Json[]) : [];
      return contents
        .map((c) => (str(c.text) !== undefined ? (c.text as string) : `[binary ${str(c.mimeType) ?? ''} ${str(c.uri) ?? ''}]`))
        .join('\n');
    }
  }
}
