/**
 * What a round panel is given to draw: its view with the server's display text cut (`shownText`), so
 * that no server text can stall the page laying it out (an unbroken megabyte took the workbench's
 * webview tens of seconds). Only text that is read is cut:
 * messages, keys, labels, descriptions, problems and errors, choice labels, the tool's title and
 * description, the URL shown for consent and its warnings, a sampling review's tools, roles, hints
 * and stop sequences. Values (choice values, defaults, what the person typed) and a sampling
 * request's system prompt and messages, which are sent on as they are, go through whole. The panel's
 * model keeps the server's original strings: this copy is only drawn.
 */
import type { FieldErrors } from '../../core/elicitation/formModel';
import type { FieldOption, FormField } from '../../core/elicitation/formField';
import type { JsonField } from '../../core/arguments/toolSchema';
import type { WritableTool, WrittenReplyForm } from '../../core/sampling/writtenReply';
import { shownText } from '../../core/util/shownText';
import type { ArgumentFieldView, InputView, PanelView, SamplingInputView } from './protocol';

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
  if ('reason' in f) (out as JsonField).reason = text(f.reason);
  return out;
}

function shownTool(t: WritableTool): WritableTool {
  return {
    ...t,
    name: label(t.name),
    description: optional(t.description, text),
    fields: t.fields.map(shownField),
    problem: optional(t.problem, text),
  };
}

function shownWrite(w: WrittenReplyForm): WrittenReplyForm {
  return {
    ...w,
    text: shownField(w.text),
    tool: w.tool && shownField(w.tool),
    model: shownField(w.model),
    stopReason: shownField(w.stopReason),
    tools: w.tools.map(shownTool),
  };
}

/** A sampling review: what is only read is cut; the system prompt and messages, which are sent on (and edited), stay whole. */
function shownSampling(item: SamplingInputView): SamplingInputView {
  return {
    ...item,
    key: label(item.key),
    messages: item.messages.map((m) => ({ ...m, role: label(m.role) })),
    stopSequences: item.stopSequences?.map(label),
    tools: item.tools?.map((t) => ({ name: label(t.name), description: optional(t.description, text) })),
    includeContext: optional(item.includeContext, label),
    hints: item.hints?.map(label),
    chosenBecause: optional(item.chosenBecause, text),
    error: optional(item.error, text),
    write: item.write && shownWrite(item.write),
  };
}

function shownInput(item: InputView): InputView {
  switch (item.kind) {
    case 'form':
      return {
        ...item,
        key: label(item.key),
        message: text(item.message),
        fields: item.fields.map(shownField),
        problem: optional(item.problem, text),
      };
    case 'url':
      return {
        ...item,
        key: label(item.key),
        message: text(item.message),
        parts: { before: label(item.parts.before), host: label(item.parts.host), after: text(item.parts.after) },
        warnings: item.warnings.map(text),
        note: optional(item.note, text),
      };
    case 'sampling':
      return shownSampling(item);
    default:
      return { ...item, key: label(item.key) };
  }
}

/**
 * `view` with its display text cut (see the module comment); a new object, `view` is not changed.
 * @param view a round or an arguments view, as the panel's model built it
 */
export function shownView<V extends PanelView>(view: V): V {
  if (view.kind === 'round') return { ...view, server: label(view.server), target: label(view.target), items: view.items.map(shownInput) };
  return {
    ...view,
    server: label(view.server),
    name: label(view.name),
    title: optional(view.title, label),
    description: optional(view.description, text),
    fields: view.fields.map(shownField),
    problem: optional(view.problem, text),
  };
}

/** Field errors as a panel shows them: each cut like a description (an error may quote the server's text). */
export function shownErrors(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, text(v)]));
}
