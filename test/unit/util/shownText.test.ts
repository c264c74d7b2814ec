import assert from 'node:assert/strict';
import { shownText } from '../../../src/core/util/shownText';

describe('shownText (server text cut for showing)', () => {
  it('gives text of at most the limit whole', () => {
    assert.equal(shownText('abc', 3), 'abc');
    assert.equal(shownText('', 1), '');
  });

  it('keeps the first characters of longer text and counts the rest', () => {
    assert.equal(shownText('abcdef', 4), 'abcd … (2 more characters)');
  });

  it('never keeps half of a surrogate pair', () => {
    // "a😀b": the emoji is two code units; a cut after the first would leave a lone surrogate.
    assert.equal(shownText('a\u{1F600}b', 2), 'a … (3 more characters)');
    assert.equal(shownText('a\u{1F600}b', 3), 'a\u{1F600} … (1 more characters)');
  });
});
