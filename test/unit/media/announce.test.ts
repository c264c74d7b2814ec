/**
 * The webview's status line (media/src/shared/announce.ts): while the workbench still hides a new
 * page, the latest text waits; it is said when the page gets its first message or a task after its
 * `load` event. Run under Node with a stand-in document and window.
 */
import assert from 'node:assert/strict';

type Listener = () => void;

describe('the webview status line', () => {
  const listeners: Record<string, Listener[]> = {};
  const g = globalThis as unknown as { document?: unknown; window?: unknown };
  let mod: typeof import('../../../media/src/shared/announce');
  const fire = (type: string) => {
    const ls = listeners[type] ?? [];
    listeners[type] = [];
    ls.forEach((l) => l());
  };
  const load = (path: string) => {
    for (const k of Object.keys(listeners)) delete listeners[k];
    delete require.cache[require.resolve(path)];
    return require(path) as typeof import('../../../media/src/shared/announce');
  };

  before(() => {
    g.document = { createElement: () => ({ setAttribute() {}, textContent: '', className: '' }) };
    g.window = { addEventListener: (type: string, l: Listener) => (listeners[type] ??= []).push(l) };
  });
  after(() => {
    delete g.document;
    delete g.window;
    delete require.cache[require.resolve('../../../media/src/shared/announce')];
  });

  it('holds the latest text while the page is hidden and says it at its first message', () => {
    mod = load('../../../media/src/shared/announce');
    mod.announce('demo asks for input (round 1): 1 request.');
    mod.announce('demo asks for input (round 1): 2 requests.');
    assert.equal(mod.status.textContent, '', 'nothing said while hidden');
    fire('message');
    assert.equal(mod.status.textContent, 'demo asks for input (round 1): 2 requests.');
    mod.announce('Answers sent.');
    assert.equal(mod.status.textContent, 'Answers sent.', 'said at once once shown');
  });

  it('says it a task after load when no message comes, and a later text is not overwritten by the held one', async () => {
    mod = load('../../../media/src/shared/announce');
    mod.announce('held');
    fire('load');
    assert.equal(mod.status.textContent, '', 'not in the load event itself: the workbench shows the frame in its own listener, after');
    // A timer of the same delay set after the module's fires after it (Node runs them in order).
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(mod.status.textContent, 'held');
    fire('message');
    mod.announce('newer');
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(mod.status.textContent, 'newer');
  });
});
