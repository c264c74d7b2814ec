/** Settings honoured by a call: `mcpRoundtrip.maxRounds` bounds the retries. */
import assert from 'node:assert/strict';
import type { InputProvider } from '../../../src/core/inputs/inputProvider';
import { ENV, logFileText, roundtrip, setUserSetting, waitForLogLines } from './support';

/** Answers every form with the same code, which the demo's ask_until_valid rejects (not a palindrome). */
function wrongCodes(): InputProvider & { asked: number } {
  const p = {
    asked: 0,
    capabilities: { elicitation: { form: {} } },
    elicit: async () => (p.asked++, { action: 'accept' as const, content: { code: 'abcde' } }),
    sample: () => Promise.reject(new Error('no sampling in this test')),
    listRoots: () => Promise.reject(new Error('no roots in this test')),
  };
  return p;
}

describe('settings', function () {
  this.timeout(180_000);

  it('maxRounds = 2: ask_until_valid answered wrongly stops after 2 retries with a round-limit error (the demo alone would ask 10 times)', async () => {
    const api = await roundtrip();
    const provider = wrongCodes();
    let outcome;
    try {
      await setUserSetting('maxRounds', 2);
      outcome = await api.call('demo', 'tools/call', { name: 'ask_until_valid', arguments: {} }, { provider });
    } finally {
      await setUserSetting('maxRounds', undefined);
    }
    assert.equal(outcome.error?.kind, 'roundLimit', `expected a round limit, got ${JSON.stringify(outcome.error ?? outcome.result)}`);
    assert.match(outcome.error.message, /after 2 round\(s\) of tools\/call ask_until_valid; the host stopped \(limit: 2\)/);
    assert.equal(provider.asked, 2, 'the form was answered twice');
    assert.equal(outcome.events.filter((e) => e.kind === 'retry').length, 2);
    if (ENV.logsDir) {
      await waitForLogLines([/✖ \[demo\] tools\/call ask_until_valid failed in round 2: .*limit: 2/]);
      assert.doesNotMatch(logFileText(), /abcde/, 'values typed are never logged');
    }
  });
});
