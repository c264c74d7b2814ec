/**
 * The script and stylesheet of a webview of this extension, as the document takes them
 * (`shared/webviewHtml.ts`): their text, read from the extension's files as the panel opens (a fraction
 * of a millisecond; not kept, so a rebuilt file is never served stale), so the webview fetches nothing
 * before its first field; their URI when the text cannot be written into the document or the file
 * cannot be read, said in the log (a file that is missing leaves the panel blank).
 */
import { readFileSync } from 'node:fs';
import type * as vscode from 'vscode';
import { inlineSafe, type PanelAsset } from './webviewHtml';

/**
 * The asset `file` of `webview`. Never throws.
 * @param file the file's URI (a `file:` URI inside the extension; any other scheme is given as URI)
 * @param kind `script` or `style`
 * @param warn told, in one sentence, why an asset is given as URI
 * @returns `{text}` (a leading byte-order mark removed) when it can be written into the document, else
 *   `{uri}` (the webview's URI of it)
 */
export function webviewAsset(
  webview: vscode.Webview,
  file: vscode.Uri,
  kind: 'script' | 'style',
  warn?: (text: string) => void,
): PanelAsset {
  const byUri = (): PanelAsset => ({ uri: webview.asWebviewUri(file).toString() });
  const linked = (why: string): PanelAsset => {
    warn?.(`The webview ${kind} ${file.path.split('/').pop()} is loaded by URI: ${why}`);
    return byUri();
  };
  if (file.scheme !== 'file') return byUri();
  let text: string;
  try {
    text = readFileSync(file.fsPath, 'utf8');
  } catch (e) {
    return linked(
      `it could not be read (${(e as NodeJS.ErrnoException).code ?? String(e)}); reinstall the extension if the panel stays blank`,
    );
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return inlineSafe(text, kind) ? { text } : linked(`its text holds a sequence that would end its <${kind}> element early`);
}
