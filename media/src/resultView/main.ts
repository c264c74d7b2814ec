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
import * as l10n from '../shared/l10n';

const KIND = { 'tools/call': l10n.t('Tool'), 'prompts/get': l10n.t('Prompt'), 'resources/read': l10n.t('Resource') } as const;

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
  fact(dl, l10n.t('Server'), h.server, 'header-server');
  fact(dl, KIND[h.method], h.target, 'header-target');
  if (h.era) fact(dl, l10n.t('Era'), h.era === 'modern' ? l10n.t('2026-07-28 (modern)') : l10n.t('2025 (legacy)'), 'header-era');
  if (h.rounds !== undefined) fact(dl, l10n.t('Rounds'), String(h.rounds), 'header-rounds');
  if (h.totalMs !== undefined) fact(dl, l10n.t('Total time'), ms(h.totalMs), 'header-total');
  if (h.waitingMs !== undefined) fact(dl, l10n.t('Answering'), ms(h.waitingMs), 'header-answering');
  fact(
    dl,
    l10n.t('Status'),
    h.status === 'toolError' ? l10n.t('The tool reported an error (isError)') : l10n.t('Complete'),
    'header-status',
    h.status === 'toolError' ? 'error' : 'ok',
  );
  if (h.historyId)
    fact(dl, l10n.t('History'), h.historyId + (h.startedAt ? ` (${new Date(h.startedAt).toLocaleString()})` : ''), 'header-history');
  head.append(dl);
  const actions = el('div', undefined, 'actions');
  actions.append(
    button(l10n.t('Copy as JSON'), 'copy-json', () => postToExtension({ type: 'copyJson' })),
    button(l10n.t('Open raw'), 'open-raw', () => postToExtension({ type: 'openRaw' }), 'secondary'),
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
    root.append(el('p', l10n.t('The tool reported an error: the blocks below are its error report.'), 'error banner'));
  if (view.description) root.append(el('p', view.description, 'description'));
  for (const b of view.blocks) root.append(blockSection(b, view.header.server));
  if (!view.blocks.length) root.append(el('p', l10n.t('(empty result)'), 'muted'));
  root.append(status);
  announce(l10n.t('Result of {0} from {1}.', view.header.target, view.header.server));
}

window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as { type?: string; view?: ResultViewData };
  if (m?.type === 'render' && m.view) render(forDisplay(m.view));
  else if (m?.type === 'copied') announce(l10n.t('Copied the result as JSON.'));
});
postToExtension({ type: 'ready' });
