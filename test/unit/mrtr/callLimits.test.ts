/** The call limits read from the settings (src/core/mrtr/callLimits.ts): bounded, a non-number named. */
import assert from 'node:assert/strict';
import { callLimitsFrom, MAX_CALL_TIMEOUT_SECONDS } from '../../../src/core/mrtr/callLimits';

describe('call limits from the settings', () => {
  it('takes whole numbers within the bounds as they are (seconds to ms)', () => {
    assert.deepEqual(callLimitsFrom(3, 45, 90), { maxRounds: 3, timeoutMs: 45_000, legIdleMs: 90_000, problems: [] });
  });

  it('uses the defaults when a setting is not there', () => {
    assert.deepEqual(callLimitsFrom(undefined, undefined), { maxRounds: 10, timeoutMs: 300_000, legIdleMs: 60_000, problems: [] });
  });

  it('clamps a number past the bounds: no limit of 0, none that Node timers would fire at once', () => {
    const low = callLimitsFrom(0, -5);
    assert.deepEqual([low.maxRounds, low.timeoutMs], [1, 1000]);
    const high = callLimitsFrom(1e6, 1e12);
    assert.deepEqual([high.maxRounds, high.timeoutMs], [100, MAX_CALL_TIMEOUT_SECONDS * 1000]);
    assert.ok(high.timeoutMs <= 2 ** 31 - 1, 'within what setTimeout takes');
    assert.equal(callLimitsFrom(2.9, 1.5).timeoutMs, 1000);
    assert.deepEqual(low.problems, [
      'the setting mcpRoundtrip.maxRounds is 0; using 1 (a whole number from 1 to 100)',
      'the setting mcpRoundtrip.callTimeoutSeconds is -5; using 1 (a whole number from 1 to 2147483)',
    ]);
    assert.equal(high.problems.length, 2);
  });

  it('bounds the leg idle limit like the call limit, and names a value that is not a number', () => {
    assert.equal(callLimitsFrom(undefined, undefined, 0).legIdleMs, 1000);
    assert.equal(callLimitsFrom(undefined, undefined, 1e12).legIdleMs, MAX_CALL_TIMEOUT_SECONDS * 1000);
    assert.deepEqual(callLimitsFrom(undefined, undefined, 'soon'), {
      maxRounds: 10,
      timeoutMs: 300_000,
      legIdleMs: 60_000,
      problems: ['the setting mcpRoundtrip.legIdleSeconds is "soon", not a number; using 60'],
    });
  });

  it('names a value that is not a number, and falls back to the default for it', () => {
    const r = callLimitsFrom('ten', Number.NaN);
    assert.equal(r.maxRounds, 10);
    assert.equal(r.timeoutMs, 300_000);
    assert.deepEqual(r.problems, [
      'the setting mcpRoundtrip.maxRounds is "ten", not a number; using 10',
      'the setting mcpRoundtrip.callTimeoutSeconds is NaN, not a number; using 300',
    ]);
  });
});
