/**
 * The focus of a page as the workbench shows it. The workbench shows a new page at its `load` event and
 * focuses it then only if its frame had the focus: a page drawn with a field focused that was shown without
 * the focus says so ({@link UnfocusedMessage}), once, and the extension asks for the focus again
 * (`src/vscode/roundPanel/webviewHost.ts`). And a page that gets the focus back (its panel brought forward,
 * **Show Waiting Round**) with nothing focused in it gives it to the element that had it last, so the
 * person types on where they were.
 */
import type { UnfocusedMessage } from '../../../src/vscode/roundPanel/protocol';

/** An element of the page that can take the focus. */
interface Focusable {
  readonly isConnected: boolean;
  focus(options: { preventScroll: boolean }): void;
}

/** What of the page's window and document this reads. */
export interface ShownPage {
  addEventListener(type: 'load' | 'focus', listener: () => void, options?: { once: true }): void;
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
 * document does not have the focus (at most once); whenever the window gets the focus with nothing focused
 * in it, focuses the element focused last (without scrolling to it), if it is still in the page.
 */
export function watchShownFocus(page: ShownPage, post: (m: UnfocusedMessage) => void): void {
  const doc = page.document;
  const nothingFocused = () => !doc.activeElement || doc.activeElement === doc.body;
  let last: Focusable | undefined;
  doc.addEventListener('focusin', (e) => {
    if (e.target !== doc.body) last = e.target as Focusable;
  });
  page.addEventListener('focus', () => {
    if (nothingFocused() && last?.isConnected) last.focus({ preventScroll: true });
  });
  page.addEventListener(
    'load',
    () =>
      page.setTimeout(() => {
        if (!nothingFocused() && !doc.hasFocus()) post({ type: 'unfocused' });
      }, 0),
    { once: true },
  );
}
