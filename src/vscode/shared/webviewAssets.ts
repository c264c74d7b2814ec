/**
 * The script and stylesheet of a webview of this extension, as the document takes them
 * (`roundPanel/html.ts`): their text, read once from the extension's files and kept while the file is
 * unchanged, so the webview fetches nothing before its first field; their URI when the text cannot be
 * written into the document or the file cannot be read (the webview then reports the missing file).
 */
import { readFileSync, statSync } from 'node:fs';
import type * as vscode from 'vscode';
import { inlineSafe, type PanelAsset } from '../roundPanel/html';

/** File path → its text, with the stamp (modified time and size) it was read at. */
const read = new Map<string, { stamp: string; text: string }>();

/**
 * The asset `file` of `webview`.
 * @param file the file's URI (a `file:` URI inside the extension)
 * @param kind `script` or `style`
 * @returns `{text}` when it can be written into the document, else `{uri}` (the webview's URI of it)
 */
export function webviewAsset(webview: vscode.Webview, file: vscode.Uri, kind: 'script' | 'style'): PanelAsset {
  const text = fileText(file.fsPath);
  return text !== undefined && inlineSafe(text, kind) ? { text } : { uri: webview.asWebviewUri(file).toString() };
}

function fileText(path: string): string | undefined {
  try {
    const st = statSync(path);
    const stamp = `${st.mtimeMs}:${st.size}`;
    const kept = read.get(path);
    if (kept?.stamp === stamp) return kept.text;
    const text = readFileSync(path, 'utf8');
    read.set(path, { stamp, text });
    return text;
  } catch {
    return undefined;
  }
}
