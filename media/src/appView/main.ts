/**
 * The app view's script: hosts an MCP App through ext-apps' `AppBridge` (with no client, so every
 * request of the app goes to the extension, which gates it) over a `PostMessageTransport` to a
 * sandboxed iframe on the loopback app server (its own origin and CSP; `allow-scripts allow-forms`, no
 * `allow-same-origin`, no top navigation, no popups). Each message of the app is counted first
 * (`AppMessageBudget`): a flood or an oversized message removes the frame and says why.
 *
 * The frame comes first: the extension writes the `open` message into the document, and this small
 * script frames the app from it as the page loads. The bridge (ext-apps with zod, `bridge.ts`, a bundle
 * of its own, the document's second script) is fetched by URI and deferred, while the app's document
 * loads, and its modules are evaluated when the app first speaks: neither its size nor its start-up
 * delays the app's first paint. What the app posts before the bridge listens is held (after the
 * budget) and handed to it in order.
 */
import type { AppBridge, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import type { AppBridgeApi } from './bridge';
import type { AppRequestMethod, FromAppView, ToAppView } from '../../../src/vscode/apps/appViewProtocol';
import { INITIAL_MESSAGE_ID } from '../../../src/vscode/shared/webviewHtml';
import { button, el } from '../shared/dom';
import { postToExtension } from '../shared/vscodeApi';
import { appFrame, budgetMessages, holdMessages } from './appFrame';
import * as l10n from '../shared/l10n';

/** Tallest the frame grows on the app's size-change notifications, px. */
const MAX_HEIGHT = 4000;
/** How long closing waits for the app's answer to `ui/resource-teardown`, ms. */
const TEARDOWN_WAIT_MS = 2000;

type OpenMessage = Extract<ToAppView, { type: 'open' }>;
/**
 * Resolves once the document is parsed and its deferred scripts have run (`DOMContentLoaded`, or `load`
 * for a page past it). Not `readyState`: it is already `interactive` while a deferred script is fetched.
 */
const documentReady = new Promise<void>((resolve) => {
  if (document.readyState === 'complete') return resolve();
  document.addEventListener('DOMContentLoaded', () => resolve(), { once: true });
  window.addEventListener('load', () => resolve(), { once: true });
});

/**
 * The bridge bundle's API, once its script (after this one in the document, deferred, by URI) has run:
 * an app that speaks before it is fetched waits for it.
 */
async function bridgeApi(): Promise<AppBridgeApi> {
  const registered = () => (globalThis as { mcpRoundtripAppBridge?: AppBridgeApi }).mcpRoundtripAppBridge;
  if (!registered()) await documentReady;
  const api = registered();
  if (!api) throw new Error('the app bridge did not start');
  return api;
}

const post = (m: FromAppView) => postToExtension(m);
let nextId = 1;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
let current: { bridge?: AppBridge; frame: HTMLIFrameElement; context: McpUiHostContext; stop: (reason: string) => void } | undefined;

/** Ask the extension to act on an app request; resolves with its answer. */
function ask<T>(method: AppRequestMethod, params: unknown): Promise<T> {
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    post({ type: 'request', id, method, params: (params ?? {}) as Record<string, unknown> });
  });
}

/** Frame the app now (its document starts loading), then start the bridge and connect it. */
function open(m: OpenMessage): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  const bar = el('div', undefined, 'actions');
  const status = el('span', l10n.t('Loading the app…'), 'muted');
  status.dataset.testid = 'app-status';
  bar.append(
    button(l10n.t('Show as Text'), 'show-as-text', () => post({ type: 'showText' }), 'secondary'),
    button(l10n.t('Close App'), 'close-app', () => void close(), 'secondary'),
    status,
  );
  const frame = appFrame(m.allow);
  frame.style.height = '400px';
  const context: McpUiHostContext = {
    theme: m.theme,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    platform: 'desktop',
    toolInfo: { tool: m.tool as never },
    containerDimensions: { maxHeight: MAX_HEIGHT },
  };
  let stopped = false;
  const stop = (reason: string) => {
    if (stopped) return;
    stopped = true;
    unbudget();
    held.drop();
    frame.remove();
    status.textContent = l10n.t('The app was stopped: {0}.', reason);
    void current?.bridge?.close().catch(() => undefined);
    post({ type: 'stopped', reason });
  };
  // Both before the frame has a document: the budget counts every message, and what comes before the
  // bridge listens is held for it; neither lets a message reach the bridge uncounted.
  const unbudget = budgetMessages(frame, stop);
  const c: NonNullable<typeof current> = { frame, context, stop };
  const held = holdMessages(frame, stop, () => void connect(m, c, status, held).catch((e: Error) => stop(e.message)));
  frame.addEventListener('error', () => stop('the app document could not be loaded'));
  frame.src = m.url;
  root.append(bar, frame);
  current = c;
}

