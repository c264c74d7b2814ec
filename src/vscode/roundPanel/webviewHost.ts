/**
 * The {@link PanelHost} of VS Code: one webview panel, created on demand (its first view, or again
 * after the person closed it) through `shared/webviewPanel.ts` (strict CSP with a nonce, `html.ts`).
 * A new panel's first view is written into its document (`html.ts`); later views and field errors go
 * to the webview by message; the webview's messages go to `onMessage`;
 * a URL is opened with `vscode.env.openExternal` only when the panel's model asks, i.e. after the
 * person's click (docs/field-cases.md, F5). A page that the workbench showed without the focus its panel
 * was opened with says so (`UnfocusedMessage`), and the panel asks for it again, once.
 */
import * as vscode from 'vscode';
import type { FieldErrors } from '../../core/elicitation/formModel';
import type { RoundTripLog } from '../shared/roundTripLog';
import { openWebviewPanel, setPanelDocument, type WebviewPanelOptions } from '../shared/webviewPanel';
import type { PanelHost } from './panelHost';
import { isUnfocusedMessage } from './parseMessage';
import type { PanelView, SuggestionsMessage, ToWebview } from './protocol';
import { shownErrors, shownView } from './shownView';

/** The view type of round panels (and of argument panels). */
export const ROUND_PANEL_VIEW_TYPE = 'mcpRoundtrip.round';
/** How long after a panel opens (ms) its page may still ask for the focus: the workbench shows a page within 200 ms of writing it. */
const FOCUS_ASK_MS = 2000;

/**
 * A webview panel created on demand. Messages go to `onMessage`; the person closing it goes to
 * `onClosed` (closing it ourselves does not).
 */
export class WebviewHost<V extends PanelView> implements PanelHost<V> {
  private panel: vscode.WebviewPanel | undefined;
  private closing = false;
  /** Until when (epoch ms) the panel's first page may ask for the focus it was opened with (`UnfocusedMessage`). */
  private focusAskUntil = 0;
  /** The app origin the panel's document may frame (a card answered by an app, SEP-3118). */
  private frameSrc: string | undefined;
  onMessage: (m: unknown) => void = () => {};
  onClosed: () => void = () => {};

  /**
   * @param extensionUri the extension's folder (the webview's script and stylesheet are under it)
   * @param log where a webview asset loaded by URI is warned about, and ignored messages logged
   * @param titleOf the panel's tab title for a view
   */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: RoundTripLog,
    private readonly titleOf: (view: V) => string,
  ) {}

  /**
   * Show `view`, its server text cut (`shownView.ts`): in a new panel titled for it when there is none
   * (the view written into its document, which renders it as it loads: the workbench would hand a
   * posted view to the page only after its `load` event), else in the open one, whose title then
   * follows the view. An open panel not in front is revealed first (its first field then takes the
   * focus in a visible page); one in front gets the view before its new title: the workbench handles
   * the extension's messages in order, and a new tab title lays the editor's tabs out first (the bench's
   * reused-panel figure, docs/performance.md).
   */
  render(modelView: V, reveal: boolean): void {
    const view = shownView(modelView);
    const title = this.titleOf(view);
    // A call asked from chat opens beside the chat, which keeps its place and the focus (the person
    // may be typing there: a keystroke must not answer the server).
    const fromChat = view.kind === 'round' && !!view.askedFrom;
    // A card that frames an app (SEP-3118): the document's CSP must allow that one origin, so a panel
    // without it is written again (the page reloads with the current view; what was typed in its forms
    // comes back from the webview's state, media/src/roundPanel/drafts.ts).
    const origin = appOrigin(view);
    if (!this.panel) {
      this.frameSrc = origin;
      this.panel = this.create(title, fromChat ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active, fromChat, view);
      return;
    }
    if (reveal && !this.panel.active) this.panel.reveal(undefined, fromChat);
    if (origin && origin !== this.frameSrc) {
      this.frameSrc = origin;
      this.focusAskUntil = 0;
      setPanelDocument(this.panel, this.extensionUri, this.options(view));
    } else this.post({ type: 'view', view: this.withAppScript(view, this.panel.webview) });
    this.panel.title = title;
  }

  /** `view` with the app host's script URI on each card that frames an app. */
  private withAppScript(view: V, webview: vscode.Webview): V {
    if (view.kind !== 'round' || !view.items.some((i) => i.kind === 'form' && i.app)) return view;
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'appCard.js')).toString();
    return { ...view, items: view.items.map((i) => (i.kind === 'form' && i.app ? { ...i, app: { ...i.app, script } } : i)) };
  }

  /** The document's options for the panel showing `view`. */
  private options(view: V): WebviewPanelOptions {
    return {
      viewType: ROUND_PANEL_VIEW_TYPE,
      title: this.titleOf(view),
      script: 'roundPanel.js',
      style: 'roundPanel.css',
      retainContextWhenHidden: true,
      warn: (t) => this.log.warn(t),
      initialMessageFor: (webview) => ({ type: 'view', view: this.withAppScript(view, webview) }) satisfies ToWebview,
      frameSrc: this.frameSrc,
    };
  }

  get visible(): boolean {
    return !!this.panel?.visible;
  }

  reveal(): void {
    this.panel?.reveal(undefined, false);
  }

  errors(id: string, errors: FieldErrors): void {
    this.post({ type: 'errors', id, errors: shownErrors(errors) });
  }

  suggestions(message: SuggestionsMessage): void {
    this.post(message);
  }

  close(): void {
    const panel = this.panel;
    if (!panel) return;
    this.closing = true;
    try {
      panel.dispose();
    } finally {
      this.closing = false;
      this.panel = undefined;
    }
  }

  openExternal(url: string): Promise<boolean> {
    return Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true)));
  }

  debug(text: string): void {
    this.log.channel.debug(text);
  }

  private post(message: ToWebview): void {
    // The workbench drops what was posted to a page that it reloads; the new page's `ready` brings the view again.
    void this.panel?.webview.postMessage(message).then(undefined, () => undefined);
  }

  private create(title: string, viewColumn: vscode.ViewColumn, preserveFocus: boolean, view: V): vscode.WebviewPanel {
    // Switching tabs must never lose what the person typed.
    const panel = openWebviewPanel(this.extensionUri, { ...this.options(view), title, viewColumn, preserveFocus });
    this.focusAskUntil = preserveFocus ? 0 : Date.now() + FOCUS_ASK_MS;
    panel.webview.onDidReceiveMessage((m: unknown) => {
      if (!isUnfocusedMessage(m)) return this.onMessage(m);
      // Asked for again once, for the first page only, soon after the panel opened, and only while it is the
      // active editor of a focused window: later, the person may be typing elsewhere.
      if (Date.now() > this.focusAskUntil || !panel.active || !vscode.window.state.focused) return;
      this.focusAskUntil = 0;
      this.log.channel.debug(`${panel.title}: its page was shown without the focus; the focus asked again`);
      panel.reveal(undefined, false);
    });
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
      if (!this.closing) this.onClosed();
    });
    return panel;
  }
}

/** The origin of the first app a card of `view` frames, if any. */
function appOrigin(view: PanelView): string | undefined {
  if (view.kind !== 'round') return undefined;
  for (const i of view.items) if (i.kind === 'form' && i.app) return new URL(i.app.url).origin;
  return undefined;
}
