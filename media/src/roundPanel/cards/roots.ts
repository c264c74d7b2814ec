/** The quiet line of the roots a round was answered with, and the placeholder of a sampling review on its way. */
import type { RootsInputView, WaitingInputView } from '../../../../src/vscode/roundPanel/protocol';
import { el, testKey } from '../../shared/dom';
import { noForm, type Card, type CardContext } from './card';
import * as l10n from '../../shared/l10n';

/** Roots answered automatically, shown quietly for transparency. */
export function rootsCard(view: RootsInputView, ctx: CardContext): Card {
  const p = el('p', undefined, 'card roots quiet');
  p.dataset.testid = `input-${testKey(view.key)}`;
  p.dataset.kind = 'roots';
  p.append(
    el(
      'span',
      view.roots.length
        ? `${l10n.t('Workspace folders shared with {0} (roots, answered automatically):', ctx.server)} `
        : l10n.t('No workspace folder is open, so {0} got an empty list of roots.', ctx.server),
    ),
  );
  view.roots.forEach((r, i) => {
    if (i > 0) p.append(el('span', ', '));
    if (r.name) p.append(el('span', `${r.name} `));
    p.append(el('code', r.uri));
  });
  return { id: view.id, kind: 'roots', el: p, update: () => {}, focusFirst: () => false, ...noForm };
}

/** A sampling request whose review has not arrived yet (the host is choosing a model). */
export function waitingCard(view: WaitingInputView): Card {
  const p = el('p', l10n.t('Sampling request “{0}”: preparing its review…', view.key), 'card waiting quiet');
  p.dataset.testid = `input-${testKey(view.key)}`;
  p.dataset.kind = 'waiting';
  return { id: view.id, kind: 'waiting', el: p, update: () => {}, focusFirst: () => false, ...noForm };
}