/** Start ext-apps' bridge for the framed app (its first message came), connect it, and hand it what the app posted so far. */
async function connect(
  m: OpenMessage,
  c: NonNullable<typeof current>,
  status: HTMLElement,
  held: ReturnType<typeof holdMessages>,
): Promise<void> {
  const { AppBridge, PostMessageTransport } = await (await bridgeApi()).load();
  if (current !== c) return;
  const { frame } = c;
  const bridge = new AppBridge(
    null,
    { name: 'mcp-roundtrip', version: m.hostVersion },
    { openLinks: {}, serverTools: {}, serverResources: {}, logging: {}, updateModelContext: { text: {} }, message: { text: {} } },
    { hostContext: c.context },
  );
  c.bridge = bridge;
  bridge.oncalltool = (params) => ask('tools/call', params);
  bridge.onreadresource = (params) => ask('resources/read', params);
  bridge.onopenlink = (params) => ask('ui/open-link', params);
  bridge.onmessage = (params) => ask('ui/message', params);
  bridge.onupdatemodelcontext = (params) => ask('ui/update-model-context', params);
  bridge.ondownloadfile = (params) => ask('ui/download-file', params);
  bridge.onloggingmessage = (p) =>
    post({ type: 'note', text: `log ${p.level}: ${typeof p.data === 'string' ? p.data : JSON.stringify(p.data)}` });
  bridge.onrequestdisplaymode = () => Promise.resolve({ mode: 'inline' });
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height))
      frame.style.height = `${Math.max(50, Math.min(MAX_HEIGHT, Math.ceil(height)))}px`;
  };
  bridge.oninitialized = () => {
    status.textContent = '';
    frame.dataset.initialized = 'true';
    post({ type: 'note', text: `initialized (${bridge.getAppVersion()?.name ?? 'unnamed app'})` });
    void bridge.sendToolInput({ arguments: m.arguments });
    if (m.result) void bridge.sendToolResult(m.result as never);
  };
  bridge.onrequestteardown = () => void close();
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  held.release();
}

/** Tear the app down (`ui/resource-teardown`, waited for at most {@link TEARDOWN_WAIT_MS}), remove it, tell the extension. */
async function close(): Promise<void> {
  const c = current;
  current = undefined;
  if (c) {
    if (c.bridge)
      await Promise.race([c.bridge.teardownResource({}).catch(() => undefined), new Promise((r) => setTimeout(r, TEARDOWN_WAIT_MS))]);
    c.frame.remove();
    await c.bridge?.close().catch(() => undefined);
  }
  post({ type: 'closed' });
}

/** Tell the app VS Code's new theme (`ui/notifications/host-context-changed`, the whole context kept). */
function setTheme(theme: 'light' | 'dark'): void {
  const c = current;
  if (!c || c.context.theme === theme) return;
  c.context = { ...c.context, theme };
  c.bridge?.setHostContext(c.context);
  post({ type: 'note', text: `host context: theme ${theme} (ui/notifications/host-context-changed)` });
}

/** The `open` message the extension wrote into the document (read on every load of the page: it stays valid while the view lives). */
function writtenOpen(): OpenMessage | undefined {
  try {
    const m = JSON.parse(document.getElementById(INITIAL_MESSAGE_ID)?.textContent ?? '') as ToAppView;
    return m && typeof m === 'object' && m.type === 'open' ? m : undefined;
  } catch {
    return undefined;
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  // Only the extension's messages (the workbench's frame); the app's are the bridge's.
  if (current && e.source === current.frame.contentWindow) return;
  const m = e.data as ToAppView;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'open') {
    try {
      open(m);
    } catch (err) {
      post({ type: 'stopped', reason: `the app view could not start: ${(err as Error).message}` });
    }
  } else if (m.type === 'response') {
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (!p) return;
    if (m.error !== undefined) p.reject(new Error(m.error));
    else p.resolve(m.result);
  } else if (m.type === 'theme') setTheme(m.theme);
  else if (m.type === 'close') void close();
});
const written = writtenOpen();
if (written) open(written);
// The extension answers with the current theme (a page reloaded from the document may be out of date),
// or with `open` when the document held none.
post({ type: 'ready', opened: written !== undefined });
