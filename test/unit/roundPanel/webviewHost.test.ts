/**
 * The round panel's webview host (src/vscode/roundPanel/webviewHost.ts) under the bench's `vscode`
 * stub, with a stand-in panel that records what the host does to it, in order.
 */
import assert from 'node:assert/strict';
import type { PanelView } from '../../../src/vscode/roundPanel/protocol';
import type { RoundTripLog } from '../../../src/vscode/shared/roundTripLog';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';

type Op = string;

/** A stand-in webview panel: every post, title change and reveal is recorded in `ops`. */
function standInPanel(ops: Op[], title: string) {
  let current = title;
  const disposed: (() => void)[] = [];
  return {
    get title() {
      return current;
    },
    set title(v: string) {
      ops.push(`title ${v}`);
      current = v;
    },
    active: true,
    reveal: (col?: unknown, preserveFocus?: boolean) => ops.push(`reveal ${String(col)} ${String(preserveFocus)}`),
    onDidDispose: (l: () => void) => (disposed.push(l), { dispose: () => {} }),
    dispose: () => (ops.push('dispose'), disposed.forEach((l) => l())),
    webview: {
      html: '',
      cspSource: 'vscode-webview://test',
      asWebviewUri: (u: { path: string }) => ({ toString: () => `vscode-webview://test${u.path}` }),
      /** What the page posts: handed to the host's listener. */
      receive: (_m: unknown): void => {},
      onDidReceiveMessage(l: (m: unknown) => void) {
        this.receive = l;
        return { dispose: () => {} };
      },
      posted: [] as unknown[],
      postMessage(m: { type: string; view?: { kind: string; round?: number } }) {
        this.posted.push(m);
        ops.push(`post ${m.type} ${m.view?.kind}${m.view?.round !== undefined ? ` ${m.view.round}` : ''}`);
        return Promise.resolve(true);
      },
    },
  };
}

const LOG = { warn: () => {}, channel: { debug: () => {} } } as unknown as RoundTripLog;
const args = { kind: 'arguments', server: 'demo', name: 'book_table', fields: [] } as unknown as PanelView;
const round = (n: number) => ({ kind: 'round', server: 'demo', target: 'book_table', round: n, items: [] }) as unknown as PanelView;
/** Round `n` asking one form whose message is `message`. */
const roundAsking = (n: number, message: string) =>
  ({
    ...(round(n) as object),
    items: [{ kind: 'form', id: `i${n}`, key: 'k', message, fields: [], state: 'pending' }],
  }) as unknown as PanelView;
const titleOf = (v: PanelView) =>
  v.kind === 'arguments' ? `${v.server}: ${v.name} arguments` : `${v.server}: ${v.target} (round ${v.round})`;

