/**
 * The driver's abort links (mrtr/driver.ts over util/async.ts's AbortLinks): no `AbortSignal.any` (slow on Node 20, and a
 * WeakRef left for good on every long-lived source), no listener left on the caller's signal or the
 * connection's `lostSignal` once a call ends, and a round's signal still linked to the call while
 * the call runs. Found with test/bench (`npm run bench`).
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { abortWatcherCount } from '../../../src/core/util/async';
import { HostError } from '../../../src/core/util/errors';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { scriptedConnection } from '../../support/inMemory';
import { deferred, scriptedProvider } from '../../support/providers';
import { askName, done } from '../../support/scripted';

const NAME = { action: 'accept', content: { name: 'Ada' } };

describe('MRTR driver abort links', () => {
  let realAny: typeof AbortSignal.any;
  let anyCalls = 0;
  beforeEach(() => {
    realAny = AbortSignal.any;
    anyCalls = 0;
    AbortSignal.any = (signals: AbortSignal[]) => (anyCalls++, realAny.call(AbortSignal, signals));
  });
  afterEach(() => {
    AbortSignal.any = realAny;
  });

  it("a three-round call uses no AbortSignal.any and leaves no listener on the caller's signal or the connection", async () => {
    const s = scriptedConnection((_m, n) => (n <= 3 ? askName('k', `s${n}`) : done()), { provider: scriptedProvider({ k: NAME }) });
    const caller = new AbortController();
    const r = await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: caller.signal });
    assert.equal(r.rounds, 3);
    assert.equal(anyCalls, 0);
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0, 'caller signal');
    // The connection's signal keeps at most one shared listener (watchAbort), however many calls watched it.
    assert.equal(abortWatcherCount(s.conn.lostSignal), 0, 'connection lostSignal watchers');
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: caller.signal });
    assert.ok(getEventListeners(s.conn.lostSignal, 'abort').length <= 1, 'connection lostSignal listeners');
    assert.equal(abortWatcherCount(s.conn.lostSignal), 0);
  });

  it('a call that fails also removes its listeners', async () => {
    const s = scriptedConnection(() => askName('k', 'x'), { provider: scriptedProvider({ k: NAME }) });
    const caller = new AbortController();
    await assert.rejects(
      callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: caller.signal, maxRounds: 2 }),
      (e) => e instanceof HostError && e.kind === 'roundLimit',
    );
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
    assert.equal(abortWatcherCount(s.conn.lostSignal), 0);
    assert.ok(getEventListeners(s.conn.lostSignal, 'abort').length <= 1);
  });

  it('cancelling during round 2 still aborts the signal round 1 gave its input (a panel kept open across rounds closes)', async () => {
    const signals: AbortSignal[] = [];
    const hold = deferred<unknown>();
    const s = scriptedConnection((_m, n) => (n <= 2 ? askName('k', `s${n}`) : done()), {
      provider: scriptedProvider({
        k: (_p: unknown, ctx: { signal: AbortSignal; round: { round: number } }) => {
          signals.push(ctx.signal);
          return ctx.round.round === 1 ? NAME : hold.promise;
        },
      }),
    });
    const caller = new AbortController();
    const call = callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: caller.signal });
    while (signals.length < 2) await new Promise((r) => setImmediate(r));
    assert.equal(signals[0].aborted, false, 'round 1 signal is not aborted by its own success');
    caller.abort();
    await assert.rejects(call, (e) => e instanceof HostError && e.kind === 'cancelled');
    assert.equal(signals[0].aborted, true, 'round 1 signal');
    assert.equal(signals[1].aborted, true, 'round 2 signal');
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
  });

  it('a caller signal aborted before the call starts cancels it without sending anything', async () => {
    const s = scriptedConnection(() => done(), { provider: scriptedProvider({}) });
    const caller = new AbortController();
    caller.abort();
    await assert.rejects(
      callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} }, { signal: caller.signal }),
      (e) => e instanceof HostError && e.kind === 'cancelled',
    );
    assert.equal(s.requests('tools/call').length, 0);
  });
});
