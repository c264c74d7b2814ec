/**
 * ext-apps' app bridge for the app view, in a bundle of its own (`dist/webview/appBridge.js`, a browser
 * IIFE that registers `window.mcpRoundtripAppBridge`): most of the app view's code (the bridge with zod),
 * so the view's own script stays small and frames the app before this is even compiled: this is the
 * document's second script; `load()` evaluates the modules when the app first speaks.
 */
import type * as AppBridgeModule from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };

/** What this bundle registers. */
export interface AppBridgeApi {
  /** ext-apps' `app-bridge` module (its modules evaluated on the first call). */
  load(): Promise<typeof AppBridgeModule>;
}

// The package is ESM only: a dynamic import, which esbuild writes into this bundle (nothing is fetched).
const api: AppBridgeApi = { load: () => import('@modelcontextprotocol/ext-apps/app-bridge') };
(globalThis as { mcpRoundtripAppBridge?: AppBridgeApi }).mcpRoundtripAppBridge = api;
