/** The webview's one handle on VS Code (`acquireVsCodeApi` may be called only once per page). */
declare function acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(state: unknown): void };

const api = acquireVsCodeApi();

/** Send a message to the extension. */
export function postToExtension(message: unknown): void {
  api.postMessage(message);
}

/**
 * The webview's state, which the workbench keeps while the panel lives, across reloads of its page.
 * One object for the whole page: set it merged with what `get` returns (initialMessage.ts keeps `initialShown` in it).
 */
export const webviewState = {
  get: (): unknown => api.getState(),
  set: (state: unknown): void => api.setState(state),
};
