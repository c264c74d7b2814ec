/** The time accounting of one call (src/core/mrtr/callClock.ts): active time only, the leg's idle timer, and what the messages say. */
import assert from 'node:assert/strict';
import { CallClock } from '../../../src/core/mrtr/callClock';

/** Start a leg on `clock`; resolves with the ms it took the leg's timer to fire. */
function expiry(clock: CallClock): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => assert.ok(clock.startLeg(() => resolve(Date.now() - started))));
}

describe('call clock', () => {
  it("a leg's timer fires at the idle limit, or at the call time left when that is less, and says which", async () => {
    const conn = { name: 'demo' };
    const idle = new CallClock(conn, 'tools/call t', 300_000, 30);
    assert.ok((await expiry(idle)) >= 30);
    assert.match(
      idle.expired!.message,
      /^tools\/call t: demo sent neither an answer nor progress for 30 ms, the leg idle limit \(raise it with --leg-idle-ms or the setting mcpRoundtrip\.legIdleSeconds\)$/,
    );
    const short = new CallClock(conn, 'tools/call t', 30, 60_000);
    assert.ok((await expiry(short)) >= 29);
    assert.match(
      short.expired!.message,
      /^tools\/call t on demo exceeded its time limit of 30 ms \(time spent answering, 0 ms, not counted\)$/,
    );
    assert.equal(short.expired!.kind, 'timeLimit');
  });

  it('progress starts the idle limit over; the end of the leg stops the timer', async () => {
    const clock = new CallClock({ name: 'demo' }, 'tools/call t', 300_000, 60);
    const started = Date.now();
    const fired = expiry(clock);
    // Progress every 20 ms for 200 ms keeps a 60 ms idle limit from firing.
    await new Promise<void>((resolve) => {
      const tick = setInterval(() => {
        clock.activity();
        if (Date.now() - started >= 200) resolve(clearInterval(tick));
      }, 20);
    });
    assert.equal(clock.expired, undefined, 'no expiry while progress comes');
    await fired;
    assert.ok(Date.now() - started >= 260, 'it fires one idle limit after the last progress');
    let late = false;
    clock.startLeg(() => (late = true));
    clock.endLeg();
    clock.activity();
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(late, false, 'an ended leg never fires');
  });

  it("a person answering a pushed request stops the call's time and the leg's timer, and counts as waiting", async () => {
    const clock = new CallClock({ name: 'demo' }, 'tools/call t', 50, 60_000);
    let fired = false;
    clock.startLeg(() => (fired = true));
    const resume = clock.pause();
    const resumeOverlapping = clock.pause();
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(fired, false, 'paused past the call limit, yet the leg goes on');
    assert.ok(clock.remainingMs > 40, String(clock.remainingMs));
    resume();
    resumeOverlapping();
    resumeOverlapping();
    assert.ok(clock.waitingMs >= 110 && clock.waitingMs < 240, `the overlapping pauses count once: ${clock.waitingMs}`);
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const check = setInterval(() => fired && resolve(clearInterval(check)), 5);
    });
    assert.ok(Date.now() - started >= 40, 'the call time left is still there after the pause');
    assert.match(clock.expired!.message, /exceeded its time limit of 50 ms \(time spent answering, \d{3} ms, not counted\)/);
  });

  it('time spent waiting for the person is not counted; no time left starts no leg', () => {
    const clock = new CallClock({ name: 'demo' }, 'tools/call t', 1_000, 60_000);
    clock.addWaiting(Date.now() - 5_000);
    assert.ok(clock.waitingMs >= 5_000);
    assert.ok(
      clock.startLeg(() => {}),
      'five seconds answering still leave the call its whole second',
    );
    clock.endLeg();
    const spent = new CallClock({ name: 'demo' }, 'tools/call t', 0, 60_000);
    assert.equal(
      spent.startLeg(() => {}),
      false,
      'no active time left',
    );
    assert.equal(spent.timeLimitError().kind, 'timeLimit');
  });

  it('names a message the server sent during the leg that the host could not read', () => {
    const conn: { name: string; lastUnreadable?: { at: number; message: string } } = { name: 'demo' };
    const clock = new CallClock(conn, 'tools/call t', 300_000, 60_000);
    conn.lastUnreadable = { at: Date.now() - 60_000, message: 'before the leg' };
    clock.startLeg(() => {});
    clock.endLeg();
    assert.doesNotMatch(clock.legTimeoutError().message, /meanwhile/);
    conn.lastUnreadable = { at: Date.now(), message: 'not\nJSON' };
    assert.match(clock.legTimeoutError().message, /the leg idle limit \(raise it with .*\); meanwhile: not JSON$/);
  });
});
