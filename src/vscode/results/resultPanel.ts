/**
 * The result view in the editor: one webview panel per result, with the same strict CSP and nonce
 * as the round panel (`shared/webviewPanel.ts`) and data only by message (`core/results/resultView.ts`).
 * Its messages are checked (`parseResultViewMessage`) and act only on what this result holds: a link
 * is opened only when the result contains it (and only after consent, `links.ts`), an embedded
 * resource only by its index, "Copy as JSON" and "Open raw" only on this result.
 */
import * as vscode from 'vscode';
import { stringsIn } from '../../core/history/secrets';
import { parseResultViewMessage, type FromResultView, type RenderResultMessage } from '../../core/results/resultView';
import { errorMessage } from '../../core/util/errors';
import { buildResultView, embeddedResources, type ShownCall } from '../../core/results/resultViewBuild';
import { notificationText } from '../shared/notificationText';
import { openWebviewPanel } from '../shared/webviewPanel';
import { languageForMime, type ResultDocuments } from './resultDocuments';

/** The view type of result views. */
export const RESULT_VIEW_TYPE = 'mcpRoundtrip.result';

/** What a link click in a result asks the host to do (`links.ts`). */
export type LinkHandler = (uri: string, server: string) => void;

/** A safe file name for a result document. */
function fileName(s: string): string {
  return s.split(/[\\/]/).filter(Boolean).pop() ?? 'result';
}

/**
 * Open the result view of `call`.
 * @param documents where "Open raw" and "Open as document" open their text
 * @param warn the log's warning (why the view's script or stylesheet is loaded by URI)
 */
export function openResultPanel(
  extensionUri: vscode.Uri,
  documents: ResultDocuments,
  onLink: LinkHandler,
  call: ShownCall,
  warn?: (text: string) => void,
): vscode.WebviewPanel {
  const panel = openWebviewPanel(extensionUri, {
    viewType: RESULT_VIEW_TYPE,
    title: `${call.target} — ${call.server}`,
    script: 'resultView.js',
    style: 'resultView.css',
    documentTitle: 'Result',
    testId: 'result-view',
    warn,
  });
  const view: RenderResultMessage = { type: 'render', view: buildResultView(call) };
  // Links the result holds anywhere (resource_link blocks, Markdown in its texts): nothing else is opened.
  let strings: string[] | undefined;
  const contains = (uri: string) => (strings ??= textsOf(call.result)).some((s) => s.includes(uri));
  const raw = () => JSON.stringify(call.result, null, 2);
  panel.webview.onDidReceiveMessage(async (m: unknown) => {
    const msg = parseResultViewMessage(m);
    if (!msg) return;
    try {
      await act(msg);
    } catch (e) {
      // A result nested too deeply for JSON.stringify, a document VS Code refuses: say so, never throw.
      void vscode.window.showErrorMessage(notificationText(`${call.target} (${call.server}): ${errorMessage(e)}`));
    }
  });
  const act = async (msg: FromResultView): Promise<void> => {
    switch (msg.type) {
      case 'ready':
        return void panel.webview.postMessage(view);
      case 'copyJson':
        await vscode.env.clipboard.writeText(raw());
        return void panel.webview.postMessage({ type: 'copied' });
      case 'openRaw':
        return documents.open(`${fileName(call.target)}.result.json`, raw(), 'json');
      case 'openLink':
        if (/^[a-z][a-z0-9+.-]*:/i.test(msg.uri) && contains(msg.uri)) onLink(msg.uri, call.server);
        return;
      case 'openResource': {
        const r = embeddedResources(call)[msg.index];
        if (!r) return;
        if (r.text !== undefined) return documents.open(fileName(r.uri), r.text, languageForMime(r.mimeType, r.text));
        return void vscode.window.showInformationMessage(
          notificationText(
            vscode.l10n.t('{0} is binary ({1}); Open raw shows its base64 data.', fileName(r.uri), r.mimeType ?? vscode.l10n.t('no type')),
          ),
        );
      }
    }
  };
  return panel;
}

/** Every string of a result (where a link it shows must come from), or none when it nests too deeply to walk. */
function textsOf(result: Record<string, unknown>): string[] {
  try {
    return stringsIn(result);
  } catch {
    return [];
  }
}
