/**
 * The focus of a page as the workbench shows it. The workbench shows a new page at its `load` event (or
 * 200 ms after writing it, if that comes first) and focuses it then only if its frame had the focus: a
 * page that focused an element as it was drawn, yet never had the focus itself by its load event, says
 * so ({@link UnfocusedMessage}), once, and the extension asks for the focus again
 * (`src/vscode/roundPanel/webviewHost.ts`). And a page that gets the focus back (its panel brought
 * forward, **Show Waiting Round**) with nothing focused in it, the element it had focused having lost the
 * focus while the page was hidden, gives it back to that element, so the person types on where they were.
 */
import type { UnfocusedMessage } from '../../../src/vscode/roundPanel/protocol';

/** An element of the page that can take the focus. */
interface Focusable {
  readonly isConnected: boolean;
  focus(options: { preventScroll: boolean }): void;
}

/** What of the page's window and document this reads. */
export interface ShownPage {
  addEventListener(type: 'load' | 'focus' | 'pointerdown', listener: () => void, options?: { once?: true; capture?: true }): void;
  setTimeout(handler: () => void, ms: number): unknown;
  document: {
    activeElement: unknown;
    body: unknown;
    hasFocus(): boolean;
    addEventListener(type: 'focusin', listener: (e: { target: unknown }) => void): void;
  };
}

/**
 * Watches `page`'s focus: after its load event (and the workbench's own handler of it, which runs next),
 * posts `{ type: 'unfocused' }` when an element other than the body is focused in the document but the
 * window has not had the focus since this was called (at most once); whenever the window gets the focus
 * with nothing focused in it, other than by a click (whose target takes the focus), focuses the element
 * focused last (without scrolling to it), if it is still in the page.
 */
export function watchShownFocus(page: ShownPage, post: (m: UnfocusedMessage) => void): void {
  const doc = page.document;
  const nothingFocused = () => !doc.activeElement || doc.activeElement === doc.body;
  let last: Focusable | undefined;
  let hadFocus = doc.hasFocus();
  let clicking = false;
  doc.addEventListener('focusin', (e) => (last = e.target as Focusable));
  page.addEventListener(
    'pointerdown',
    () => {
      clicking = true;
      page.setTimeout(() => (clicking = false), 0);
    },
    { capture: true },
  );
  page.addEventListener('focus', () => {
    hadFocus = true;
    if (!clicking && nothingFocused() && last?.isConnected) last.focus({ preventScroll: true });
  });
  page.addEventListener(
    'load',
    () =>
      page.setTimeout(() => {
        if (!hadFocus && !nothingFocused() && !doc.hasFocus()) post({ type: 'unfocused' });
      }, 0),
    { once: true },
  );
}
