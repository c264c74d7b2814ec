/** The time accounting of one call (src/core/mrtr/callClock.ts): active time only, leg limits, and what the messages say. */
import assert from 'node:assert/strict';
import { CallClock } from '../../../src/core/mrtr/callClock';

describe('call clock', () => {
  it('a leg is bounded by the leg limit, or by the call time left when that is less', () => {
    const conn = { name: 'demo' };
    assert.equal(new CallClock(conn, 'tools/call t', 300_000, 60_000).startLeg(), 60_000);
    const short = new CallClock(conn, 'tools/call t', 5_000, 60_000);
    const limit = short.startLeg()!;
    assert.ok(limit <= 5_000 && limit > 4_000, String(limit));
    assert.match(
      short.legTimeoutError().message,
      /^tools\/call t on demo exceeded its time limit of 5000 ms \(time spent answering, 0 ms, not counted\)$/,
    );
    const leg = new CallClock(conn, 'tools/call t', 300_000, 60_000);
    leg.startLeg();
    assert.equal(leg.legTimeoutError().message, 'tools/call t: the server did not answer within 60000 ms');
  });

  it('time spent waiting for the person is not counted', () => {
    const clock = new CallClock({ name: 'demo' }, 'tools/call t', 1_000, 60_000);
    clock.addWaiting(Date.now() - 5_000);
    assert.ok(clock.waitingMs >= 5_000);
    assert.ok((clock.startLeg() ?? 0) > 0, 'five seconds answering still leave the call its whole second');
    const spent = new CallClock({ name: 'demo' }, 'tools/call t', 0, 60_000);
    assert.equal(spent.startLeg(), undefined, 'no active time left');
    assert.equal(spent.timeLimitError().kind, 'timeLimit');
  });

  it('names a message the server sent during the leg that the host could not read', () => {
    const conn: { name: string; lastUnreadable?: { at: number; message: string } } = { name: 'demo' };
    const clock = new CallClock(conn, 'tools/call t', 300_000, 60_000);
    conn.lastUnreadable = { at: Date.now() - 60_000, message: 'before the leg' };
    clock.startLeg();
    assert.equal(clock.legTimeoutError().message, 'tools/call t: the server did not answer within 60000 ms');
    conn.lastUnreadable = { at: Date.now(), message: 'not\nJSON' };
    assert.equal(clock.legTimeoutError().message, 'tools/call t: the server did not answer within 60000 ms; meanwhile: not JSON');
  });
});
