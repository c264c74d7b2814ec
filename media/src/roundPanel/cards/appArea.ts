/**
 * The app area of a form card (SEP-3118, app-rendered elicitation): loads the app host
 * (`dist/webview/appCard.js`, only when a card frames an app, with this document's nonce) and mounts
 * the app; its answer or its failure goes to the extension, which decides (the schema check, the
 * fall-back to the form).
 */
import type { FormInputView, FromWebview } from '../../../../src/vscode/roundPanel/protocol';

/** The app host's API (`media/src/appView/appCard.ts`). */
interface AppCardApi {
  mount(
    container: HTMLElement,
    o: { url: string; params: Record<string, unknown>; hostVersion: string; theme: 'light' | 'dark' },
    hooks: { answer(result: Record<string, unknown>): void; failed(reason: string): void },
  ): Promise<{ close(): Promise<void>; setTheme(theme: 'light' | 'dark'): void }>;
}

// Read while this script runs: a script added later is allowed by the CSP only with the same nonce.
const NONCE = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
let host: Promise<AppCardApi> | undefined;

/** The app host, its script added once. */
function appHost(src: string): Promise<AppCardApi> {
  host ??= new Promise<AppCardApi>((resolve, reject) => {
    const s = document.createElement('script');
    s.nonce = NONCE;
    s.src = src;
    s.onload = () => {
      const api = (globalThis as { mcpRoundtripAppCard?: AppCardApi }).mcpRoundtripAppCard;
      if (api) resolve(api);
      else reject(new Error('the app host did not start'));
    };
    s.onerror = () => reject(new Error('the app host could not be loaded'));
    document.head.append(s);
  }).catch((e: Error) => {
    host = undefined;
    throw e;
  });
  return host;
}

/** The theme VS Code gives the webview (its body's class). */
function theme(): 'light' | 'dark' {
  const c = document.body.classList;
  return c.contains('vscode-light') || c.contains('vscode-high-contrast-light') ? 'light' : 'dark';
}

/**
 * Mount the app of `view` into `container`; what it answers, or why it could not, is posted for the card.
 * @returns closes the app (tears it down, removes its frame)
 */
export function mountApp(container: HTMLElement, view: FormInputView, post: (m: FromWebview) => void): () => void {
  const app = view.app!;
  let closed = false;
  let mounted: { close(): Promise<void>; setTheme(theme: 'light' | 'dark'): void } | undefined;
  // VS Code swaps the body's theme class when the person changes the color theme: the app follows.
  const themeWatch = new MutationObserver(() => mounted?.setTheme(theme()));
  themeWatch.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  const failed = (reason: string) => !closed && post({ type: 'appFailed', id: view.id, reason });
  if (!app.script) failed('the app host is not available');
  else
    appHost(app.script)
      .then((api) =>
        api.mount(
          container,
          { url: app.url, params: app.params, hostVersion: app.hostVersion, theme: theme() },
          { answer: (result) => !closed && post({ type: 'appAnswer', id: view.id, result }), failed },
        ),
      )
      .then(
        (m) => {
          mounted = m;
          if (closed) void m.close();
          else m.setTheme(theme());
        },
        (e: Error) => failed(e.message),
      );
  return () => {
    closed = true;
    themeWatch.disconnect();
    void mounted?.close();
    mounted = undefined;
  };
}
