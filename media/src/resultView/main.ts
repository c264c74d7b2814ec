/**
 * The result view's script: the header (server, what was called, era, rounds, times, status), the
 * two actions (Copy as JSON, Open raw) and the blocks (`blocks.ts`), from the data the extension
 * sends (`src/core/results/resultView.ts`). Every server string goes through `textContent`, with
 * bidi controls removed for display.
 */
import type { ResultHeader, ResultViewData } from '../../../src/core/results/resultView';
import { announce, status } from '../shared/announce';
import { button, el } from '../shared/dom';
import { forDisplay } from '../shared/displayText';
import { postToExtension } from '../shared/vscodeApi';
import { blockSection } from './blocks';

const KIND = { 'tools/call': 'Tool', 'prompts/get': 'Prompt', 'resources/read': 'Resource' } as const;

function ms(n: number): string {
  return n < 1000 ? `${Math.round(n)} ms` : `${(n / 1000).toFixed(1)} s`;
}

function fact(dl: HTMLElement, name: string, value: string, testId: string, cls?: string): void {
  const dt = el('dt', name);
  const dd = el('dd', value, cls);
  dd.dataset.testid = testId;
  dl.append(dt, dd);
}

function header(h: ResultHeader): HTMLElement {
  const head = el('header', undefined, 'result-header');
  head.dataset.testid = 'result-header';
  const title = el('h1');
  title.append(el('span', `${KIND[h.method]} `, 'muted'), el('code', h.target, 'target'), el('span', ` — ${h.server}`, 'muted'));
  head.append(title);
  const dl = el('dl', undefined, 'facts');
  fact(dl, 'Server', h.server, 'header-server');
  fact(dl, KIND[h.method], h.target, 'header-target');
  if (h.era) fact(dl, 'Era', h.era === 'modern' ? '2026-07-28 (modern)' : '2025 (legacy)', 'header-era');
  if (h.rounds !== undefined) fact(dl, 'Rounds', String(h.rounds), 'header-rounds');
  if (h.totalMs !== undefined) fact(dl, 'Total time', ms(h.totalMs), 'header-total');
  if (h.waitingMs !== undefined) fact(dl, 'Answering', ms(h.waitingMs), 'header-answering');
  fact(
    dl,
    'Status',
    h.status === 'toolError' ? 'The tool reported an error (isError)' : 'Complete',
    'header-status',
    h.status === 'toolError' ? 'error' : 'ok',
  );
  if (h.historyId) fact(dl, 'History', h.historyId + (h.startedAt ? ` (${new Date(h.startedAt).toLocaleString()})` : ''), 'header-history');
  head.append(dl);
  const actions = el('div', undefined, 'actions');
  actions.append(
    button('Copy as JSON', 'copy-json', () => postToExtension({ type: 'copyJson' })),
    button('Open raw', 'open-raw', () => postToExtension({ type: 'openRaw' }), 'secondary'),
  );
  head.append(actions);
  return head;
}

function render(view: ResultViewData): void {
  const root = document.getElementById('root')!;
  root.replaceChildren();
  root.dataset.status = view.header.status;
  root.append(header(view.header));
  if (view.header.status === 'toolError')
    root.append(el('p', 'The tool reported an error: the blocks below are its error report.', 'error banner'));
  if (view.description) root.append(el('p', view.description, 'description'));
  for (const b of view.blocks) root.append(blockSection(b, view.header.server));
  if (!view.blocks.length) root.append(el('p', '(empty result)', 'muted'));
  root.append(status);
  announce(`Result of ${view.header.target} from ${view.header.server}.`);
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type?: string; view?: ResultViewData };
  if (m?.type === 'render' && m.view) render(forDisplay(m.view));
  else if (m?.type === 'copied') announce('Copied the result as JSON.');
});
postToExtension({ type: 'ready' });
