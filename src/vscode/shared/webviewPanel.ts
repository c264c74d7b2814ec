/**
 * A webview panel of this extension: scripts on, command URIs off, resources only from
 * `dist/webview` and `media`, and the strict-CSP document of `shared/webviewHtml.ts` with a fresh nonce,
 * one script and one stylesheet (written into it, `webviewAssets.ts`), and optionally the script's
 * first message as a JSON data block. The round panel and the result view are both made here.
 */
import * as vscode from 'vscode';
import { panelHtml } from './webviewHtml';
import { nonce } from './nonce';
import { webviewAsset } from './webviewAssets';

/** What differs between the webviews. */
export interface WebviewPanelOptions {
  viewType: string;
  title: string;
  /** The script's file name in `dist/webview/`, e.g. `roundPanel.js`. */
  script: string;
  /**
   * A second script in `dist/webview/`, after the first (the app view's bridge, needed once the app
   * first speaks), given by URI: the webview fetches it while the first script's work goes on (the
   * app's document loading), and the document it is sent is that much smaller (670 KB for the bridge).
   */
  laterScript?: string;
  /** The stylesheet's file name in `media/`. */
  style: string;
  /** The document's `<title>` and the test id of its root (see `panelHtml`). */
  documentTitle?: string;
  testId?: string;
  /** Keep the page alive while hidden (a form being typed into). */
  retainContextWhenHidden?: boolean;
  /** Where it opens (default: the active column; a panel asked from chat opens beside the chat). */
  viewColumn?: vscode.ViewColumn;
  /** Open without taking the focus (default false: the panel takes it). */
  preserveFocus?: boolean;
  /** Told why the script or stylesheet is loaded by URI rather than written into the document (the log's warning). */
  warn?: (text: string) => void;
  /** The script's first message, written into the document (`shared/webviewHtml.ts`, INITIAL_MESSAGE_ID) instead of posted. */
  initialMessage?: unknown;
  /** The first message made for the panel's webview (it may hold the webview's URIs); wins over `initialMessage`. */
  initialMessageFor?: (webview: vscode.Webview) => unknown;
  /** The one origin the document may frame (the app view's app server, `shared/webviewHtml.ts`). */
  frameSrc?: string;
}

/**
 * Open a webview panel (in the active column unless told otherwise), its document set (see the module comment).
 * @throws Error when the document cannot be written (`panelHtml`); the panel is then closed again
 */
export function openWebviewPanel(extensionUri: vscode.Uri, o: WebviewPanelOptions): vscode.WebviewPanel {
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const webviewDir = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  const panel = vscode.window.createWebviewPanel(
    o.viewType,
    o.title,
    { viewColumn: o.viewColumn ?? vscode.ViewColumn.Active, preserveFocus: o.preserveFocus ?? false },
    {
      enableScripts: true,
      enableCommandUris: false,
      retainContextWhenHidden: o.retainContextWhenHidden ?? false,
      localResourceRoots: [webviewDir, media],
    },
  );
  try {
    setPanelDocument(panel, extensionUri, o);
  } catch (e) {
    panel.dispose();
    throw e;
  }
  return panel;
}

/**
 * Write the document of `panel` (again): the page reloads. The round panel does it once a card frames an
 * app (SEP-3118), whose origin its CSP then allows (`o.frameSrc`).
 * @throws Error when the document cannot be written (`panelHtml`)
 */
export function setPanelDocument(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, o: WebviewPanelOptions): void {
  const media = vscode.Uri.joinPath(extensionUri, 'media');
  const webviewDir = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
  panel.webview.html = panelHtml({
    cspSource: panel.webview.cspSource,
    nonce: nonce(),
    script: webviewAsset(panel.webview, vscode.Uri.joinPath(webviewDir, o.script), 'script', o.warn),
    laterScript: o.laterScript ? { uri: panel.webview.asWebviewUri(vscode.Uri.joinPath(webviewDir, o.laterScript)).toString() } : undefined,
    style: webviewAsset(panel.webview, vscode.Uri.joinPath(media, o.style), 'style', o.warn),
    title: o.documentTitle,
    testId: o.testId,
    initialMessage: o.initialMessageFor ? o.initialMessageFor(panel.webview) : o.initialMessage,
    frameSrc: o.frameSrc,
    l10n: { language: vscode.env.language, bundle: vscode.l10n.bundle },
  });
}
