/**
 * Generic async tools of the host: abort listeners that are always removed again, a delay that a
 * signal ends, and a FIFO queue per key. Pure (no `vscode`, no I/O).
 *
 * Listeners are added and removed by hand rather than with `AbortSignal.any`, whose WeakRefs stay on
 * long-lived sources (a connection's `lostSignal`, a CLI-wide Ctrl-C signal) and grow with every call
 * (`test/bench` measures what that costs).
 */
import { cancellation } from './errors';

function noop(): void {}

/** A value, or a promise of it: what is at hand can be used in the same turn, without a microtask. */
export type Awaitable<T> = T | Promise<T>;

/**
 * Whether `value` is to be waited for rather than used as it is: a promise, or any thenable (which a
 * caller makes a promise with `Promise.resolve` before relying on it settling once).
 */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

/**
 * Run `fn` once when `signal` aborts; at once when it already has.
 * @returns a function removing the listener (a no-op when `fn` already ran synchronously)
 */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return noop;
  }
  signal.addEventListener('abort', fn, { once: true });
  return () => signal.removeEventListener('abort', fn);
}

/** The watchers of each long-lived signal watched through {@link watchAbort}. */
const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Like {@link onAbort}, for a long-lived signal watched by many short-lived operations (a connection's
 * `lostSignal`, watched by every call waiting in a round): they share one listener on the signal, so
 * a thousand calls in flight add no thousand listeners (Node warns past ten) and each watch costs a
 * set insertion rather than an EventTarget listener.
 * @returns a function removing the watcher (a no-op when `fn` already ran synchronously)
 */
export function watchAbort(signal: AbortSignal, fn: () => void): () => void {
  if (signal.aborted) {
    fn();
    return noop;
  }
  let set = watchers.get(signal);
  if (!set) {
    const fns = (set = new Set());
    watchers.set(signal, fns);
    signal.addEventListener(
      'abort',
      () => {
        watchers.delete(signal);
        for (const f of [...fns]) f();
      },
      { once: true },
    );
  }
  const fns = set;
  fns.add(fn);
  return () => void fns.delete(fn);
}

/** How many {@link watchAbort} watchers `signal` has (none left behind once the operations ended). */
export function abortWatcherCount(signal: AbortSignal): number {
  return watchers.get(signal)?.size ?? 0;
}

/**
 * Abort `target` with `source`'s reason when `source` aborts (at once when it already has).
 * @returns a function removing the link
 */
export function linkAbort(source: AbortSignal, target: AbortController): () => void {
  return onAbort(source, () => target.abort(source.reason));
}

/**
 * The abort links of one operation (e.g. "abort the call when the caller cancels, or when the
 * connection is lost during a round"), all removed by {@link dispose} when the operation ends.
 */
export class AbortLinks {
  private readonly detach: Array<() => void> = [];

  /**
   * {@link linkAbort} `source` to `target`.
   * @returns a function removing this link earlier; links left in place are removed by {@link dispose}
   */
  follow(source: AbortSignal, target: AbortController): () => void {
    const remove = linkAbort(source, target);
    if (remove !== noop) this.detach.push(remove);
    return remove;
  }

  /** Remove every link (the operation ended). */
  dispose(): void {
    for (const remove of this.detach.splice(0)) remove();
  }
}

/**
 * A promise that rejects with `reason()` as soon as `signal` aborts and otherwise never settles, to
 * race against work that may ignore its signal. Its rejection is marked handled (racing it is optional).
 * @param signal none: the promise never settles
 * @returns the promise, and `dispose` removing its listener
 */
export function abortRejection(signal: AbortSignal | undefined, reason: () => unknown): { promise: Promise<never>; dispose: () => void } {
  let dispose = noop;
  const promise = new Promise<never>((_, reject) => {
    if (signal) dispose = onAbort(signal, () => reject(reason()));
  });
  promise.catch(noop);
  return { promise, dispose };
}

/**
 * `work`, or the rejection `reason()` as soon as `signal` aborts, whichever comes first (the work
 * itself goes on: it may be shared).
 */
