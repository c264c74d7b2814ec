/**
 * The app view: a tool's MCP App in an editor panel. The panel's webview (media/src/appView/main.ts)
 * hosts ext-apps' `AppBridge` and frames the app from the loopback app server (`core/apps/appServer.ts`,
 * its own origin and the CSP built from what it declared); every request of the app comes here and
 * passes the gate of `core/apps/appRequests.ts` first: `tools/call` only to its own server's tools
 * visible to apps, asking first for a tool that is not read-only; `resources/read` to its own server;
 * `ui/open-link` only for http(s) and only after consent; `ui/message` and `ui/update-model-context`
 * shown and logged. Every app request is a line in the round-trip log. Closing the view tears the app
 * down and stops serving its document.
 *
 * Spec: MCP Apps extension (2026-01-26), "Host behaviour" and "Security".
 */
import * as vscode from 'vscode';
import { appCsp, allowAttribute } from '../../core/apps/appCsp';
import { appDocument, type AppDocument } from '../../core/apps/appResource';
import { appToolVerdict, openableLink } from '../../core/apps/appRequests';
import { AppServers, type ServedApp } from '../../core/apps/appServer';
import { appResourceUri } from '../../core/apps/appTool';
import { elicitationAppUri, serverOffersAppElicitation } from '../../core/apps/appElicitation';
import type { InputContext } from '../../core/inputs/inputProvider';
import type { ElicitationApp } from '../roundPanel/inputs/formInput';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { MrtrMethod } from '../../core/inputs/inputProvider';
import { callWithRoundTrips, newFlowId } from '../../core/mrtr/driver';
import { errorMessage, HostError } from '../../core/util/errors';
import { isPlainObject } from '../../core/util/json';
import { oneLine } from '../../core/util/shownText';
import type { CallLimits } from '../../core/mrtr/callLimits';
import type { InputUi } from '../roundPanel/inputUi';
import type { ResultPresenter } from '../results/resultPresenter';
import type { ShownCall } from '../../core/results/resultViewBuild';
import type { ServerEntry } from '../servers/serverEntry';
import type { ServerRegistry } from '../servers/serverRegistry';
import { notificationText } from '../shared/notificationText';
import type { RoundTripLog } from '../shared/roundTripLog';
import { openWebviewPanel } from '../shared/webviewPanel';
import { APPS_ENABLED_SETTING, appsEnabled, type ChatAppCall } from './appsSetting';
import { parseFromAppView, type AppRequestMethod, type FromAppView, type ToAppView } from './appViewProtocol';

/** The view type of app views. */
export const APP_VIEW_TYPE = 'mcpRoundtrip.app';

/** What the app view needs of the extension. */
export interface AppViewDeps {
  registry: ServerRegistry;
  log: RoundTripLog;
  ui: InputUi;
  results: ResultPresenter;
  /** The limits of one call, from the settings (the app's calls run under them like any other). */
  limits: () => CallLimits;
}

/** The call whose app is shown: its server, tool, arguments and result. */
export interface AppCall {
  entry: ServerEntry;
  tool: string;
  arguments: Record<string, unknown>;
  result?: Record<string, unknown>;
  /** The call as the result view shows it (**Show as Text**: its header, times and history id); the result alone when absent. */
  text?: ShownCall;
}

/** The theme an app is told (`hostContext.theme`), from VS Code's color theme. */
export function appTheme(kind: vscode.ColorThemeKind): 'light' | 'dark' {
  return kind === vscode.ColorThemeKind.Light || kind === vscode.ColorThemeKind.HighContrastLight ? 'light' : 'dark';
}

