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
    if (e.source !== frame.contentWindow) return;
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
