/**
 * The app view's page for tests in a bare Chromium (no VS Code): its document as the extension writes it
 * (`src/vscode/shared/webviewHtml.ts` for the app view: the CSP with nonce scripts and `frame-src` only
 * the app server's origin, the view's script in the document, the bridge by URI and deferred), with a
 * stand-in for `acquireVsCodeApi` that records what the view posts, and the `open` message the
 * extension sends.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { panelCsp } from '../../src/vscode/shared/webviewHtml';
import { repoRoot, waitFor } from './harness';

const NONCE = 'n0nce';

/** The bridge bundle, for the test's server to send at the URL given to {@link appViewDocument}. */
export function appBridgeScript(): string {
  return readFileSync(path.join(repoRoot, 'dist', 'webview', 'appBridge.js'), 'utf8');
}

/**
 * The app view's document framing apps of `appOrigin`, its bridge at `bridgeUrl`.
 * @param setup a script run before the view's (under the nonce), e.g. a listener of the test's own
 */
export function appViewDocument(appOrigin: string, bridgeUrl: string, setup = ''): string {
  const view = readFileSync(path.join(repoRoot, 'dist', 'webview', 'appView.js'), 'utf8');
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${panelCsp('', NONCE, true, appOrigin)}">
<title>App</title></head><body><main id="root"></main>
<script nonce="${NONCE}">
window.__posted = [];
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => undefined, setState: () => {} });
${setup}
</script>
<script nonce="${NONCE}">${view}</script>
<script nonce="${NONCE}" src="${bridgeUrl}" defer></script></body></html>`;
}

/** A message the view posted to the extension. */
export type Posted = { type: string; method?: string; params?: { url?: string }; reason?: string; text?: string };

/** What the view has posted so far. */
export function postedBy(page: Page): Promise<Posted[]> {
  return page.evaluate(() => (window as unknown as { __posted?: Posted[] }).__posted ?? []);
}

/** Wait for the view's `ready`, then send it `open` for the app at `url` as the extension does. */
export async function openApp(page: Page, url: string, tool: string): Promise<void> {
  await waitFor('the app view to say ready', async () => (await postedBy(page)).some((m) => m.type === 'ready') || undefined);
  await page.evaluate(
    ([u, t]) =>
      window.postMessage({ type: 'open', url: u, allow: '', tool: { name: t }, arguments: {}, theme: 'dark', hostVersion: '0.0.0' }, '*'),
    [url, tool],
  );
}
