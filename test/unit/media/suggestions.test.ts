/** The webview side of field suggestions (media/src/roundPanel/suggestions.ts), under Node with a hand-run timer. */
import assert from 'node:assert/strict';
import { fillOptions, SUGGEST_DELAY_MS, Suggestions } from '../../../media/src/roundPanel/suggestions';
import type { FromWebview } from '../../../src/vscode/roundPanel/protocol';

function harness(values: Record<string, string> = {}) {
  const posted: FromWebview[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  const s = new Suggestions(
    (m) => posted.push(m),
    () => values,
    (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return () => (t.cleared = true);
    },
  );
  const fire = () => timers.filter((t) => !t.cleared).forEach((t) => ((t.cleared = true), t.fn()));
  return { s, posted, timers, fire };
}

describe('round panel: suggestions of a field', () => {
  it('typing is debounced: one request, after the pause, with the other non-empty fields as context', () => {
    const h = harness({ department: 'Engineering', name: 'A', empty: '' });
    h.s.typed('name', 'A');
    h.s.typed('name', 'Al');
    assert.equal(h.posted.length, 0, 'nothing before the pause');
    assert.equal(h.timers[0].cleared, true, 'a keystroke restarts the pause');
    assert.equal(h.timers[1].ms, SUGGEST_DELAY_MS);
    h.fire();
    assert.deepEqual(h.posted, [{ type: 'complete', key: 'name', value: 'Al', context: { department: 'Engineering' }, seq: 1 }]);
  });

  it("only the answer to a field's latest request is shown, at most 100 values", () => {
    const h = harness();
    h.s.typed('a', 'x');
    h.fire();
    h.s.typed('a', 'xy');
    h.fire();
    assert.equal(h.s.received({ type: 'suggestions', key: 'a', seq: 1, values: ['old'] }), undefined);
    const many = Array.from({ length: 120 }, (_, i) => String(i));
    assert.equal(h.s.received({ type: 'suggestions', key: 'a', seq: 2, values: many })?.length, 100);
    h.s.stop();
    assert.equal(h.s.received({ type: 'suggestions', key: 'a', seq: 2, values: many }), undefined, 'nothing after the form is sent');
  });

  it('a value too long to send asks nothing', () => {
    const h = harness();
    h.s.typed('a', 'x'.repeat(20_000));
    h.fire();
    assert.equal(h.posted.length, 0);
  });

  it('fills the datalist with options whose value is the text (markup stays text)', () => {
    const created: { value: string }[] = [];
    let children: unknown[] = [];
    const list = {
      ownerDocument: { createElement: () => (created.push({ value: '' }), created.at(-1)!) },
      replaceChildren: (...nodes: never[]) => void (children = nodes),
    };
    fillOptions(list, ['<img src=x onerror=alert(1)>', 'Engineering']);
    assert.deepEqual(
      children.map((c) => (c as { value: string }).value),
      ['<img src=x onerror=alert(1)>', 'Engineering'],
    );
  });
});