export async function raceAbort<T>(work: Promise<T>, signal: AbortSignal, reason: () => unknown): Promise<T> {
  const aborted = abortRejection(signal, reason);
  try {
    return await Promise.race([work, aborted.promise]);
  } finally {
    aborted.dispose();
  }
}

/**
 * A signal that aborts with `reason()` after `ms` milliseconds, or with `parent`'s reason when that
 * aborts first. For operations that are not on a hot path (one controller and one timer each).
 * @returns the signal, and `dispose` clearing the timer and the link (call it when the operation ends)
 */
export function deadline(parent: AbortSignal | undefined, ms: number, reason: () => unknown): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason()), ms);
  const unlink = parent ? linkAbort(parent, controller) : noop;
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      unlink();
    },
  };
}

/**
 * {@link deadline} when `ms` is given; otherwise `parent` as it is and nothing to dispose. For operations whose
 * time limit is optional (a listing, a completion).
 * @returns the signal to pass on (undefined when neither a parent nor a limit), and `dispose`
 */
export function optionalDeadline(
  parent: AbortSignal | undefined,
  ms: number | undefined,
  reason: () => unknown,
): { signal: AbortSignal | undefined; dispose: () => void } {
  return ms === undefined ? { signal: parent, dispose: noop } : deadline(parent, ms, reason);
}

/**
 * Wait `ms` milliseconds, or less when `signal` aborts.
 * @throws `signal.reason` when `signal` aborts first (also when it already has)
 */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    const stop = onAbort(signal, () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/**
 * FIFO queues keyed by a name: at most one task per key runs at a time. A waiting task whose signal
 * aborts leaves its queue at once, without disturbing the others.
 */
export class KeyedQueue {
  private readonly queues = new Map<string, { running: boolean; waiting: { start: () => void }[] }>();

  /**
   * @param abortError the error a waiting task rejects with when its signal aborts; default the
   *   signal's reason when it is a HostError, else HostError `cancelled`
   */
  constructor(
    private readonly abortError: (signal: AbortSignal) => Error = (signal) =>
      cancellation(signal, 'The task was cancelled while it waited its turn.'),
  ) {}

  /** Tasks running or waiting under `key`. */
  size(key: string): number {
    const q = this.queues.get(key);
    return q ? (q.running ? 1 : 0) + q.waiting.length : 0;
  }

  /**
   * Run `task` when every earlier task of `key` has settled (or was aborted by its signal).
   * @param onWait called once when the task has to wait
   * @throws the constructor's `abortError` when `signal` aborts before the task starts; otherwise what `task` throws
   */
  run<T>(key: string, signal: AbortSignal | undefined, task: () => Promise<T>, onWait?: () => void): Promise<T> {
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = { running: false, waiting: [] }));
    const queue = q;
    const release = () => {
      const next = queue.waiting.shift();
      if (next) next.start();
      else {
        queue.running = false;
        this.queues.delete(key);
      }
    };
    const go = () => {
      queue.running = true;
      // Free the slot when the task settles, or as soon as its signal aborts: a UI slow to close
      // must not hold up the key's next task.
      let released = false;
      let unlisten = noop;
      const once = () => {
        if (released) return;
        released = true;
        unlisten();
        release();
      };
      // (An already aborted signal holds the slot until the task settles, as a listener added to it never fires.)
      if (signal && !signal.aborted) unlisten = onAbort(signal, once);
      return task().finally(once);
    };
    if (!queue.running) return go();
    if (signal?.aborted) return Promise.reject(this.abortError(signal));
    onWait?.();
    return new Promise<T>((resolve, reject) => {
      let unlisten = noop;
      const entry = {
        start: () => {
          unlisten();
          go().then(resolve, reject);
        },
      };
      queue.waiting.push(entry);
      if (signal) {
        unlisten = onAbort(signal, () => {
          const i = queue.waiting.indexOf(entry);
          if (i >= 0) queue.waiting.splice(i, 1);
          reject(this.abortError(signal));
        });
      }
    });
  }
}
