/**
 * What a round panel is given to draw: its view with the server's display text cut (`shownText`), so
 * that no server text can stall the page laying it out (an unbroken megabyte took the workbench's
 * webview tens of seconds; 10 000 characters still 75 ms each). Only text that is read is cut:
 * messages, labels, descriptions, choice labels, the tool's title and description, the URL shown for
 * consent. Values (choice values, defaults, what the person typed) and sampling content, which is
 * sent on as it is, go through whole. The panel's model keeps the server's original strings: this
 * copy is only drawn.
 */
import type { FieldOption, FormField } from '../../core/elicitation/formModel';
import { shownText } from '../../core/util/shownText';
import type { ArgumentFieldView, InputView, PanelView } from './protocol';

/** Longest message or description a panel shows (UTF-16 code units); the rest is cut and counted. */
export const MAX_SHOWN_PANEL_TEXT = 4_000;
/** Longest label, title, choice label or server name a panel shows. */
export const MAX_SHOWN_PANEL_LABEL = 500;

const text = (s: string): string => shownText(s, MAX_SHOWN_PANEL_TEXT);
const label = (s: string): string => shownText(s, MAX_SHOWN_PANEL_LABEL);
const optional = (s: string | undefined, cut: (s: string) => string): string | undefined => (s === undefined ? undefined : cut(s));

function shownOption(o: FieldOption): FieldOption {
  return o.label.length > MAX_SHOWN_PANEL_LABEL ? { ...o, label: label(o.label) } : o;
}

function shownField<F extends FormField | ArgumentFieldView>(f: F): F {
  const out = { ...f, label: label(f.label) };
  if (f.description !== undefined) out.description = text(f.description);
  if ('options' in f && f.options) (out as FormField).options = f.options.map(shownOption);
  return out;
}

function shownInput(item: InputView): InputView {
  switch (item.kind) {
    case 'form':
      return { ...item, message: text(item.message), fields: item.fields.map(shownField) };
    case 'url':
      // Only the part after the host is cut: the host, the part a person checks, is shown whole.
      return { ...item, message: text(item.message), parts: { ...item.parts, before: label(item.parts.before), after: text(item.parts.after) } };
    default:
      return item;
  }
}

/**
 * `view` with its display text cut (see the module comment); a new object, `view` is not changed.
 * @param view a round or an arguments view, as the panel's model built it
 */
export function shownView<V extends PanelView>(view: V): V {
  if (view.kind === 'round') return { ...view, server: label(view.server), target: label(view.target), items: view.items.map(shownInput) };
  return { ...view, server: label(view.server), name: label(view.name), title: optional(view.title, label), description: optional(view.description, text), fields: view.fields.map(shownField) };
}
