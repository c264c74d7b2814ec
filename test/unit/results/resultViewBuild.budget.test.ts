/**
 * One result's Markdown sniffing and text are bounded as a whole, not per block: a hostile server's
 * 100 blocks of 100 000 `[` (minutes of backtracking with the old pattern, seconds even linear) cost
 * the view one budget of characters looked at, counted here by the budget itself, not by a clock.
 */
import assert from 'node:assert/strict';
import { MAX_SNIFFED_PER_RESULT, sniffBudget } from '../../../src/core/results/markdownSniff';
import { buildResultView, MAX_SHOWN_RESULT_TEXT, MAX_SHOWN_TEXT, type ShownCall } from '../../../src/core/results/resultViewBuild';

const call = (content: unknown[]): ShownCall => ({ server: 'hostile', method: 'tools/call', target: 't', result: { content } });

describe('result view: one budget per result', () => {
  it('100 blocks of 100 000 "[": the characters looked at stay within one budget for the whole result', () => {
    const blocks = Array.from({ length: 100 }, () => ({ type: 'text', text: '['.repeat(100_000) }));
    const budget = sniffBudget();
    const view = buildResultView(call(blocks), budget);
    // What the budget gave away is what was looked at: it can only go below zero by what was not.
    const lookedAt = MAX_SNIFFED_PER_RESULT - Math.max(0, budget.chars);
    assert.ok(lookedAt <= MAX_SNIFFED_PER_RESULT, `looked at ${lookedAt}`);
    assert.ok(budget.chars <= 0, 'the budget was spent on the first blocks, the rest were not looked at');
    assert.equal(view.blocks.length, 100);
    assert.ok(view.blocks.every((b) => b.kind === 'omitted' || (b.kind === 'text' && !b.markdown)));
  });

  it('past the budget a text is not looked at: Markdown after it is shown as plain text, and alone it reads as Markdown', () => {
    const md = { type: 'text', text: '# A heading\n\nsee [the docs](https://x.test)' };
    const filler = Array.from({ length: MAX_SNIFFED_PER_RESULT / 100_000 }, () => ({ type: 'text', text: '['.repeat(100_000) }));
    const after = buildResultView(call([...filler, md])).blocks.at(-1);
    assert.deepEqual(after, { kind: 'text', text: md.text, markdown: false });
    assert.deepEqual(buildResultView(call([md])).blocks[0], { kind: 'text', text: md.text, markdown: true });
  });

  it('the text sent to the view is bounded for the whole result: later blocks are named, with Open raw', () => {
    const count = Math.ceil(MAX_SHOWN_RESULT_TEXT / MAX_SHOWN_TEXT) + 5;
    const blocks = Array.from({ length: count }, () => ({ type: 'text', text: 'x'.repeat(MAX_SHOWN_TEXT) }));
    const view = buildResultView(call(blocks));
    const sent = view.blocks.reduce((n, b) => n + (b.kind === 'text' ? b.text.length : 0), 0);
    assert.ok(sent <= MAX_SHOWN_RESULT_TEXT, `sent ${sent}`);
    const omitted = view.blocks.filter((b) => b.kind === 'omitted');
    assert.equal(omitted.length, 5);
    assert.match((omitted[0] as { what: string }).what, /text \(100000 characters\): past what the view shows of one result; use Open raw/);
  });
});
