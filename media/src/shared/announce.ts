/**
 * The panel's status line: what screen readers are told (`role="status"`, polite) and what the page
 * shows below the form.
 */
import { el } from './dom';
import * as l10n from './l10n';

/** The status line; each view appends it to the page. */
export const status = el('p', '', 'status');
status.setAttribute('role', 'status');
status.setAttribute('aria-live', 'polite');

/** Whether the workbench shows the page yet (see {@link announce}). */
let shown = false;
/** What waits for the page to be shown to be said. */
let pending: string | undefined;

function show(): void {
  if (shown) return;
  shown = true;
  if (pending !== undefined) status.textContent = pending;
  pending = undefined;
}

// The workbench keeps a new webview's frame hidden until its own `load` listener (or its 200 ms
// fallback) has run, and hands over the first message only after it made the frame visible: the page
// is shown at the first message, or a task after `load` (the workbench's listener runs after this one).
window.addEventListener('message', show, { capture: true, once: true });
window.addEventListener('load', () => setTimeout(show), { once: true });

/**
 * Say `text` on the status line. Until the page is shown (a new round panel draws its first view
 * while the workbench still hides its frame), the latest text waits and is said then: a live region
 * that changed while hidden is not read out.
 */
export function announce(text: string): void {
  if (shown) status.textContent = text;
  else pending = text;
}

/** Say which fields need fixing ("Please fix 2 fields: Date, Party size.") and focus the first. */
export function announceFix(fields: readonly { label: string; focus(): void }[]): void {
  const labels = fields.map((c) => c.label).join(', ');
  announce(fields.length === 1 ? l10n.t('Please fix 1 field: {0}.', labels) : l10n.t('Please fix {0} fields: {1}.', fields.length, labels));
  fields[0]?.focus();
}
