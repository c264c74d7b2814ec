/**
 * What the result view shows, as data: a header (server, what was called, era, rounds, times,
 * status) and the result's blocks, each as what it is. Shared by the extension, which builds it
 * (`resultViewBuild.ts`), and the result view's webview, which renders it with `textContent` only;
 * and the messages the webview may send back, checked here before the extension acts on any.
 *
 * Only types and pure checks: the webview bundles this module (no ajv, no Node, no `vscode`).
 *
 * Spec: MCP 2026-07-28 "Tools" (content blocks, `structuredContent`, `outputSchema`, `isError`),
 * "Prompts" (messages), "Resources" (contents).
 */

/** The header of a result. Times in ms. */
export interface ResultHeader {
  server: string;
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** Tool or prompt name, or resource URI. */
  target: string;
  era?: 'modern' | 'legacy';
  /** Number of `input_required` rounds answered. */
  rounds?: number;
  totalMs?: number;
  waitingMs?: number;
  /** `complete`, or `toolError` for a tool result with `isError: true`. */
  status: 'complete' | 'toolError';
  /** The call's history entry, when it has one. */
  historyId?: string;
  /** When the call started (ms since the epoch), for a result opened again from the history. */
  startedAt?: number;
}

/** The outcome of checking `structuredContent` against the tool's `outputSchema`. */
export type SchemaCheckView =
  { state: 'valid' } | { state: 'invalid'; errors: string[] } | { state: 'missing' } | { state: 'unusable'; error: string };

/** One block of the result view. */
export type ResultBlockView =
  /** A text block: rendered as Markdown when it reads as Markdown (and is not too long), else as text. */
  | { kind: 'text'; text: string; markdown: boolean; truncatedChars?: number }
  | { kind: 'image' | 'audio'; mimeType: string; data: string }
  | { kind: 'omitted'; what: string }
  /** A `resource_link`: a button; the extension opens it (after consent for web links). */
  | { kind: 'link'; label: string; uri: string; mimeType?: string; description?: string }
  /** An embedded resource (or a read resource's content): shown, and openable as a document by its index. */
  | {
      kind: 'resource';
      index: number;
      uri: string;
      mimeType?: string;
      text?: string;
      markdown?: boolean;
      truncatedChars?: number;
      binaryChars?: number;
    }
  /** A prompt message's role, before its content. */
  | { kind: 'role'; role: string }
  /**
   * `structuredContent` as a foldable JSON tree, with the `outputSchema` check when there is one;
   * `repeatsText` (no tree) when it only repeats a text block of the result, shown once as that text.
   */
  | { kind: 'structured'; json?: unknown; tooLargeChars?: number; tooDeep?: number; repeatsText?: true; check?: SchemaCheckView }
  | { kind: 'unsupported'; type: string };

/** Everything the result view shows. */
export interface ResultViewData {
  header: ResultHeader;
  /** A prompt's description. */
  description?: string;
  blocks: ResultBlockView[];
}

/** Extension → webview. */
export interface RenderResultMessage {
  type: 'render';
  view: ResultViewData;
}

/** Webview → extension: loaded, the two buttons, a link or an embedded resource clicked. */
export type FromResultView =
  | { type: 'ready' }
  | { type: 'copyJson' }
  | { type: 'openRaw' }
  | { type: 'openLink'; uri: string }
  | { type: 'openResource'; index: number };

/**
 * Check a message from the result view's webview (exactly the expected keys and types, bounded).
 * @returns the message, or `undefined` for anything else (ignored)
 */
export function parseResultViewMessage(m: unknown): FromResultView | undefined {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return undefined;
  const o = m as Record<string, unknown>;
  const keys = Object.keys(o);
  switch (o.type) {
    case 'ready':
    case 'copyJson':
    case 'openRaw':
      return keys.length === 1 ? { type: o.type } : undefined;
    case 'openLink':
      return keys.length === 2 && typeof o.uri === 'string' && o.uri.length <= 10_000 ? { type: 'openLink', uri: o.uri } : undefined;
    case 'openResource':
      return keys.length === 2 && typeof o.index === 'number' && Number.isSafeInteger(o.index) && o.index >= 0
        ? { type: 'openResource', index: o.index }
        : undefined;
    default:
      return undefined;
  }
}
