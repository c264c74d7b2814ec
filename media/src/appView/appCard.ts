/**
 * The app host of an app-rendered elicitation (SEP-3118), loaded into the round panel only when a card
 * frames an app (bundled to `dist/webview/appCard.js`, a browser IIFE that registers
 * `window.mcpRoundtripAppCard`). It runs ext-apps' `AppBridge` with no client over a
 * `PostMessageTransport` to the sandboxed frame (`appFrame.ts`), waits for the app's
 * `ui/notifications/initialized`, then sends it the round's `elicitation/create` as a host -> app
 * request; the app's answer goes to the extension, which checks it against the schema. The app may not
 * reach its server or the outside from a card: its other requests are refused.
 */
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge' with { 'resolution-mode': 'import' };
import { appFrame, budgetMessages } from './appFrame';

/** How long the app has to load and send `ui/notifications/initialized` before the form replaces it, ms. */
export const APP_CARD_START_MS = 15_000;
/** How long the app may take to answer (the person fills it in), ms. */
const APP_CARD_ANSWER_MS = 30 * 60_000;
/** Tallest the frame grows on the app's size-change notifications, px. */
const MAX_HEIGHT = 2000;

/** What a card frames and sends. */
export interface AppCardOptions {
  url: string;
  /** The `elicitation/create` params, as the server sent them. */
  params: Record<string, unknown>;
  hostVersion: string;
  theme: 'light' | 'dark';
}

/** What the card is told: the app's answer (unchecked), or why it could not answer. Called at most once, together. */
export interface AppCardHooks {
  answer(result: Record<string, unknown>): void;
  failed(reason: string): void;
}

/**
 * A mounted app: close tears it down (`ui/resource-teardown`, briefly waited for) and removes the frame;
 * setTheme tells it VS Code's new theme (`ui/notifications/host-context-changed`).
 */
export interface MountedAppCard {
  close(): Promise<void>;
  setTheme(theme: 'light' | 'dark'): void;
}

/** Mount the app into `container`. */
async function mount(container: HTMLElement, o: AppCardOptions, hooks: AppCardHooks): Promise<MountedAppCard> {
  const { AppBridge, PostMessageTransport } = await import('@modelcontextprotocol/ext-apps/app-bridge');
  const frame = appFrame();
  frame.style.height = '320px';
  container.append(frame);
  let done = false;
  const end = (f: () => void) => {
    if (done) return;
    done = true;
    clearTimeout(startTimer);
    f();
  };
  let hostContext: McpUiHostContext = {
    theme: o.theme,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    platform: 'desktop',
    containerDimensions: { maxHeight: MAX_HEIGHT },
  };
  const bridge = new AppBridge(null, { name: 'mcp-roundtrip', version: o.hostVersion }, { logging: {} }, { hostContext });
  const fail = (reason: string) =>
    end(() => {
      unbudget();
      frame.remove();
      void bridge.close().catch(() => undefined);
      hooks.failed(reason);
    });
  const unbudget = budgetMessages(frame, (why) => fail(`it was stopped: ${why}`));
  const startTimer = setTimeout(() => fail(`it did not start within ${APP_CARD_START_MS / 1000} s`), APP_CARD_START_MS);
  const refuse = (what: string) => () => Promise.reject(new Error(`${what} is not available to an app answering a form`));
  bridge.oncalltool = refuse('tools/call');
  bridge.onreadresource = refuse('resources/read');
  bridge.onopenlink = refuse('ui/open-link');
  bridge.onmessage = refuse('ui/message');
  bridge.onupdatemodelcontext = refuse('ui/update-model-context');
  bridge.ondownloadfile = refuse('ui/download-file');
  bridge.onrequestdisplaymode = () => Promise.resolve({ mode: 'inline' });
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number' && Number.isFinite(height))
      frame.style.height = `${Math.max(50, Math.min(MAX_HEIGHT, Math.ceil(height)))}px`;
  };
  bridge.oninitialized = () => {
    clearTimeout(startTimer);
    frame.dataset.initialized = 'true';
    bridge.request({ method: 'elicitation/create', params: o.params }, { timeout: APP_CARD_ANSWER_MS }).then(
      (result) => end(() => hooks.answer(result)),
      (e: Error) => fail(`it did not answer: ${e.message}`),
    );
  };
  frame.addEventListener('error', () => fail('its document could not be loaded'));
  frame.src = o.url;
  void bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!)).catch((e: Error) => fail(e.message));
  return {
    setTheme: (theme) => {
      if (hostContext.theme === theme) return;
      hostContext = { ...hostContext, theme };
      bridge.setHostContext(hostContext);
    },
    close: async () => {
      done = true;
      clearTimeout(startTimer);
      unbudget();
      await Promise.race([bridge.teardownResource({}).catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]);
      frame.remove();
      await bridge.close().catch(() => undefined);
    },
  };
}

(globalThis as { mcpRoundtripAppCard?: { mount: typeof mount } }).mcpRoundtripAppCard = { mount };