describe("the round panel's webview host", () => {
  useVscodeStub();
  let WebviewHost: typeof import('../../../src/vscode/roundPanel/webviewHost').WebviewHost;
  let window: { createWebviewPanel: unknown; state: { focused: boolean } };
  let created: { viewType: string; title: string }[];
  let panels: ReturnType<typeof standInPanel>[];
  let ops: Op[];
  let shown: { viewColumn: number; preserveFocus: boolean }[];
  let saved: unknown;
  before(() => {
    ({ WebviewHost } =
      require('../../../src/vscode/roundPanel/webviewHost') as typeof import('../../../src/vscode/roundPanel/webviewHost'));
    window = (require(VSCODE_STUB) as { window: typeof window }).window;
    saved = window.createWebviewPanel;
  });
  beforeEach(() => {
    created = [];
    shown = [];
    panels = [];
    ops = [];
    window.createWebviewPanel = (viewType: string, title: string, show: { viewColumn: number; preserveFocus: boolean }) => {
      created.push({ viewType, title });
      shown.push(show);
      ops.push(`create ${title}`);
      const panel = standInPanel(ops, title);
      panels.push(panel);
      return panel;
    };
  });
  afterEach(() => (window.state.focused = true));
  after(() => {
    window.createWebviewPanel = saved;
  });

  const host = () => new WebviewHost<PanelView>({ scheme: 'file', path: '/nowhere', fsPath: '/nowhere' } as never, LOG, titleOf);

  it('creates its panel, titled for the first view, with that view written into its document instead of posted', () => {
    host().render(args, true);
    assert.deepEqual(created, [{ viewType: 'mcpRoundtrip.round', title: 'demo: book_table arguments' }]);
    assert.deepEqual(ops, ['create demo: book_table arguments']);
    const block = /<script type="application\/json" id="initial-message">([^<]*)<\/script>/.exec(panels[0].webview.html);
    assert.ok(block, panels[0].webview.html);
    assert.deepEqual(JSON.parse(block[1]), { type: 'view', view: args });
  });

  it('closes the panel it created when the view cannot be written into its document, and opens a new one for the next view', () => {
    const h = host();
    const unwritable = { ...(round(1) as object), big: BigInt(1) } as unknown as PanelView;
    assert.throws(() => h.render(unwritable, true), TypeError);
    assert.deepEqual(ops, ['create demo: book_table (round 1)', 'dispose']);
    h.render(round(2), true);
    assert.equal(created.length, 2, 'no half-made panel is kept');
  });

  it("gives the webview a server's long message cut, in the document and posted alike, and keeps the model's view whole", () => {
    const h = host();
    const long = 'M'.repeat(100_000);
    const first = roundAsking(1, long);
    h.render(first, true);
    const block = /<script type="application\/json" id="initial-message">([^<]*)<\/script>/.exec(panels[0].webview.html);
    const written = JSON.parse(block![1]) as { view: { items: { message: string }[] } };
    assert.equal(written.view.items[0].message, `${'M'.repeat(4000)} … (96000 more characters)`);
    h.render(roundAsking(2, long), true);
    const posted = panels[0].webview.posted[0] as { view: { items: { message: string }[] } };
    assert.equal(posted.view.items[0].message.length, 4000 + ' … (96000 more characters)'.length);
    assert.equal((first as unknown as { items: { message: string }[] }).items[0].message, long, 'the view the model built is not changed');
  });

  it('posts a new view to its open panel before it changes the tab title (the webview gets it first)', () => {
    const h = host();
    h.render(args, true);
    h.render(round(1), true);
    assert.deepEqual(ops.slice(1), ['post view round 1', 'title demo: book_table (round 1)']);
    assert.equal(created.length, 1, 'the open panel is reused');
  });

  it('tells the person closing its panel apart from closing it itself, and opens a new panel after either', () => {
    const h = host();
    let closedByPerson = 0;
    h.onClosed = () => closedByPerson++;
    h.render(round(1), true);
    h.close();
    assert.equal(closedByPerson, 0, 'closing it ourselves is not the person closing it');
    h.render(round(2), true);
    // The stand-in's own dispose plays the person closing the tab.
    panels[1].dispose();
    assert.equal(closedByPerson, 1);
    h.render(round(3), true);
    assert.deepEqual(
      created.map((c) => c.title),
      ['demo: book_table (round 1)', 'demo: book_table (round 2)', 'demo: book_table (round 3)'],
    );
  });

  it('reveals a panel that is not in front before posting its view, keeping the focus where it is for a call asked from chat', () => {
    const h = host();
    const chat = (n: number) => ({ ...(round(n) as object), askedFrom: 'asked from chat' }) as unknown as PanelView;
    h.render(chat(1), true);
    assert.deepEqual(shown, [{ viewColumn: -2, preserveFocus: true }]);
    panels[0].active = false;
    h.render(chat(2), true);
    // Without reveal (the webview's `ready` bringing the view again), a panel not in front stays where it is.
    h.render(chat(2), false);
    assert.deepEqual(ops.slice(1), [
      'reveal undefined true',
      'post view round 2',
      'title demo: book_table (round 2)',
      'post view round 2',
      'title demo: book_table (round 2)',
    ]);
  });

  it('asks once for the focus again when the page of a panel opened with it was shown without it; the rest of its messages go on to the panel', () => {
    const h = host();
    const heard: unknown[] = [];
    h.onMessage = (m) => heard.push(m);
    h.render(round(1), true);
    panels[0].webview.receive({ type: 'unfocused' });
    panels[0].webview.receive({ type: 'unfocused' });
    panels[0].webview.receive({ type: 'ready' });
    assert.deepEqual(ops.slice(1), ['reveal undefined false'], 'revealed with the focus, once');
    assert.deepEqual(heard, [{ type: 'ready' }], 'the panel never hears of it');
  });

  it('never asks for the focus for a panel opened beside chat, one no longer in front, or a window without the focus', () => {
    const fromChat = host();
    fromChat.render({ ...(round(1) as object), askedFrom: 'asked from chat' } as unknown as PanelView, true);
    panels[0].webview.receive({ type: 'unfocused' });
    const behind = host();
    behind.render(round(1), true);
    panels[1].active = false;
    panels[1].webview.receive({ type: 'unfocused' });
    const away = host();
    away.render(round(1), true);
    window.state.focused = false;
    panels[2].webview.receive({ type: 'unfocused' });
    assert.deepEqual(
      ops.filter((o) => o.startsWith('reveal')),
      [],
    );
    // A message with more than its type is not this one: it goes on to the panel (whose parser drops it).
    const heard: unknown[] = [];
    away.onMessage = (m) => heard.push(m);
    window.state.focused = true;
    panels[2].active = true;
    panels[2].webview.receive({ type: 'unfocused', x: 1 });
    assert.deepEqual(heard, [{ type: 'unfocused', x: 1 }]);
  });

  it('asks for the focus only for its first page, soon after the panel opened: not for a page written again, nor late', () => {
    const h = host();
    h.render(round(1), true);
    // A card that frames an app: the document is written again, and that new page never asks.
    const withApp = {
      ...(round(2) as object),
      items: [
        { kind: 'form', id: 'i2', key: 'k', message: 'm', fields: [], state: 'pending', app: { url: 'https://app.example.test/ui' } },
      ],
    } as unknown as PanelView;
    h.render(withApp, true);
    panels[0].webview.receive({ type: 'unfocused' });
    const late = host();
    const now = Date.now;
    late.render(round(1), true);
    try {
      Date.now = () => now() + 2001;
      panels[1].webview.receive({ type: 'unfocused' });
    } finally {
      Date.now = now;
    }
    assert.deepEqual(
      ops.filter((o) => o.startsWith('reveal')),
      [],
    );
  });
});
