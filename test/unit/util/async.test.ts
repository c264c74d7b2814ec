/** The host's generic async tools (src/core/util/async.ts): abort listeners removed again, a delay a signal ends, a FIFO queue per key. */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import {
  AbortLinks,
  abortableDelay,
  abortRejection,
  abortWatcherCount,
  KeyedQueue,
  linkAbort,
  onAbort,
  watchAbort,
} from '../../../src/core/util/async';
import { HostError } from '../../../src/core/util/errors';
import { deferred } from '../../support/providers';

describe('abort listeners', () => {
  it('onAbort runs once on abort, at once for an aborted signal, and its remover leaves no listener', () => {
    const ac = new AbortController();
    let runs = 0;
    const remove = onAbort(ac.signal, () => runs++);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 1);
    ac.abort();
    ac.abort();
    assert.equal(runs, 1);
    let now = 0;
    onAbort(ac.signal, () => now++);
    assert.equal(now, 1, 'already aborted: at once');
    const other = new AbortController();
    const off = onAbort(other.signal, () => runs++);
    off();
    other.abort();
    assert.equal(runs, 1);
    assert.equal(getEventListeners(other.signal, 'abort').length, 0);
    remove();
  });

  it('linkAbort passes the reason on; AbortLinks removes every link it made', () => {
    const source = new AbortController();
    const target = new AbortController();
    linkAbort(source.signal, target);
    source.abort(new HostError('connection', 'gone'));
    assert.equal((target.signal.reason as HostError).message, 'gone');
    const links = new AbortLinks();
    const a = new AbortController();
    const b = new AbortController();
    links.follow(a.signal, new AbortController());
    links.follow(b.signal, new AbortController());
    assert.equal(getEventListeners(a.signal, 'abort').length + getEventListeners(b.signal, 'abort').length, 2);
    links.dispose();
    assert.equal(getEventListeners(a.signal, 'abort').length + getEventListeners(b.signal, 'abort').length, 0);
  });

  it('abortRejection rejects with the reason when the signal aborts, and never without a signal', async () => {
    const ac = new AbortController();
    const r = abortRejection(ac.signal, () => new HostError('cancelled', 'stop'));
    ac.abort();
    await assert.rejects(r.promise, (e: unknown) => e instanceof HostError && e.message === 'stop');
    const none = abortRejection(undefined, () => new Error('never'));
    const raced = await Promise.race([none.promise, Promise.resolve('first')]);
    assert.equal(raced, 'first');
    const kept = new AbortController();
    const k = abortRejection(kept.signal, () => new Error('x'));
    k.dispose();
    assert.equal(getEventListeners(kept.signal, 'abort').length, 0);
  });

  it('watchAbort: a thousand watchers of one signal share one listener; each runs once on abort, removed ones never', () => {
    const ac = new AbortController();
    const runs: number[] = [];
    const removers = Array.from({ length: 1000 }, (_, i) => watchAbort(ac.signal, () => runs.push(i)));
    assert.equal(getEventListeners(ac.signal, 'abort').length, 1, 'one listener, not one per watcher');
    assert.equal(abortWatcherCount(ac.signal), 1000);
    for (const remove of removers.slice(0, 990)) remove();
    assert.equal(abortWatcherCount(ac.signal), 10);
    ac.abort();
    assert.deepEqual(runs, [990, 991, 992, 993, 994, 995, 996, 997, 998, 999]);
    assert.equal(abortWatcherCount(ac.signal), 0);
    let now = 0;
    watchAbort(ac.signal, () => now++);
    assert.equal(now, 1, 'already aborted: at once');
  });

  it('abortableDelay waits, or rejects with the reason as soon as the signal aborts', async () => {
    const ac = new AbortController();
    const started = Date.now();
    await abortableDelay(20, ac.signal);
    assert.ok(Date.now() - started >= 15);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 0, 'no listener left after the delay');
    const p = abortableDelay(10_000, ac.signal);
    ac.abort(new HostError('cancelled', 'now'));
    await assert.rejects(p, (e: unknown) => e instanceof HostError && e.message === 'now');
    await assert.rejects(abortableDelay(10, ac.signal), (e: unknown) => e instanceof HostError, 'already aborted');
  });
});

describe('keyed queue', () => {
  it('a queued request whose signal aborts leaves the queue; the next one still runs in order', async () => {
    const q = new KeyedQueue();
    const started: string[] = [];
    const first = deferred<void>();
    const job = (name: string, wait?: Promise<void>) => async () => {
      started.push(name);
      await wait;
      return name;
    };
    const ac = new AbortController();
    const p1 = q.run('A', undefined, job('1', first.promise));
    const p2 = q.run('A', ac.signal, job('2'));
    const p3 = q.run('A', undefined, job('3'));
    assert.equal(q.size('A'), 3);
    ac.abort();
    await assert.rejects(p2, (e: unknown) => e instanceof HostError && e.kind === 'cancelled');
    assert.equal(q.size('A'), 2);
    first.resolve();
    assert.equal(await p1, '1');
    assert.equal(await p3, '3');
    assert.deepEqual(started, ['1', '3']);
    assert.equal(q.size('A'), 0);
  });

  it('a running request whose signal aborts frees the slot even if its UI is slow to close', async () => {
    const q = new KeyedQueue();
    const ac = new AbortController();
    const never = new Promise<string>(() => {});
    void q.run('A', ac.signal, () => never);
    const p2 = q.run('A', undefined, async () => 'second');
    ac.abort();
    assert.equal(await p2, 'second');
  });
});
