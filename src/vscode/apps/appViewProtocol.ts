/**
 * The messages between the app view's webview (media/src/appView/main.ts, which hosts the ext-apps
 * `AppBridge`) and the extension (appView.ts). The webview relays what the app asks for; the extension
 * decides (the gate of `core/apps/appRequests.ts`, consent) and answers. Pure types and a parser, so the
 * webview bundle can import it.
 */

/** What the extension tells the webview. */
export type ToAppView =
  | {
      type: 'open';
      /** The app document's URL on the loopback app server and its origin. */
      url: string;
      /** The iframe `allow` attribute (granted permissions); empty for none. */
      allow: string;
      /** The tool whose app this is, as listed (for `hostContext.toolInfo`). */
      tool: Record<string, unknown>;
      /** The call's arguments (`ui/notifications/tool-input`). */
      arguments: Record<string, unknown>;
      /** The call's result (`ui/notifications/tool-result`), when it has one. */
      result?: Record<string, unknown>;
      theme: 'light' | 'dark';
      /** The host's name and version, for `ui/initialize`. */
      hostVersion: string;
    }
  | { type: 'response'; id: number; result?: unknown; error?: string }
  | { type: 'theme'; theme: 'light' | 'dark' }
  | { type: 'close' };

/** The app requests the webview relays (each answered by one `response` of the same id). */
export const APP_REQUEST_METHODS = [
  'tools/call',
  'resources/read',
  'ui/open-link',
  'ui/message',
  'ui/update-model-context',
  'ui/download-file',
] as const;
/** One of {@link APP_REQUEST_METHODS}. */
export type AppRequestMethod = (typeof APP_REQUEST_METHODS)[number];

/** What the webview tells the extension. */
export type FromAppView =
  /** The page started; `opened`: it framed the app from the `open` message written into its document. */
  | { type: 'ready'; opened?: boolean }
  | { type: 'request'; id: number; method: AppRequestMethod; params: Record<string, unknown> }
  /** The app's `notifications/message` (a log line) or its lifecycle: initialized, size changes. */
  | { type: 'note'; text: string }
  /** The app was stopped (a flood, an oversized message, a load failure): the reason for the log. */
  | { type: 'stopped'; reason: string }
  /** The person asked for the text result (**Show as Text**). */
  | { type: 'showText' }
  /** The app was torn down (`ui/resource-teardown` answered or timed out): the panel may close. */
  | { type: 'closed' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A message from the app view checked for shape, or `undefined` when it is not one. */
export function parseFromAppView(m: unknown): FromAppView | undefined {
  if (!isObject(m) || typeof m.type !== 'string') return undefined;
  switch (m.type) {
    case 'ready':
      return m.opened === true ? { type: 'ready', opened: true } : { type: 'ready' };
    case 'showText':
    case 'closed':
      return { type: m.type };
    case 'note':
    case 'stopped':
      return typeof (m.type === 'note' ? m.text : m.reason) === 'string'
        ? m.type === 'note'
          ? { type: 'note', text: String(m.text).slice(0, 2000) }
          : { type: 'stopped', reason: String(m.reason).slice(0, 2000) }
        : undefined;
    case 'request':
      return typeof m.id === 'number' && (APP_REQUEST_METHODS as readonly unknown[]).includes(m.method) && isObject(m.params)
        ? { type: 'request', id: m.id, method: m.method as AppRequestMethod, params: m.params }
        : undefined;
    default:
      return undefined;
  }
}
