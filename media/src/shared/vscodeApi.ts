/** The webview's one handle on VS Code (`acquireVsCodeApi` may be called only once per page). */
declare function acquireVsCodeApi(): { postMessage(m: unknown): void };

const api = acquireVsCodeApi();

/** Send a message to the extension. */
export function postToExtension(message: unknown): void {
  api.postMessage(message);
}
