/**
 * The bench's verdicts (test/bench/report.mjs): a soak figure passes only when its positive control
 * was seen over the floor in the same run; a run whose control does not show could not have seen a leak.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Target = { max: number; unit: string; what: string; needs?: string };
type Verdict = (value: number | null, target: Target, report?: Record<string, unknown>) => string;

const BENCH = path.resolve(__dirname, '..', '..', 'bench');

describe('bench verdicts', () => {
  let verdict: Verdict;
  let targets: Record<string, Target>;
  before(async () => {
    ({ verdict } = (await import(pathToFileURL(path.join(BENCH, 'report.mjs')).href)) as { verdict: Verdict });
    ({ TARGETS: targets } = (await import(pathToFileURL(path.join(BENCH, 'run.mjs')).href)) as { TARGETS: Record<string, Target> });
  });

  it('the soak against the floor passes only with its positive control seen', () => {
    const soak = targets.soakRssSlopeToFloorKB;
    assert.equal(verdict(-1, soak, { soakControlSeen: true }), 'PASS');
    assert.equal(verdict(-1, soak, { soakControlSeen: false }).trim(), 'n/a');
    assert.equal(verdict(-1, soak, {}).trim(), 'n/a', 'a run that did not report the control proves nothing either');
    assert.equal(verdict(0.9, soak, { soakControlSeen: true }), 'MISS');
  });

  it('a target without a control is judged by its value alone', () => {
    assert.equal(verdict(1.2, targets.panelNewToBareRatio), 'PASS');
    assert.equal(verdict(1.4, targets.panelNewToBareRatio), 'MISS');
    assert.equal(verdict(null, targets.panelNewToBareRatio).trim(), 'n/a');
  });
});