/** The app views of the host and the loopback app server they share. */
export class AppViews implements vscode.Disposable {
  private readonly servers = new AppServers();
  private readonly open = new Set<vscode.WebviewPanel>();
  /** Each app origin's base URL for the webview ({@link externalUrl}). */
  private readonly externalOrigins = new Map<string, Promise<URL>>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: AppViewDeps,
    private readonly hostVersion: string,
  ) {}

  /** Said in the log when the person turns MCP Apps on or off (servers connected later are told). */
  private readonly settingWatch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(APPS_ENABLED_SETTING))
      this.deps.log.info(`MCP Apps are ${appsEnabled() ? 'on' : 'off'} (${APPS_ENABLED_SETTING})`);
  });

  /**
   * Open the app of `call`'s tool when it has one and MCP Apps are on.
   * @returns whether an app view opened (false: no app, apps off, or a failure already said)
   */
  async show(call: AppCall, options: { quiet?: boolean; beside?: boolean } = {}): Promise<boolean> {
    const { entry } = call;
    const say = (text: string) => !options.quiet && void vscode.window.showInformationMessage(notificationText(text));
    if (!appsEnabled())
      return (say(vscode.l10n.t('MCP Apps are off ({0}): {1} is shown as text.', 'mcpRoundtrip.apps.enabled', call.tool)), false);
    if (entry.heldBack) return (say(`${entry.name}: ${entry.heldBack}`), false);
    let conn: ServerConnection;
    let tool: Record<string, unknown> | undefined;
    try {
      conn = await this.deps.registry.connection(entry);
      tool = (await conn.list('tools')).find((t): t is Record<string, unknown> => isPlainObject(t) && t.name === call.tool);
    } catch (e) {
      return (say(`${entry.name}: ${errorMessage(e)}`), false);
    }
    const uri = appResourceUri(tool);
    if (!tool || !uri) return (say(vscode.l10n.t('{0}: the tool {1} has no app.', entry.name, call.tool)), false);
    try {
      const doc = await this.read(conn, entry.name, uri);
      await this.openPanel(call, conn, tool, doc, options.beside ? vscode.ViewColumn.Beside : undefined);
      return true;
    } catch (e) {
      this.deps.log.warn(`[${entry.name}] app ${uri} not shown: ${errorMessage(e)}`);
      void vscode.window.showErrorMessage(
        notificationText(vscode.l10n.t('{0}: the app of {1} could not be shown: {2}', entry.name, call.tool, errorMessage(e))),
      );
      return false;
    }
  }

  /**
   * The app that answers elicitation `params` in its card (SEP-3118), read and served, or `undefined`
   * for the native form: apps off, no `ui://` resource in `params._meta.ui.resourceUri`, a server that
   * did not offer app-rendered elicitation, or an app that could not be read (each said in the log).
   * `dispose` stops serving its document. Never throws.
   */
  async elicitationApp(params: unknown, ctx: InputContext): Promise<{ app: ElicitationApp; dispose(): void } | undefined> {
    const uri = elicitationAppUri(params);
    if (!uri) return undefined;
    const server = ctx.round.server;
    const logFormReason = (why: string) => (this.deps.log.info(`[${server}] elicitation ${ctx.key} shown as a form: ${why}`), undefined);
    if (!appsEnabled()) return logFormReason('MCP Apps are off (mcpRoundtrip.apps.enabled)');
    const entry = this.deps.registry.get(server);
    if (!entry || entry.heldBack) return logFormReason(entry?.heldBack ?? 'the server is not known');
    try {
      const conn = await this.deps.registry.connection(entry);
      if (!serverOffersAppElicitation(conn.serverCapabilities))
        return logFormReason(`the server names the app ${uri} but did not offer app-rendered elicitation in its capabilities`);
      const doc = await this.read(conn, server, uri, ctx.signal);
      const csp = appCsp(doc.csp);
      this.deps.log.info(`[${server}] elicitation ${ctx.key}: app ${uri} runs under: ${csp.policy}`);
      const served = await this.servers.serve(server, doc.html, csp.policy);
      const url = await this.externalUrl(served).catch((e: unknown) => {
        served.dispose();
        throw e;
      });
      return {
        app: { url, uri, params: params as Record<string, unknown>, hostVersion: this.hostVersion },
        dispose: () => served.dispose(),
      };
    } catch (e) {
      return logFormReason(`the app ${uri} could not be read: ${errorMessage(e)}`);
    }
  }

  /**
   * The URL the webview reaches `served` by: its loopback URL as VS Code maps it for the browser
   * (`asExternalUri`: the same on a desktop, a forwarded port or a proxy path in a remote or browser
   * host). Asked once per origin (the mapping of an origin lives as long as the extension host) and
   * the document's path appended, so a view does not wait for a trip to the workbench before it opens.
   * @throws Error when VS Code cannot map the origin (asked again next time)
   */
  private async externalUrl(served: ServedApp): Promise<string> {
    let base = this.externalOrigins.get(served.origin);
    if (!base) {
      base = Promise.resolve(vscode.env.asExternalUri(vscode.Uri.parse(`${served.origin}/`))).then((u) => new URL(u.toString(true)));
      this.externalOrigins.set(served.origin, base);
      base.catch(() => this.externalOrigins.delete(served.origin));
    }
    const b = await base;
    // A mapping that carries a query or fragment (a tunnel's token) is not a base a path can be put under.
    if (b.search || b.hash) return (await vscode.env.asExternalUri(vscode.Uri.parse(served.url))).toString(true);
    return `${b.origin}${b.pathname.replace(/\/?$/, '/')}${served.url.slice(served.origin.length + 1)}`;
  }

  /** The app document of `uri`, with `_meta.ui` from the read content, else from the listing. */
  private async read(conn: ServerConnection, server: string, uri: string, signal?: AbortSignal): Promise<AppDocument> {
    const r = await this.call(conn, 'resources/read', { uri }, signal);
    const listed = (await conn.list('resources').catch(() => [])).find((x) => isPlainObject(x) && x.uri === uri);
    const doc = appDocument(uri, r, listed);
    this.deps.log.info(`[${server}] app ${uri}: ${doc.html.length} characters`);
    return doc;
  }

  /** One MRTR call to the app's server, its rounds answered in the round panel like any other. */
  private async call(conn: ServerConnection, method: MrtrMethod, params: Record<string, unknown>, signal?: AbortSignal) {
    const flowId = newFlowId();
    try {
      const r = await callWithRoundTrips(conn, method, params, {
        provider: conn.provider,
        flowId,
        ...this.deps.limits(),
        signal,
        onEvent: (e) => this.deps.log.event(e),
      });
      return r.result;
    } finally {
      this.deps.ui.endFlow(flowId);
    }
  }

  /**
   * Open a `@roundtrip` result's app beside the chat (the **Open App** button of the response).
   * @returns whether it opened (false: the server is gone, or {@link show} said why)
   */
  async showFromChat(call: ChatAppCall): Promise<boolean> {
    const entry = this.deps.registry.get(call.server);
    if (!entry) {
      void vscode.window.showInformationMessage(
        notificationText(vscode.l10n.t('No server named "{0}" is configured any more.', call.server)),
      );
      return false;
    }
    return this.show({ entry, tool: call.tool, arguments: call.arguments, result: call.result }, { beside: true });
  }

  private async openPanel(
    call: AppCall,
    conn: ServerConnection,
    tool: Record<string, unknown>,
    doc: AppDocument,
    viewColumn?: vscode.ViewColumn,
  ): Promise<void> {
    const server = call.entry.name;
    const log = this.deps.log;
    const csp = appCsp(doc.csp);
    log.info(`[${server}] app ${doc.uri} runs under: ${csp.policy}`);
    if (csp.dropped.length)
      log.warn(`[${server}] app ${doc.uri}: declared CSP entries left out: ${csp.dropped.map((d) => oneLine(d, 100)).join(', ')}`);
    if ((Object.values(doc.csp) as (string[] | undefined)[]).some((l) => l?.length))
      log.warn(`[${server}] app ${doc.uri} asks to reach other domains (see its CSP above)`);
    const granted = await this.grant(server, doc);
    const served = await this.servers.serve(server, doc.html, csp.policy);
    let url: string;
    try {
      url = await this.externalUrl(served);
    } catch (e) {
      served.dispose();
      throw e;
    }
    const title = typeof tool.title === 'string' ? tool.title : call.tool;
    const opening = (): ToAppView => ({
      type: 'open',
      url,
      allow: allowAttribute(granted),
      tool,
      arguments: call.arguments,
      result: call.result,
      theme: appTheme(vscode.window.activeColorTheme.kind),
      hostVersion: this.hostVersion,
    });
    let panel: vscode.WebviewPanel;
    try {
      panel = openWebviewPanel(this.extensionUri, {
        viewType: APP_VIEW_TYPE,
        title: `${title} — ${server}`,
        script: 'appView.js',
        // ext-apps' bridge, fetched by URI while the app's document loads (the view's own script framed it first).
        laterScript: 'appBridge.js',
        style: 'appView.css',
        documentTitle: 'App',
        testId: 'app-view',
        retainContextWhenHidden: true,
        viewColumn,
        frameSrc: new URL(url).origin,
        // Written into the document: the page frames the app as it loads, without a round trip first.
        initialMessage: opening(),
        warn: (t) => log.warn(t),
      });
    } catch (e) {
      served.dispose();
      throw e;
    }
    this.open.add(panel);
    const allowedForApp = new Set<string>();
    const stop = new AbortController();
    const post = (m: ToAppView) => void panel.webview.postMessage(m);
    const line = (text: string) => log.info(`[${server}] app ${title}: ${oneLine(text, 300)}`);
    const subs = [
      // The view says when the app was told (a note): the log shows what reached the bridge.
      vscode.window.onDidChangeActiveColorTheme((t) => post({ type: 'theme', theme: appTheme(t.kind) })),
      panel.webview.onDidReceiveMessage(async (m: unknown) => {
        const msg = parseFromAppView(m);
        if (msg) await act(msg);
      }),
    ];
    const act = async (msg: FromAppView): Promise<void> => {
      switch (msg.type) {
        case 'ready':
          // A page reloaded from its document may hold an older theme; one that found no `open` in it asks.
          return post(msg.opened ? { type: 'theme', theme: appTheme(vscode.window.activeColorTheme.kind) } : opening());
        case 'note':
          return line(msg.text);
        case 'stopped':
          return log.warn(`[${server}] app ${title} was stopped: ${msg.reason}`);
        case 'showText':
          if (call.result)
            await this.deps.results.show(call.text ?? { server, method: 'tools/call', target: call.tool, result: call.result });
          return;
        case 'closed':
          panel.dispose();
          return;
        case 'request':
          try {
            const result = await this.relay(conn, server, title, msg.method, msg.params, allowedForApp, stop.signal);
            post({ type: 'response', id: msg.id, result });
          } catch (e) {
            line(`${msg.method} refused: ${errorMessage(e)}`);
            post({ type: 'response', id: msg.id, error: errorMessage(e) });
          }
      }
    };
    panel.onDidDispose(() => {
      stop.abort(new HostError('cancelled', 'the app view was closed'));
      served.dispose();
      for (const s of subs) s.dispose();
      this.open.delete(panel);
      line('closed');
    });
  }

  /** The permissions the person grants the app (asked once per view; none when it asks for none). */
  private async grant(server: string, doc: AppDocument): Promise<string[]> {
    if (!doc.permissions.length) return [];
    const allow = vscode.l10n.t('Allow');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('The app of {0} asks for: {1}.', server, doc.permissions.join(', ')),
      { modal: true, detail: vscode.l10n.t('App: {0}\nWithout them the app still opens; it may work less well.', doc.uri) },
      allow,
      vscode.l10n.t('Open Without'),
    );
    return answer === allow ? doc.permissions : [];
  }

  /** Act on one request of the app (after the gate and, where asked, the person's consent). */
  private async relay(
    conn: ServerConnection,
    server: string,
    app: string,
    method: AppRequestMethod,
    params: Record<string, unknown>,
    allowedForApp: Set<string>,
    signal: AbortSignal,
  ): Promise<unknown> {
    const line = (text: string) => this.deps.log.info(`[${server}] app ${app}: ${oneLine(text, 300)}`);
    switch (method) {
      case 'tools/call': {
        const args = isPlainObject(params.arguments) ? params.arguments : {};
        const verdict = appToolVerdict(await conn.list('tools'), params.name, allowedForApp);
        if (verdict.kind === 'refuse') throw new Error(verdict.reason);
        const name = String(params.name);
        if (verdict.kind === 'ask') {
          const forApp = vscode.l10n.t('Allow for this App');
          const answer = await vscode.window.showWarningMessage(
            vscode.l10n.t('The app {0} wants to call the tool {1} of {2}.', app, name, server),
            { modal: true, detail: vscode.l10n.t('Arguments:\n{0}', oneLine(JSON.stringify(args), 2000)) },
            vscode.l10n.t('Allow'),
            forApp,
          );
          if (!answer) throw new Error(`you did not allow the app to call ${name}`);
          if (answer === forApp) allowedForApp.add(name);
        }
        line(`tools/call ${name}`);
        return this.call(conn, 'tools/call', { name, arguments: args }, signal);
      }
      case 'resources/read': {
        if (typeof params.uri !== 'string') throw new Error('resources/read without a uri');
        line(`resources/read ${params.uri}`);
        return this.call(conn, 'resources/read', { uri: params.uri }, signal);
      }
      case 'ui/open-link': {
        const link = openableLink(params.url);
        if (!link) throw new Error(`only http and https links are opened (asked: ${oneLine(String(params.url), 200)})`);
        line(`ui/open-link ${link.href}`);
        const open = vscode.l10n.t('Open');
        const ok = await vscode.window.showWarningMessage(
          vscode.l10n.t('Open this link in your browser?'),
          { modal: true, detail: vscode.l10n.t('The app {0} of {1} links to:\n{2}\nHost: {3}', app, server, link.href, link.host) },
          open,
        );
        if (ok !== open) return { isError: true };
        await vscode.env.openExternal(vscode.Uri.parse(link.href, true));
        return {};
      }
      case 'ui/message':
      case 'ui/update-model-context': {
        const text = JSON.stringify(params.content ?? params);
        line(`${method} ${text}`);
        if (method === 'ui/message')
          void vscode.window.showInformationMessage(
            notificationText(vscode.l10n.t('The app {0} of {1} says: {2}', app, server, oneLine(text, 300))),
          );
        return {};
      }
      default:
        throw new Error(`${method} is not supported by this host`);
    }
  }

  /** How many app views are open (for tests). */
  get openViews(): number {
    return this.open.size;
  }

  dispose(): void {
    this.settingWatch.dispose();
    for (const p of [...this.open]) p.dispose();
    void this.servers.close();
  }
}
