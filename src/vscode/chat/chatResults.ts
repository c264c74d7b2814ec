/**
 * A tool result in `@roundtrip`'s chat response: text as Markdown (untrusted: no command links, no
 * HTML), images as references to a copy in the extension's storage, links as references (http, https
 * and file links; VS Code asks before opening an external one) or as text, everything else as text.
 * And the same result as the model reads it: the whole result as text.
 *
 * Spec: MCP 2026-07-28 "Tools" (CallToolResult content blocks, structuredContent).
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { blockToText, resultToText, toolResultBlocks, type RenderedBlock } from '../../core/results/resultText';

/** Largest image copied into storage for a reference, in bytes (decoded). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

// Raster images only: an SVG can carry script and links, and opening the copy would run them.
const IMAGE_EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** Text in a fenced block whose fence no run of backticks in the text can close. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** A server's text as Markdown that cannot run a command or carry HTML. */
function untrusted(text: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(text);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/**
 * Stream one tool result into the chat response.
 * @param imageDir where images are copied for a reference (created on demand)
 */
export async function streamToolResult(
  stream: vscode.ChatResponseStream,
  result: Record<string, unknown>,
  imageDir: vscode.Uri,
): Promise<void> {
  if (result.isError === true) stream.markdown(`**${vscode.l10n.t('The tool reported an error:')}**\n\n`);
  const blocks = toolResultBlocks(result);
  if (blocks.length === 0) stream.markdown(`_(${vscode.l10n.t('empty result')})_\n\n`);
  for (const b of blocks) await streamBlock(stream, b, imageDir);
}

async function streamBlock(stream: vscode.ChatResponseStream, b: RenderedBlock, imageDir: vscode.Uri): Promise<void> {
  switch (b.kind) {
    case 'text':
      return stream.markdown(untrusted(`${b.text}\n\n`));
    case 'image': {
      const file = await saveImage(b.mimeType, b.data, imageDir);
      if (file) return stream.reference(file);
      return stream.markdown(untrusted(`${blockToText(b)}\n\n`));
    }
    case 'link': {
      const uri = parseLink(b.uri);
      if (uri) return stream.reference(uri);
      return stream.markdown(untrusted(`${fenced(blockToText(b))}\n\n`));
    }
    case 'structured':
      return stream.markdown(untrusted(`${fenced(JSON.stringify(b.json, null, 2), 'json')}\n\n`));
    default:
      return stream.markdown(untrusted(`${fenced(blockToText(b))}\n\n`));
  }
}

/** An http, https or file link as a Uri; anything else (a server's own scheme) stays text. */
function parseLink(uri: string): vscode.Uri | undefined {
  if (!/^(https?|file):/i.test(uri)) return undefined;
  try {
    return vscode.Uri.parse(uri, true);
  } catch {
    return undefined;
  }
}

/** Copy a base64 image into `dir` (named by its digest); `undefined` when it is not a known image type or too large. */
async function saveImage(mimeType: string, base64: string, dir: vscode.Uri): Promise<vscode.Uri | undefined> {
  const ext = IMAGE_EXTENSIONS[mimeType.toLowerCase()];
  if (!ext || (base64.length * 3) / 4 > MAX_IMAGE_BYTES) return undefined;
  const bytes = Buffer.from(base64, 'base64');
  const file = vscode.Uri.joinPath(dir, `${createHash('sha256').update(bytes).digest('hex').slice(0, 24)}.${ext}`);
  try {
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(file, bytes);
    return file;
  } catch {
    return undefined;
  }
}

/** The result as the model reads it: one text part with the whole result. */
export function resultForModel(callId: string, result: Record<string, unknown>): vscode.LanguageModelToolResultPart {
  return new vscode.LanguageModelToolResultPart(callId, [new vscode.LanguageModelTextPart(resultToText('tools/call', result))]);
}
