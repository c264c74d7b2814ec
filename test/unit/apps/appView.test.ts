/**
 * The app view (src/vscode/apps/appView.ts) under the `vscode` stub, with a real MCP App server from npm
 * (`@modelcontextprotocol/server-system-monitor` over stdio) and the test playing the webview: the app
 * document is served on loopback under its own CSP, the webview's document may frame only that origin,
 * the app's requests pass the gate (an app-only tool through the consent modal and "Allow for this App",
 * a tool of no listing refused, a link only after consent and only http(s)), and closing the view stops
 * serving the document.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type * as vscodeTypes from 'vscode';
import { withAppsCapability } from '../../../src/core/apps/appsCapability';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { NO_INPUTS } from '../../../src/core/inputs/inputProvider';
import type { AppViewDeps, AppViews } from '../../../src/vscode/apps/appView';
import type { FromAppView, ToAppView } from '../../../src/vscode/apps/appViewProtocol';
import { useVscodeStub } from '../../support/vscodeStub';

const MONITOR = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-system-monitor', 'dist', 'index.js');

/** A webview panel the test drives: what the extension posted, and a way to post as the webview. */
interface FakePanel {
  html: string;
  posted: ToAppView[];
  send(m: FromAppView): Promise<void>;
  next(type: ToAppView['type']): Promise<ToAppView>;
  dispose(): void;
}

