/**
 * The waiting-round signal (issue 43): a round waiting in a panel that is not on screen lights the
 * status bar item "$(bell-dot) ‹server› waits for you" (a count when several), whose command **Show
 * Waiting Round** brings the panel forward; a notification comes only when the window is not focused;
 * the item goes out once the round is answered or the call ends. Runs the round panels under the
 * bench's `vscode` stub, with stand-in webview panels that are in a background tab.
 */
import assert from 'node:assert/strict';
import type { RoundTripLog } from '../../../src/vscode/shared/roundTripLog';
import { resolvedManifest } from '../../support/manifest';
import { ctx, form, round } from '../../support/panels';
import { useVscodeStub, VSCODE_STUB } from '../../support/vscodeStub';

interface StandIn {
  visible: boolean;
  reveals: unknown[][];
  send(m: unknown): void;
}

interface StubItem {
  id: string;
  text: string;
  command?: string;
  visible: boolean;
}

const LOG = { warn: () => {}, channel: { debug: () => {} } } as unknown as RoundTripLog;
const NAME = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the waiting-round signal', () => {
  useVscodeStub();
  let vscode: Record<string, unknown> & { window: Record<string, unknown> };
  let waitingRounds: typeof import('../../../src/vscode/roundPanel/waitingRounds');
  let roundPanels: typeof import('../../../src/vscode/roundPanel/roundPanels');
  const saved: Record<string, unknown> = {};
  let panels: StandIn[];
  let notes: { message: string; buttons: string[]; answer: (v: string | undefined) => void }[];

  before(() => {
    vscode = require(VSCODE_STUB) as typeof vscode;
    waitingRounds = require('../../../src/vscode/roundPanel/waitingRounds') as typeof waitingRounds;
    roundPanels = require('../../../src/vscode/roundPanel/roundPanels') as typeof roundPanels;
    for (const k of ['createWebviewPanel', 'showInformationMessage', 'state']) saved[k] = vscode.window[k];
  });
  after(() => Object.assign(vscode.window, saved));
  beforeEach(() => {
    panels = [];
    notes = [];
    vscode.window.createWebviewPanel = () => {
      let listener: (m: unknown) => void = () => {};
      const panel = {
        title: '',
        active: false,
        visible: false,
        reveals: [] as unknown[][],
        reveal: (...a: unknown[]) => panel.reveals.push(a),
        onDidDispose: () => ({ dispose: () => {} }),
        dispose: () => {},
        send: (m: unknown) => listener(m),
        webview: {
          html: '',
          cspSource: 'vscode-webview://test',
          asWebviewUri: (u: { path: string }) => ({ toString: () => `vscode-webview://test${u.path}` }),
          onDidReceiveMessage: (l: (m: unknown) => void) => ((listener = l), { dispose: () => {} }),
          postMessage: () => Promise.resolve(true),
        },
      };
      panels.push(panel);
      return panel;
    };
    vscode.window.showInformationMessage = (message: string, ...buttons: string[]) =>
      new Promise<string | undefined>((answer) => notes.push({ message, buttons, answer }));
    vscode.window.state = { focused: false, active: false };
  });

  function setUp() {
    const waiting = new waitingRounds.WaitingRounds();
    const items = (vscode as unknown as { __statusBarItems: StubItem[] }).__statusBarItems;
    const item = items[items.length - 1];
    const ui = roundPanels.createRoundPanels({ extensionUri: { scheme: 'file', path: '/nowhere' } } as never, LOG, waiting);
    return { waiting, item, ui };
  }

  it('a round in a background tab lights the item; its notification and the command bring the panel forward; the answer puts it out', async () => {
    const { waiting, item, ui } = setUp();
    assert.equal(item.id, 'mcpRoundtrip.waiting');
    assert.equal(item.visible, false);
    const r = round([['who', 'elicitation/create']], 1, 11);
    const answer = ui.elicit(form(NAME), ctx(r, 'who'));
    assert.equal(item.visible, true);
    assert.equal(item.text, '$(bell-dot) demo waits for you');
    assert.equal(item.command, 'mcpRoundtrip.showWaitingRound');
    assert.equal(waiting.waits('demo'), true);
    assert.equal(notes.length, 1, 'the window is not focused and the panel is hidden: a notification');
    assert.match(notes[0].message, /demo waits for your answer \(book_table, round 1\)/);
    assert.deepEqual(notes[0].buttons, ['Show Round']);
    notes[0].answer('Show Round');
    await settle();
    assert.deepEqual(panels[0].reveals, [[undefined, false]]);
    await waiting.show();
    assert.equal(panels[0].reveals.length, 2, 'Show Waiting Round reveals the only waiting panel');
    panels[0].send({ type: 'cancel' });
    assert.deepEqual(await answer, { action: 'cancel' });
    await settle();
    assert.equal(item.visible, false, 'answered: nothing waits');
    assert.equal(waiting.waits('demo'), false);
    ui.dispose();
    waiting.dispose();
  });

  it('several waiting rounds show a count and a pick; a focused window gets no notification; the end of a call puts it out', async () => {
    vscode.window.state = { focused: true, active: true };
    const { waiting, item, ui } = setUp();
    const first = round([['who', 'elicitation/create']], 1, 21);
    const second = { ...round([['who', 'elicitation/create']], 2, 22), server: 'weather', target: 'forecast' };
    void ui.elicit(form(NAME), ctx(first, 'who')).catch(() => undefined);
    void ui.elicit(form(NAME), ctx(second, 'who')).catch(() => undefined);
    assert.equal(notes.length, 0, 'the window is focused: the status bar says it');
    assert.equal(item.text, '$(bell-dot) demo waits for you (+1)');
    const picks = (vscode as unknown as { __quickPicks: { items: { label: string; description: string }[]; answer(v: unknown): void }[] })
      .__quickPicks;
    const shown = waiting.show();
    const pick = picks[picks.length - 1];
    assert.deepEqual(
      pick.items.map((i) => [i.label, i.description]),
      [
        ['demo', 'book_table, round 1'],
        ['weather', 'forecast, round 2'],
      ],
    );
    pick.answer(pick.items[1]);
    await shown;
    assert.equal(panels[1].reveals.length, 1, "the chosen round's panel comes forward");
    assert.equal(panels[0].reveals.length, 0);
    ui.endFlow(22);
    assert.equal(item.text, '$(bell-dot) demo waits for you');
    ui.endFlow(21);
    assert.equal(item.visible, false);
    ui.dispose();
    waiting.dispose();
  });

  it('the command is contributed as "Show Waiting Round"', () => {
    const manifest = resolvedManifest() as { contributes: { commands: { command: string; title: string }[] } };
    const c = manifest.contributes.commands.find((x) => x.command === waitingRounds.SHOW_WAITING_ROUND);
    assert.equal(c?.title, 'Show Waiting Round');
  });
});
