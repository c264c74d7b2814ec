/**
 * A call's progress notification (with Cancel) that appears only once the call has run for a while,
 * as the workbench's own long-running work does: a call answered at once flashes no toast, and a
 * round's form drawn in the call's first milliseconds does not share the workbench's frames with a
 * toast sliding in (the bench's reused-panel figure, docs/performance.md). The work runs from the start; its latest message is shown when the
 * notification appears.
 */
import * as vscode from 'vscode';

/** How long a call runs before its progress notification appears, ms. */
export const PROGRESS_DELAY_MS = 500;

/** What the work reports: a message (increments are not used by the host). */
export type ProgressMessage = { message?: string };

/** The parts of VS Code this uses (tests give stand-ins). */
export interface DelayedProgressDeps {
  withProgress: typeof vscode.window.withProgress;
  /** Run `show` in `ms`; `cancel` stops it. */
  schedule(show: () => void, ms: number): { cancel(): void };
}

/** VS Code's notification and Node's timers. */
export const defaultDeps: DelayedProgressDeps = {
  withProgress: (options, task) => vscode.window.withProgress(options, task),
  schedule: (show, ms) => {
    const timer = setTimeout(show, ms);
    return { cancel: () => clearTimeout(timer) };
  },
};

/**
 * Run `work`, with a cancellable notification titled `title` shown from `delayMs` after the start until
 * the work settles or calls `done` (never, when that comes sooner): what the work does after its call
 * (showing the result) needs none. Cancel in the notification aborts the signal given to the work.
 * Resolves or rejects as the work does.
 * @param delayMs ms before the notification appears (0: at once)
 */
export function withDelayedProgress<T>(
  title: string,
  work: (progress: vscode.Progress<ProgressMessage>, signal: AbortSignal, done: () => void) => Promise<T>,
  delayMs = PROGRESS_DELAY_MS,
  deps: DelayedProgressDeps = defaultDeps,
): Promise<T> {
  const cancel = new AbortController();
  let latest: string | undefined;
  let shown: vscode.Progress<ProgressMessage> | undefined;
  const progress: vscode.Progress<ProgressMessage> = {
    report: (value) => {
      if (value.message !== undefined) latest = value.message;
      shown?.report(value);
    },
  };
  let pending: { cancel(): void } | undefined;
  let ended!: () => void;
  const over = new Promise<void>((resolve) => (ended = resolve));
  let isOver = false;
  const stop = () => {
    isOver = true;
    pending?.cancel();
    ended();
  };
  const running = work(progress, cancel.signal, stop);
  // Attached before the caller's own await: the notification is called off before the caller goes on.
  running.then(stop, stop);
  const show = () =>
    void deps.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (p, token) => {
      shown = p;
      if (latest !== undefined) p.report({ message: latest });
      const sub = token.onCancellationRequested(() => cancel.abort());
      return over.finally(() => {
        sub.dispose();
      });
    });
  if (isOver) return running;
  if (delayMs <= 0) show();
  else pending = deps.schedule(show, delayMs);
  return running;
}
