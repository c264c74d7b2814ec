/**
 * The model picker of a sampling card: every allowed model, those that cannot do the request listed
 * but disabled, each with why ("no tool calling"); why the pre-selected one was proposed; and, when
 * no model can answer, the card's notice saying so before anything is sent (docs/field-cases.md, F6).
 */
import type { SamplingInputView } from '../../../../src/vscode/roundPanel/protocol';
import { el, show, testKey, uid } from '../../shared/dom';
import * as l10n from '../../shared/l10n';

/** The picker part of a sampling card. */
export interface ModelPicker {
  /** The picker's rows and the notice, to put in the card. */
  readonly element: HTMLElement;
  readonly select: HTMLSelectElement;
  /** The picked model can run (it is offered and able). */
  canApprove(): boolean;
  /** Show the models of `view` (rebuilt only when the list changed, keeping the person's pick when it still can run). */
  update(view: SamplingInputView, enabled: boolean): void;
}

/** At most this many models that cannot do the request are named under the picker. */
const MAX_NAMED = 8;

/** The text of a model's option: name, vendor, and why it cannot do the request. */
function optionText(m: SamplingInputView['models'][number]): string {
  const name = m.vendor ? `${m.name || m.id} (${m.vendor})` : m.name || m.id;
  return m.unable ? l10n.t('{0} — cannot do this request: {1}', name, m.unable) : name;
}

/** The model picker of `view`. */
export function modelPicker(view: SamplingInputView): ModelPicker {
  const element = el('div', undefined, 'models');
  const row = el('div', undefined, 'field');
  const select = el('select');
  select.id = uid('m');
  const label = el('label', l10n.t('Model'));
  label.htmlFor = select.id;
  const because = el('div', '', 'help');
  because.id = uid('mb');
  const unable = el('div', '', 'help unable');
  unable.id = uid('mu');
  select.setAttribute('aria-describedby', `${because.id} ${unable.id}`);
  row.append(label, select, because, unable);
  if (view.hints?.length) row.append(el('div', l10n.t("The server's model hints: {0}", view.hints.join(', ')), 'help'));
  const notice = el('p', '', 'notice no-model');
  notice.dataset.testid = `no-model-${testKey(view.key)}`;
  element.append(notice, row);

  let shown = '';
  let current = view;
  const able = () => {
    const picked = current.models.find((m) => m.id === select.value);
    return !!picked && !picked.unable;
  };
  const update = (v: SamplingInputView, enabled: boolean) => {
    current = v;
    const signature = JSON.stringify(v.models.map((m) => [m.id, m.unable ?? '']));
    if (signature !== shown) {
      const keep = select.value;
      shown = signature;
      select.replaceChildren(
        ...v.models.map((m) => {
          const o = new Option(optionText(m), m.id);
          o.disabled = !!m.unable;
          if (m.unable) o.dataset.unable = m.unable;
          return o;
        }),
      );
      const stillAble = v.models.some((m) => m.id === keep && !m.unable);
      select.value = stillAble ? keep : (v.chosenModelId ?? '');
    }
    show(row, v.models.length > 0);
    const proposed = v.models.find((m) => m.id === v.chosenModelId);
    because.textContent =
      proposed && v.chosenBecause ? l10n.t('Proposed: {0}, by {1}.', proposed.name || proposed.id, v.chosenBecause) : '';
    const cannot = v.models.filter((m) => m.unable);
    unable.textContent =
      cannot.length && !v.noModel
        ? l10n.t(
            'Cannot do this request: {0}.',
            cannot
              .slice(0, MAX_NAMED)
              .map((m) => `${m.name || m.id} (${m.unable})`)
              .join(', ') + (cannot.length > MAX_NAMED ? l10n.t(', and {0} more', cannot.length - MAX_NAMED) : ''),
          )
        : '';
    notice.textContent = v.noModel ? `${v.noModel} ${l10n.t('You can write the reply yourself, or decline.')}` : '';
    show(notice, !!v.noModel);
    select.disabled = !enabled || !v.models.some((m) => !m.unable);
  };
  update(view, true);
  return { element, select, canApprove: able, update };
}
