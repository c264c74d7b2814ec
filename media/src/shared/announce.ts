/**
 * The panel's status line: what screen readers are told (`role="status"`, polite) and what the page
 * shows below the form.
 */
import { el } from './dom';

/** The status line; each view appends it to the page. */
export const status = el('p', '', 'status');
status.setAttribute('role', 'status');
status.setAttribute('aria-live', 'polite');

/** What waits for the page's load to be said (see {@link announce}). */
let pending: string | undefined;

/**
 * Say `text` on the status line. While the page is still loading (a new round panel draws its first
 * view then), it is said once the page has loaded: the workbench keeps a new webview's frame hidden
 * until the page's `load` event, and a live region that changed while hidden is not read out.
 */
export function announce(text: string): void {
  if (document.readyState === 'complete') {
    pending = undefined;
    status.textContent = text;
    return;
  }
  // The workbench shows the frame in its own `load` listener, which runs after this one: a task later, it is shown.
  if (pending === undefined) window.addEventListener('load', () => setTimeout(sayPending), { once: true });
  pending = text;
}

function sayPending(): void {
  if (pending !== undefined) status.textContent = pending;
  pending = undefined;
}

/** Say which fields need fixing ("Please fix 2 fields: Date, Party size.") and focus the first. */
export function announceFix(fields: readonly { label: string; focus(): void }[]): void {
  announce(`Please fix ${fields.length === 1 ? '1 field' : `${fields.length} fields`}: ${fields.map((c) => c.label).join(', ')}.`);
  fields[0]?.focus();
}
