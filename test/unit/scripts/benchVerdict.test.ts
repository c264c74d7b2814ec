/**
 * The bench's verdicts (test/bench/report.mjs and the soak's summary in run.mjs): a soak figure passes only
 * when its positive control was seen in the same run; a run whose control does not show could not have seen a leak.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

type Target = { max: number; unit: string; what: string; needs?: string };
type Verdict = (value: number | null, target: Target, report?: Record<string, unknown>) => string;
type SoakToFloor = (
  slope: (key: string) => number | null,
  ours: string[],
  floors: string[],
  controlBytes: number,
) => {
  differences: number[];
  median: number | null;
  controlExcess: number | null;
  controlExcessOverFloor: number | null;
  controlSeen: boolean | null;
};

const BENCH = path.resolve(__dirname, '..', '..', 'bench');

describe('bench verdicts', () => {
  let verdict: Verdict;
  let targets: Record<string, Target>;
  let soakToFloor: SoakToFloor;
  before(async () => {
    ({ verdict } = (await import(pathToFileURL(path.join(BENCH, 'report.mjs')).href)) as { verdict: Verdict });
    ({ TARGETS: targets, soakToFloor } = (await import(pathToFileURL(path.join(BENCH, 'run.mjs')).href)) as {
      TARGETS: Record<string, Target>;
      soakToFloor: SoakToFloor;
    });
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

  // The slopes of the full run of 2026-12-07 20:45, KB per 1000 rounds: ours read under the floor in
  // every pair, and the control (our driver keeping 2 bytes per round) 1.87 over our driver's median.
  const RUN: Record<string, number | null> = {
    soak: -0.652,
    soakFloor: 1.59,
    soakControl: 1.805,
    soakRun2: -0.065,
    soakFloorRun2: 0.95,
    soakRun3: 0.08,
    soakFloorRun3: 0.609,
  };
  const OURS = ['soak', 'soakRun2', 'soakRun3'];
  const FLOORS = ['soakFloor', 'soakFloorRun2', 'soakFloorRun3'];

  it("the positive control is seen over our own driver's runs, the one thing it differs from them in", () => {
    const s = soakToFloor((k) => RUN[k] ?? null, OURS, FLOORS, 2);
    assert.deepEqual(s.differences, [-2.242, -1.015, -0.529]);
    assert.equal(s.median, -1.015);
    assert.equal(s.controlExcess, 1.87);
    assert.equal(s.controlSeen, true);
    assert.equal(s.controlExcessOverFloor, 0.855, 'over the floor it also carries ours minus the floor, and hid the control here');
  });

  it('a control that keeps its bytes without showing them is not seen, and a failed run proves nothing', () => {
    assert.equal(soakToFloor((k) => (k === 'soakControl' ? 0.5 : (RUN[k] ?? null)), OURS, FLOORS, 2).controlSeen, false);
    const noControl = soakToFloor((k) => (k === 'soakControl' ? null : (RUN[k] ?? null)), OURS, FLOORS, 2);
    assert.equal(noControl.controlSeen, null);
    assert.equal(verdict(-1, targets.soakRssSlopeToFloorKB, { soakControlSeen: noControl.controlSeen }).trim(), 'n/a');
    const noOurs = soakToFloor((k) => (OURS.includes(k) ? null : (RUN[k] ?? null)), OURS, FLOORS, 2);
    assert.deepEqual([noOurs.differences, noOurs.median, noOurs.controlSeen], [[], null, null]);
  });
});
