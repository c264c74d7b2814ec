/** A new round panel's first message, taken from its document once per panel (media/src/roundPanel/initialMessage.ts). */
import assert from 'node:assert/strict';
import { takeInitialMessage, type WebviewStateStore } from '../../../media/src/roundPanel/initialMessage';
import { jsonDataBlock } from '../../../src/vscode/shared/webviewHtml';

/** A document holding (or not) the data block, and a record of the block's removal. */
function page(text: string | undefined) {
  const block = { textContent: text ?? '', removed: false, remove: () => (block.removed = true) };
  const asked: string[] = [];
  const doc = { getElementById: (id: string) => (asked.push(id), text === undefined ? null : block) } as unknown as Pick<
    Document,
    'getElementById'
  >;
  return { doc, block, asked };
}

/** The workbench's webview state: kept across reloads of the page. */
function store(initial?: unknown): WebviewStateStore & { state: unknown } {
  const s = { state: initial, get: () => s.state, set: (v: unknown) => (s.state = v) };
  return s;
}

describe("the round panel's first message in its document", () => {
  const view = { type: 'view', view: { kind: 'round', title: '</script><!-- "x" & \u2028' } };

  it('is parsed from the block, which is removed, and the state records it was shown', () => {
    const p = page(jsonDataBlock(view));
    const s = store({ other: 1 });
    assert.deepEqual(takeInitialMessage(p.doc, s), { message: view });
    assert.deepEqual(p.asked, ['initial-message']);
    assert.equal(p.block.removed, true);
    assert.deepEqual(s.state, { other: 1, initialShown: true });
  });

  it('is not taken again by a reloaded page (the same document, the state kept): the view it holds is out of date', () => {
    const s = store();
    assert.ok('message' in takeInitialMessage(page(jsonDataBlock(view)).doc, s));
    const reloaded = page(jsonDataBlock(view));
    assert.deepEqual(takeInitialMessage(reloaded.doc, s), { none: 'shown before' });
    assert.equal(reloaded.block.removed, true, 'the block is removed all the same');
  });

  it('names a block that is not JSON, and is absent without a block', () => {
    const bad = takeInitialMessage(page('{"type":').doc, store());
    assert.ok('error' in bad);
    assert.match(bad.error, /^the first view written into the page is not valid JSON \(.+\); it comes again from the extension$/);
    assert.deepEqual(takeInitialMessage(page(undefined).doc, store()), { none: 'absent' });
  });
});
