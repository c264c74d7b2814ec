/**
 * The panel's status line: what screen readers are told (`role="status"`, polite) and what the page
 * shows below the form.
 */
import { el } from './dom';

/** The status line; each view appends it to the page. */
export const status = el('p', '', 'status');
status.setAttribute('role', 'status');
status.setAttribute('aria-live', 'polite');

/** Say `text` on the status line. */
export function announce(text: string): void {
  status.textContent = text;
}

/** Say which fields need fixing ("Please fix 2 fields: Date, Party size.") and focus the first. */
export function announceFix(fields: readonly { label: string; focus(): void }[]): void {
  announce(`Please fix ${fields.length === 1 ? '1 field' : `${fields.length} fields`}: ${fields.map((c) => c.label).join(', ')}.`);
  fields[0]?.focus();
}