describe('MCP Apps: the app view with a real app server (system-monitor)', function () {
  this.timeout(60_000);
  useVscodeStub();
  let vscode: typeof vscodeTypes;
  let conn: ServerConnection;
  let views: AppViews;
  const panels: FakePanel[] = [];
  const modals: { message: string; detail?: string; items: string[] }[] = [];
  let modalAnswer: (message: string) => string | undefined = () => undefined;
  const opened: string[] = [];
  const textShown: unknown[] = [];
  const restore: (() => void)[] = [];

  before(async () => {
    vscode = require('vscode') as typeof vscodeTypes;
    const w = vscode.window as unknown as Record<string, unknown>;
    const env = vscode.env as unknown as Record<string, unknown>;
    const patch = (o: Record<string, unknown>, k: string, v: unknown) => {
      const was = o[k];
      o[k] = v;
      restore.push(() => (o[k] = was));
    };
    patch(w, 'createWebviewPanel', () => {
      const listeners: ((m: unknown) => unknown)[] = [];
      const disposed: (() => void)[] = [];
      const waiting: { type: string; resolve: (m: ToAppView) => void }[] = [];
      const p: FakePanel & Record<string, unknown> = {
        html: '',
        posted: [],
        webview: {
          set html(h: string) {
            p.html = h;
          },
          cspSource: 'vscode-webview://test',
          asWebviewUri: (u: unknown) => u,
          postMessage: (m: ToAppView) => {
            p.posted.push(m);
            const i = waiting.findIndex((x) => x.type === m.type);
            if (i >= 0) waiting.splice(i, 1)[0].resolve(m);
            return Promise.resolve(true);
          },
          onDidReceiveMessage: (l: (m: unknown) => unknown) => (listeners.push(l), { dispose: () => {} }),
        },
        onDidDispose: (l: () => void) => (disposed.push(l), { dispose: () => {} }),
        dispose: () => disposed.splice(0).forEach((l) => l()),
        send: async (m: FromAppView) => void (await Promise.all(listeners.map((l) => l(m)))),
        next: (type: string) => new Promise<ToAppView>((resolve) => waiting.push({ type, resolve })),
      };
      panels.push(p);
      return p;
    });
    patch(w, 'showWarningMessage', (message: string, options: { detail?: string }, ...items: string[]) => {
      modals.push({ message, detail: options?.detail, items });
      return Promise.resolve(modalAnswer(message));
    });
    patch(w, 'showInformationMessage', () => Promise.resolve(undefined));
    patch(w, 'showErrorMessage', (m: string) => Promise.reject(new Error(`unexpected error message: ${m}`)));
    patch(w, 'activeColorTheme', { kind: 2 });
    patch(w, 'onDidChangeActiveColorTheme', () => ({ dispose: () => {} }));
    patch(vscode, 'ColorThemeKind', { Light: 1, Dark: 2, HighContrast: 3, HighContrastLight: 4 });
    patch(env, 'asExternalUri', (u: unknown) => Promise.resolve(u));
    patch(env, 'openExternal', (u: { toString(): string }) => (opened.push(u.toString()), Promise.resolve(true)));

    conn = new ServerConnection(
      { transport: 'stdio', name: 'monitor', command: process.execPath, args: [MONITOR, '--stdio'] },
      { provider: { ...NO_INPUTS, capabilities: withAppsCapability({}, true) } },
    );

    const { AppViews } = require('../../../src/vscode/apps/appView') as typeof import('../../../src/vscode/apps/appView');

    const { RoundTripLog } = require('../../../src/vscode/shared/roundTripLog') as typeof import('../../../src/vscode/shared/roundTripLog');
    const deps = {
      registry: { connection: () => Promise.resolve(conn) },
      log: new RoundTripLog(),
      ui: { endFlow: () => {} },
      results: { show: (call: unknown) => (textShown.push(call), Promise.resolve()) },
      limits: () => ({}),
    } as unknown as AppViewDeps;
    views = new AppViews(vscode.Uri.file(join(__dirname, '..', '..', '..')), deps, '9.9.9');
  });

  after(async () => {
    views?.dispose();
    await conn?.close();
    restore.reverse().forEach((r) => r());
  });

  it('opens the app from its own loopback URL under its own CSP, and gates what the app asks for', async () => {
    const entry = { name: 'monitor', def: {} } as never;
    const result = { content: [{ type: 'text', text: 'cpu' }] };
    const text = { server: 'monitor', method: 'tools/call' as const, target: 'get-system-info', result, rounds: 0, historyId: 'h1' };
    const shown = await views.show({ entry, tool: 'get-system-info', arguments: {}, result, text });
    assert.equal(shown, true);
    const panel = panels.at(-1)!;
    // The webview's own document may frame the app server's origin and nothing else.
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(panel.html)![1];
    assert.match(csp, /frame-src http:\/\/127\.0\.0\.1:\d+(;|$)/);
    assert.match(csp, /script-src 'nonce-/);

    // The `open` message is written into the document (the page frames the app as it loads, no round trip).
    const block = /<script type="application\/json" id="initial-message">([^<]*)<\/script>/.exec(panel.html);
    assert.ok(block, 'the document holds the open message');
    const open = JSON.parse(block[1]) as Extract<ToAppView, { type: 'open' }>;
    assert.equal(open.type, 'open');
    assert.match(open.url, /^http:\/\/127\.0\.0\.1:\d+\/app\/[0-9a-f]{32}$/);
    // The view's script (in the document) frames the app; the bridge is the document's second script,
    // after it, by URI and deferred: 670 KB the document does not carry.
    const bridge = /<script nonce="[^"]+" src="[^"]*\/dist\/webview\/appBridge\.js" defer><\/script>/.exec(panel.html);
    assert.ok(bridge, 'the bridge is fetched by URI, deferred');
    assert.ok(bridge.index > panel.html.indexOf('initial-message'));
    assert.ok(panel.html.length < 100_000, `the document is ${panel.html.length} characters`);
    // A page that framed the app from its document is told the current theme; one that found no
    // `open` in it is sent one.
    const themed = panel.next('theme');
    await panel.send({ type: 'ready', opened: true });
    assert.deepEqual(await themed, { type: 'theme', theme: 'dark' });
    const reopened = panel.next('open');
    await panel.send({ type: 'ready' });
    assert.deepEqual(await reopened, open);
    assert.ok(csp.includes(new URL(open.url).origin));
    assert.equal(open.theme, 'dark');
    assert.equal(open.tool.name, 'get-system-info');
    assert.equal(open.allow, '');
    const doc = await fetch(open.url);
    assert.equal(doc.status, 200);
    // system-monitor declares no CSP: the spec's default, no network at all.
    assert.match(doc.headers.get('content-security-policy')!, /^default-src 'none'; .*connect-src 'none'/);
    assert.match(await doc.text(), /<html/i);

    const request = async (id: number, method: 'tools/call' | 'ui/open-link', params: Record<string, unknown>) => {
      const answered = panel.next('response');
      await panel.send({ type: 'request', id, method, params });
      const r = (await answered) as Extract<ToAppView, { type: 'response' }>;
      assert.equal(r.id, id);
      return r;
    };

    // The app-only polling tool is not marked read-only: the person is asked, naming app, server, tool.
    modalAnswer = () => undefined;
    const refused = await request(1, 'tools/call', { name: 'poll-system-stats', arguments: {} });
    assert.match(refused.error!, /did not allow/);
    assert.match(modals.at(-1)!.message, /poll-system-stats of monitor/);
    assert.deepEqual(modals.at(-1)!.items, ['Allow', 'Allow for this App']);
    modalAnswer = () => 'Allow for this App';
    const polled = await request(2, 'tools/call', { name: 'poll-system-stats', arguments: {} });
    assert.equal(polled.error, undefined);
    assert.ok(Array.isArray((polled.result as { content?: unknown }).content));
    // Allowed for this app: the next poll asks nobody.
    const asked = modals.length;
    assert.equal((await request(3, 'tools/call', { name: 'poll-system-stats', arguments: {} })).error, undefined);
    assert.equal(modals.length, asked);
    // A tool its server does not list is refused without asking.
    assert.match((await request(4, 'tools/call', { name: 'delete-everything', arguments: {} })).error!, /no tool delete-everything/);
    assert.equal(modals.length, asked);

    // Links: only http(s), and only after consent.
    assert.match((await request(5, 'ui/open-link', { url: 'javascript:alert(1)' })).error!, /only http and https/);
    modalAnswer = () => undefined;
    assert.deepEqual((await request(6, 'ui/open-link', { url: 'https://example.com/a' })).result, { isError: true });
    assert.deepEqual(opened, []);
    modalAnswer = () => 'Open';
    assert.deepEqual((await request(7, 'ui/open-link', { url: 'https://example.com/a' })).result, {});
    assert.deepEqual(opened, ['https://example.com/a']);

    // Show as Text: the result view gets the call as the caller gave it (header, times, history id).
    await panel.send({ type: 'showText' });
    assert.deepEqual(textShown.at(-1), {
      server: 'monitor',
      method: 'tools/call',
      target: 'get-system-info',
      result,
      rounds: 0,
      historyId: 'h1',
    });

    // Closing the view: its document is no longer served.
    assert.equal(views.openViews, 1);
    panel.dispose();
    assert.equal(views.openViews, 0);
    assert.equal((await fetch(open.url)).status, 404);
  });

  it('a tool without an app opens no view', async () => {
    const before = panels.length;
    const entry = { name: 'monitor', def: {} } as never;
    assert.equal(await views.show({ entry, tool: 'poll-system-stats', arguments: {} }, { quiet: true }), false);
    assert.equal(panels.length, before);
  });
});
