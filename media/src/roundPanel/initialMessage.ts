/**
 * A new round panel's first message, written into its document by the extension (an inert JSON data
 * block, src/vscode/shared/webviewHtml.ts) so that the page draws it as it loads. Taken once per panel:
 * the workbench reloads a page from the same document (the editor moved to another window, the
 * webviews reloaded, a crashed renderer), whose first view is then long out of date; the webview's
 * state, which the workbench keeps across such reloads, says it was shown, and the `ready` message
 * brings the current view instead.
 */
import { INITIAL_MESSAGE_ID } from '../../../src/vscode/shared/webviewHtml';

/** The part of the webview's state this keeps (`acquireVsCodeApi().getState()`). */
export interface InitialMessageState {
  initialShown?: boolean;
}

/** The webview state's getter and setter (tests give stand-ins). */
export interface WebviewStateStore {
  get(): unknown;
  set(state: unknown): void;
}

/** What the document held: the message to handle, or why there is none to handle. */
export type InitialMessage = { message: unknown } | { none: 'absent' | 'shown before' } | { error: string };

/**
 * Take the first message out of `doc`: the data block is removed in every case; its JSON is parsed
 * only the first time the panel's page loads, and the state then records that it was shown.
 * @returns `{message}`, `{none}` (no block, or a reloaded page), or `{error}` naming what could not be read
 */
export function takeInitialMessage(doc: Pick<Document, 'getElementById'>, store: WebviewStateStore): InitialMessage {
  const block = doc.getElementById(INITIAL_MESSAGE_ID);
  if (!block) return { none: 'absent' };
  block.remove();
  const state = store.get();
  const prior = state && typeof state === 'object' ? (state as InitialMessageState) : {};
  if (prior.initialShown) return { none: 'shown before' };
  store.set({ ...prior, initialShown: true });
  try {
    return { message: JSON.parse(block.textContent ?? '') };
  } catch (e) {
    return { error: `the first view written into the page is not valid JSON (${(e as Error).message}); it comes again from the extension` };
  }
}
