/**
 * What the app view and an app-rendered elicitation card share: the sandboxed frame an MCP App runs in
 * (its own URL on the loopback app server; `allow-scripts allow-forms`, no `allow-same-origin`, no top
 * navigation, no popups) and the budget every message of the app passes before the bridge sees it.
 */
import { AppMessageBudget } from '../../../src/core/apps/appRequests';

/** The iframe for the app document at `url`, with the `allow` attribute of the permissions granted. */
export function appFrame(allow?: string): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.dataset.testid = 'app-frame';
  // No allow-same-origin (an opaque origin), no allow-top-navigation, no allow-popups.
  frame.setAttribute('sandbox', 'allow-scripts allow-forms');
  if (allow) frame.setAttribute('allow', allow);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.style.width = '100%';
  frame.style.border = '0';
  return frame;
}

/**
 * Count each message `frame` posts (capture phase, registered before the bridge's transport, so a
 * message over the budget never reaches the bridge); the first one over it calls `stop` with why.
 * @returns removes the listener
 */
export function budgetMessages(frame: HTMLIFrameElement, stop: (reason: string) => void): () => void {
  const budget = new AppMessageBudget();
  const count = (e: MessageEvent) => {
    // Not trusted: a message `holdMessages` hands on, counted when the app posted it (only this page's
    // own script can dispatch an event here; the app's frame is cross-origin).
    if (e.source !== frame.contentWindow || !e.isTrusted) return;
    let bytes: number;
    try {
      bytes = JSON.stringify(e.data)?.length ?? 0;
    } catch {
      bytes = Infinity;
    }
    const over = budget.admit(bytes, performance.now());
    if (over) {
      e.stopImmediatePropagation();
      stop(over);
    }
  };
  window.addEventListener('message', count, true);
  return () => window.removeEventListener('message', count, true);
}

/** Most messages held for a bridge that is not listening yet; one more stops the app. */
export const MAX_HELD_MESSAGES = 64;

/**
 * Hold what `frame` posts until the bridge listens: each message (already counted by
 * {@link budgetMessages}, registered before this) is kept and stopped here, the first one also told to
 * `first` (the view starts its bridge then); `release()` stops holding
 * and posts them again to this window, in order, as untrusted events from the same source, which the
 * bridge's transport then reads as it reads any; `drop()` stops holding and forgets them. More than
 * {@link MAX_HELD_MESSAGES} calls `stop`. Either ends it; the second call does nothing.
 */
export function holdMessages(
  frame: HTMLIFrameElement,
  stop: (reason: string) => void,
  first?: () => void,
): { release(): void; drop(): void } {
  let held: MessageEvent[] | undefined = [];
  const hold = (e: MessageEvent) => {
    if (!held || e.source !== frame.contentWindow || !e.isTrusted) return;
    e.stopImmediatePropagation();
    held.push(e);
    if (held.length === 1) first?.();
    else if (held.length > MAX_HELD_MESSAGES) stop(`it sent more than ${MAX_HELD_MESSAGES} messages before the host was ready`);
  };
  window.addEventListener('message', hold, true);
  const end = () => {
    window.removeEventListener('message', hold, true);
    const events = held ?? [];
    held = undefined;
    return events;
  };
  return {
    release() {
      for (const e of end())
        window.dispatchEvent(new MessageEvent<unknown>('message', { data: e.data as unknown, origin: e.origin, source: e.source }));
    },
    drop: () => void end(),
  };
}
