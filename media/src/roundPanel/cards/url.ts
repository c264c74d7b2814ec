/** The card of a URL-mode elicitation (docs/field-cases.md, F5). */
import type { InputView, UrlInputView } from '../../../../src/vscode/roundPanel/protocol';
import { button, el, show, testKey } from '../../shared/dom';
import { STATE_TEXT, cardActions, cardShell, noForm, type Card, type CardContext } from './card';
import * as l10n from '../../shared/l10n';

/**
 * A URL elicitation: the full URL as text (never a link; nothing loads it), the host
 * highlighted, the warnings; "Open in browser" asks the extension to open its own copy of the URL.
 */
export function urlCard(view: UrlInputView, ctx: CardContext): Card {
  const { section } = cardShell(view, l10n.t('Open a web page'));
  if (view.message) section.append(el('p', view.message, 'message'));
  const box = el('div', undefined, 'url-box');
  box.append(el('div', l10n.t('Full address:'), 'muted'));
  const code = el('code', undefined, 'url');
  code.dataset.testid = `url-${testKey(view.key)}`;
  code.tabIndex = -1;
  const host = el('mark', view.parts.host, 'host');
  code.append(el('span', view.parts.before), host, el('span', view.parts.after));
  box.append(code);
  if (view.parts.host) {
    const line = el('div', `${l10n.t('Goes to the site')} `, 'host-line');
    line.append(el('strong', view.parts.host));
    box.append(line);
  }
  section.append(box);
  if (view.warnings.length) {
    const list = el('ul', undefined, 'warnings');
    list.setAttribute('aria-label', l10n.t('Warnings about this address'));
    for (const w of view.warnings) list.append(el('li', w));
    section.append(list);
  }
  if (view.repeated) {
    section.append(
      el(
        'p',
        view.retryable
          ? l10n.t(
              'The server asks again for this same page. If you have finished there, choose Retry; to go there again, choose Open in browser.',
            )
          : l10n.t('The server asks again for this same page.'),
        'note',
      ),
    );
  }
  if (!view.openable) section.append(el('p', l10n.t('Only http and https addresses can be opened.'), 'note'));
  const note = el('p', '', 'note live');
  note.setAttribute('aria-live', 'polite');
  section.append(note);
  const k = testKey(view.key);
  const open = button(l10n.t('Open in browser'), `open-url-${k}`, () => ctx.post({ type: 'openUrl', id: view.id }));
  open.disabled = !view.openable;
  const retry = button(l10n.t('Retry'), `retry-url-${k}`, () => ctx.post({ type: 'retryUrl', id: view.id }), 'secondary');
  show(retry, view.retryable);
  const { actions, state } = cardActions(section, view, ctx, [open, retry]);
  let current = view;
  const update = (v: InputView) => {
    if (v.kind !== 'url') return;
    current = v;
    section.dataset.state = v.state;
    note.textContent = v.note ?? '';
    show(actions, v.state === 'pending');
    state.textContent =
      v.state === 'accepted' ? l10n.t('Opened in your browser. The server checks when the answers are sent.') : (STATE_TEXT[v.state] ?? '');
  };
  update(view);
  return {
    id: view.id,
    kind: 'url',
    el: section,
    update,
    focusFirst: () => {
      if (current.state !== 'pending') return false;
      // The address takes the focus, not a button: a keystroke meant for somewhere else (Enter,
      // Space) must never consent; Tab then reaches Open in browser.
      code.focus();
      return true;
    },
    ...noForm,
  };
}
