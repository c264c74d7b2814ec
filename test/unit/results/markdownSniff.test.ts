/** Markdown sniffing of plain text (src/core/results/markdownSniff.ts): the same verdicts as the pattern it replaced, in one pass. */
import assert from 'node:assert/strict';
import { looksLikeMarkdown, MAX_SNIFFED_CHARS } from '../../../src/core/results/markdownSniff';

/** The pattern the sniff replaced: right on every text, but quadratic on a run of `[` or of `**x`. */
const BACKTRACKING = /^#{1,6} |^\s*[-*] \S|^\s*\d+\. \S|^```|^> |\*\*[^*\n]+\*\*|\[[^\]\n]+\]\([^)\n]+\)|^\|.+\|\s*$/m;

/** A small deterministic generator (xorshift), so a failure names a text that can be replayed. */
function texts(count: number, alphabet: string, maxLength: number): string[] {
  let seed = 0x2f6b1d3;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 0x100000000;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: Math.floor(next() * maxLength) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  );
}

describe('looksLikeMarkdown', () => {
  it('gives the old pattern’s verdict on 20 000 generated texts of Markdown’s marks', () => {
    for (const text of texts(20_000, '[]()*#-|>`1. a\n\r\t\u2028', 24))
      assert.equal(looksLikeMarkdown(text), BACKTRACKING.test(text), JSON.stringify(text));
  });

  it('each mark on its own, and text that only resembles one', () => {
    for (const md of [
      '# Title',
      '  - item',
      '* item',
      '12. step',
      '```ts',
      '> quoted',
      'a **bold** word',
      'see [the docs](https://x.test)',
      '| a | b |',
      'x\n[a[](x)',
    ])
      assert.ok(looksLikeMarkdown(md), md);
    for (const plain of ['{"a": 1}', '#hashtag', '-1 degrees', '** not closed', '[a]', '[](x)', '[a]()', 'a * b * c', '|a|b', '[a\n](x)'])
      assert.ok(!looksLikeMarkdown(plain), plain);
  });

  it('runs of brackets and stars on one line, which held the extension host, are sniffed at once', () => {
    // Each would take the old pattern hours at this size: the test's time limit is the assertion.
    assert.equal(looksLikeMarkdown('['.repeat(2_000_000)), false);
    assert.equal(looksLikeMarkdown('[a'.repeat(700_000)), false);
    assert.equal(looksLikeMarkdown('[a]('.repeat(500_000)), false);
  });

  it(`looks at the first ${MAX_SNIFFED_CHARS} characters only`, () => {
    assert.equal(looksLikeMarkdown(`${'x'.repeat(MAX_SNIFFED_CHARS)}\n# Late heading`), false);
    assert.equal(looksLikeMarkdown(`${'x'.repeat(MAX_SNIFFED_CHARS - 20)}\n# Heading`), true);
  });
});
