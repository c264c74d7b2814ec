/**
 * A call's progress notification shown only once the call has run its delay (src/vscode/shared/delayedProgress.ts),
 * under the bench's `vscode` stub with a stand-in notification and clock.
 */
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { DelayedProgressDeps } from '../../../src/vscode/shared/delayedProgress';
import { useVscodeStub } from '../../support/vscodeStub';

/** A stand-in notification and clock: what was shown, what it was told, its Cancel. */
function standIns() {
  const shown: {
    options: vscode.ProgressOptions;
    messages: (string | undefined)[];
    closed: boolean;
    cancel: () => void;
    listeners: (() => void)[];
  }[] = [];
  let due: (() => void) | undefined;
  const deps: DelayedProgressDeps = {
    withProgress: ((
      options: vscode.ProgressOptions,
      task: (p: vscode.Progress<{ message?: string }>, t: vscode.CancellationToken) => Thenable<unknown>,
    ) => {
      const listeners: (() => void)[] = [];
      const n: (typeof shown)[number] = {
        options,
        messages: [],
        closed: false,
        cancel: () => [...listeners].forEach((l) => l()),
        listeners,
      };
      shown.push(n);
      const unlisten = (l: () => void) => {
        const i = listeners.indexOf(l);
        if (i >= 0) listeners.splice(i, 1);
      };
      const token = {
        isCancellationRequested: false,
        onCancellationRequested: (l: () => void) => (listeners.push(l), { dispose: () => unlisten(l) }),
      };
      return Promise.resolve(task({ report: (v) => n.messages.push(v.message) }, token as unknown as vscode.CancellationToken)).finally(
        () => (n.closed = true),
      );
    }) as unknown as DelayedProgressDeps['withProgress'],
    schedule: (show) => {
      due = show;
      return { cancel: () => (due = undefined) };
    },
  };
  /** The delay elapses (nothing happens when the notification was called off). */
  const elapse = () => {
    const d = due;
    due = undefined;
    d?.();
  };
  return { shown, deps, elapse, pending: () => due !== undefined };
}

/** One turn of the event loop: every promise reaction queued so far has run. */
const turn = () => new Promise((r) => setImmediate(r));

describe('the delayed progress notification of a call', () => {
  useVscodeStub();
  let withDelayedProgress: typeof import('../../../src/vscode/shared/delayedProgress').withDelayedProgress;
  before(() => {
    ({ withDelayedProgress } =
      require('../../../src/vscode/shared/delayedProgress') as typeof import('../../../src/vscode/shared/delayedProgress'));
  });

  it('a call that settles before its delay shows no notification, and the pending one is called off', async () => {
    const s = standIns();
    const got = await withDelayedProgress(
      'demo: calling where_am_i',
      async (progress) => (progress.report({ message: 'round 1' }), 'done'),
      500,
      s.deps,
    );
    assert.equal(got, 'done');
    assert.equal(s.pending(), false, 'the scheduled notification is called off');
    s.elapse();
    assert.equal(s.shown.length, 0);
  });

  it('after the delay: the notification appears with its title and the latest message, takes later ones, and closes as the call ends', async () => {
    const s = standIns();
    let finish!: (v: string) => void;
    let report!: vscode.Progress<{ message?: string }>;
    const call = withDelayedProgress(
      'demo: calling plan_trip',
      (progress) => ((report = progress), new Promise<string>((r) => (finish = r))),
      500,
      s.deps,
    );
    report.report({ message: 'waiting for your answer (round 1)' });
    report.report({});
    assert.equal(s.shown.length, 0, 'nothing is shown before the delay');
    s.elapse();
    assert.equal(s.shown.length, 1);
    const vscodeStub = require('vscode') as typeof vscode;
    assert.deepEqual(s.shown[0].options, {
      location: vscodeStub.ProgressLocation.Notification,
      title: 'demo: calling plan_trip',
      cancellable: true,
    });
    assert.deepEqual(s.shown[0].messages, ['waiting for your answer (round 1)']);
    report.report({ message: 'sent answers, round 1' });
    assert.deepEqual(s.shown[0].messages, ['waiting for your answer (round 1)', 'sent answers, round 1']);
    assert.equal(s.shown[0].closed, false);
    finish('ok');
    assert.equal(await call, 'ok');
    await turn();
    assert.equal(s.shown[0].closed, true);
    assert.equal(s.shown[0].listeners.length, 0, 'Cancel is no longer listened to');
  });

  it('Cancel in the notification aborts the signal the call was given; a failed call rejects as it did and closes the notification', async () => {
    const s = standIns();
    let signal!: AbortSignal;
    const call = withDelayedProgress(
      'demo: calling busy_report',
      (_p, sig) => {
        signal = sig;
        return new Promise<string>((_r, reject) => sig.addEventListener('abort', () => reject(new Error('cancelled by the person'))));
      },
      500,
      s.deps,
    );
    s.elapse();
    assert.equal(signal.aborted, false);
    s.shown[0].cancel();
    assert.equal(signal.aborted, true);
    await assert.rejects(call, /cancelled by the person/);
    await turn();
    assert.equal(s.shown[0].closed, true);
  });

  it('a call that fails before its delay shows no notification and rejects with its own error', async () => {
    const s = standIns();
    await assert.rejects(
      withDelayedProgress('demo: calling broken', () => Promise.reject(new Error('the server closed the connection')), 500, s.deps),
      /the server closed the connection/,
    );
    assert.equal(s.pending(), false);
    s.elapse();
    assert.equal(s.shown.length, 0);
  });

  it('done(): the notification closes (or is called off) while the work goes on showing its result', async () => {
    const s = standIns();
    let finish!: () => void;
    let end!: () => void;
    const call = withDelayedProgress(
      'demo: calling plan_trip',
      (_p, _sig, done) => ((end = done), new Promise<void>((r) => (finish = r))),
      500,
      s.deps,
    );
    s.elapse();
    end();
    await turn();
    assert.equal(s.shown[0].closed, true, 'closed by done() while the work still runs');
    finish();
    await call;
    const quick = standIns();
    const later = withDelayedProgress(
      'demo: calling where_am_i',
      (_p, _sig, done) => (done(), new Promise<void>((r) => (finish = r))),
      500,
      quick.deps,
    );
    assert.equal(quick.pending(), false, 'called off by done() before the delay');
    finish();
    await later;
  });

  it('the default clock: a call slower than a short delay gets its notification, then it closes', async () => {
    const s = standIns();
    let finish!: () => void;
    const shownOnce = new Promise<void>((r) => {
      const inner = s.deps.withProgress;
      s.deps.withProgress = ((o: vscode.ProgressOptions, t: never) => (r(), inner(o, t))) as typeof inner;
    });
    const { schedule } = (
      require('../../../src/vscode/shared/delayedProgress') as typeof import('../../../src/vscode/shared/delayedProgress')
    ).defaultDeps;
    const call = withDelayedProgress('demo: calling busy_report', () => new Promise<void>((r) => (finish = r)), 1, {
      withProgress: (o, t) => s.deps.withProgress(o, t),
      schedule,
    });
    await shownOnce;
    finish();
    await call;
    await turn();
    assert.equal(s.shown.length, 1);
    assert.equal(s.shown[0].closed, true);
  });

  it('a delay of 0 shows the notification at once', async () => {
    const s = standIns();
    let finish!: () => void;
    const call = withDelayedProgress('demo: reading file:///a', () => new Promise<void>((r) => (finish = r)), 0, s.deps);
    assert.equal(s.shown.length, 1);
    assert.equal(s.pending(), false);
    finish();
    await call;
  });
});
