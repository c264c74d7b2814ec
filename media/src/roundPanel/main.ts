/**
 * The round panel's webview script (bundled to `dist/webview/roundPanel.js`, a browser IIFE).
 *
 * Renders the views the extension sends (`src/vscode/roundPanel/protocol.ts`): a round of a call (every
 * input of the round, one Submit, Decline per input, Cancel) or the arguments form of a tool,
 * prompt or resource template. It only ever gets data; every server string goes in through `textContent`. It never loads
 * anything (the CSP allows no network at all): a URL to consent to is shown as text and opened by
 * the extension after the click.
 *
 * Keyboard: Enter in a field submits, Escape cancels (not inside a sampling reply being written);
 * focus moves to the first field of a new round.
 */
import type { FieldErrors } from '../../../src/core/elicitation/formModel';
import { ARGUMENTS_ID, type FromWebview, type ToWebview } from '../../../src/vscode/roundPanel/protocol';
import { announce, announceFix } from '../shared/announce';
import { forDisplay } from '../shared/displayText';
import { postToExtension, webviewState } from '../shared/vscodeApi';
import { renderArguments, showArgumentErrors, showSuggestions, submitArguments } from './argumentsView';
import { withDrafts } from './drafts';
import { takeInitialMessage } from './initialMessage';
import { renderRound, showCardErrors, submitRound } from './roundView';
import { watchShownFocus } from './shownFocus';

const post = (m: FromWebview) => postToExtension(m);
const root = document.getElementById('root') as HTMLElement;

/** The extension's errors for one input (or the arguments): shown beside the fields, and announced. */
function showErrors(id: string, errors: FieldErrors): void {
  const bad = id === ARGUMENTS_ID ? showArgumentErrors(errors) : showCardErrors(id, errors);
  if (Object.keys(errors).length === 0) return;
  if (bad.length) announceFix(bad);
  else announce(Object.values(errors).join(' '));
}

/** A message from the extension: a view to render, or errors to show. */
function handle(data: unknown): void {
  if (!data || typeof data !== 'object') return;
  const m = forDisplay(data as ToWebview);
  if (m.type === 'view') {
    if (m.view.kind === 'round') renderRound(withDrafts(m.view, webviewState));
    else if (m.view.kind === 'arguments') renderArguments(m.view);
  } else if (m.type === 'errors') showErrors(m.id, m.errors);
  else if (m.type === 'suggestions') showSuggestions(m);
}

window.addEventListener('message', (e: MessageEvent) => handle(e.data));

document.addEventListener('keydown', (e: KeyboardEvent) => {
  if (e.isComposing) return;
  // Escape cancels the round, except while writing a sampling reply: long typing is not thrown away by one key.
  if (e.key === 'Escape' && (e.target as HTMLElement | null)?.closest?.('.write-reply')) return;
  if (e.key === 'Escape') {
    e.preventDefault();
    post({ type: 'cancel' });
    return;
  }
  if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target as HTMLElement | null;
  // Enter submits from a field of a form (text fields, checkboxes, radios, selects); not from
  // textareas (new line), buttons (they act themselves) or the sampling card.
  if (!(t instanceof HTMLInputElement || t instanceof HTMLSelectElement)) return;
  if (t instanceof HTMLInputElement && (t.type === 'button' || t.type === 'submit')) return;
  if (!t.closest('.card.form, [data-panel="arguments"] .fields')) return;
  e.preventDefault();
  if (root.dataset.panel === 'arguments') submitArguments();
  else submitRound();
});

// Watched from before the first view takes the focus: a new page takes it with its first field even when the
// workbench shows it without it, and a page brought forward gives it back where the person was.
watchShownFocus(window, postToExtension);

// The first view written into the document (initialMessage.ts): drawn now, not after the page's load
// event (when the workbench hands over posted messages). Whatever happens to it, `ready` is posted:
// its answer is the current view.
const first = takeInitialMessage(document, webviewState);
if ('error' in first) console.error(`MCP Roundtrip: ${first.error}`);
else if ('message' in first) {
  try {
    handle(first.message);
  } catch (e) {
    console.error('MCP Roundtrip: the first view could not be drawn; it comes again from the extension', e);
  }
}

post({ type: 'ready' });
