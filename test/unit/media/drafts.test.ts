/**
 * What the person typed in a round panel survives the page being written again (a card of the open
 * panel comes to frame an app, so the document's CSP changes): media/src/roundPanel/drafts.ts.
 */
import assert from 'node:assert/strict';
import { saveDraft, withDrafts } from '../../../media/src/roundPanel/drafts';
import { takeInitialMessage, type WebviewStateStore } from '../../../media/src/roundPanel/initialMessage';
import type { FormInputView, RoundView } from '../../../src/vscode/roundPanel/protocol';
import { jsonDataBlock } from '../../../src/vscode/shared/webviewHtml';

/** The workbench's webview state: kept across reloads of the page. */
function store(initial?: unknown): WebviewStateStore & { state: unknown } {
  const s = { state: initial, get: () => s.state, set: (v: unknown) => (s.state = v) };
  return s;
}

function form(id: string, state: FormInputView['state'] = 'pending'): FormInputView {
  return {
    kind: 'form',
    id,
    key: id,
    message: 'Details',
    state,
    fields: [
      { key: 'name', label: 'Name', kind: 'string', required: true, initial: 'from the server', initialSource: 'default' },
      { key: 'seats', label: 'Seats', kind: 'integer', required: false },
      { key: 'vip', label: 'VIP', kind: 'boolean', required: false },
    ],
  } as unknown as FormInputView;
}

function round(items: RoundView['items']): RoundView {
  return {
    kind: 'round',
    server: 's',
    method: 'tools/call',
    target: 't',
    round: 2,
    roundSeq: 2,
    status: 'open',
    items,
  } as unknown as RoundView;
}

const fieldsOf = (v: RoundView, id: string) => (v.items.find((i) => i.id === id) as FormInputView).fields;

describe('round panel: what was typed survives the page written again', () => {
  it('a form opens with the values typed before the reload, not the view pre-fill', () => {
    const s = store();
    // The first page: its first view, then the person types in the form of input "a".
    assert.ok('message' in takeInitialMessage({ getElementById: () => ({ textContent: jsonDataBlock({}), remove() {} }) } as never, s));
    saveDraft(s, 'a', { name: 'Ada', seats: '4', vip: true });
    // The document is written again (an app card arrives): the page is new, the state is kept.
    const again = takeInitialMessage({ getElementById: () => ({ textContent: jsonDataBlock({}), remove() {} }) } as never, s);
    assert.deepEqual(again, { none: 'shown before' });
    const shown = withDrafts(round([form('a'), form('app')]), s);
    const fields = fieldsOf(shown, 'a');
    assert.deepEqual(
      fields.map((f) => f.initial),
      ['Ada', '4', true],
    );
    assert.equal(fields[0].initialSource, undefined, 'not said to be a default');
    assert.deepEqual(fieldsOf(shown, 'app')[0].initial, 'from the server', 'a form never typed in keeps its pre-fill');
  });

  it('an emptied field stays empty; an answered form and other inputs are left alone; gone inputs are forgotten', () => {
    const s = store({ initialShown: true });
    saveDraft(s, 'a', { name: null });
    saveDraft(s, 'done', { name: 'x' });
    saveDraft(s, 'gone', { name: 'y' });
    const shown = withDrafts(round([form('a'), form('done', 'accepted')]), s);
    assert.equal(fieldsOf(shown, 'a')[0].initial, undefined);
    assert.equal(fieldsOf(shown, 'done')[0].initial, 'from the server');
    assert.deepEqual(s.state, { initialShown: true, drafts: { a: { name: null }, done: { name: 'x' } } });
  });

  it('without drafts the view is drawn as sent', () => {
    const v = round([form('a')]);
    assert.equal(withDrafts(v, store({ initialShown: true })), v);
  });
});
