/** URL consent has one rule for whoever answers (round panel, terminal, --answers): only http and https can be accepted. */
import assert from 'node:assert/strict';
import { checkAnswer } from '../../../src/core/inputs/answers';
import type { InputRequestEntry } from '../../../src/core/inputs/inputProvider';
import { HostError } from '../../../src/core/util/errors';

const entry = (url: string): InputRequestEntry => ({ key: 'u', method: 'elicitation/create', params: { mode: 'url', message: 'Go', url } });

describe('answers: URL consent', () => {
  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'vscode://x', 'not a url']) {
    it(`an accept of ${JSON.stringify(url)} is refused before it can be sent; a decline or cancel passes`, () => {
      assert.throws(
        () => checkAnswer(entry(url), { action: 'accept' }),
        (e: unknown) => e instanceof HostError && e.kind === 'protocol' && /only an http or https URL can be accepted/.test(e.message),
      );
      assert.deepEqual(checkAnswer(entry(url), { action: 'decline' }), { action: 'decline' });
      assert.deepEqual(checkAnswer(entry(url), { action: 'cancel' }), { action: 'cancel' });
    });
  }

  it('an accept of an http or https URL passes, without content', () => {
    assert.deepEqual(checkAnswer(entry('https://auth.example.test/x'), { action: 'accept', content: { x: 1 } }), { action: 'accept' });
    assert.deepEqual(checkAnswer(entry('http://127.0.0.1:8080/cb'), { action: 'accept' }), { action: 'accept' });
  });
});
