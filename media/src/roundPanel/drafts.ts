/**
 * What the person typed in the round panel's forms, kept in the webview's state (which the workbench
 * keeps across reloads of the page): the panel's document is written again when a card of an open panel
 * comes to frame an app (its CSP must then allow that app's origin, SEP-3118), and the new page draws
 * each form with what was typed in it instead of what the extension's view pre-fills.
 */
import type { FormValue } from '../../../src/core/elicitation/formField';
import type { RawFormValues } from '../../../src/core/elicitation/formModel';
import type { RoundView } from '../../../src/vscode/roundPanel/protocol';
import type { WebviewStateStore } from './initialMessage';

/** The part of the webview's state this keeps: the raw values of each form by input id. */
export interface DraftsState {
  drafts?: Record<string, RawFormValues>;
}

function stateOf(store: WebviewStateStore): Record<string, unknown> {
  const s = store.get();
  return s && typeof s === 'object' ? (s as Record<string, unknown>) : {};
}

/** Keep the raw values of the form of input `id` (merged into the page's one state object). */
export function saveDraft(store: WebviewStateStore, id: string, values: RawFormValues): void {
  const state = stateOf(store);
  const drafts = { ...((state as DraftsState).drafts ?? {}), [id]: values };
  store.set({ ...state, drafts });
}

/**
 * `view` with each pending form's fields opening with what was typed in it (a reloaded page), and the
 * drafts of inputs no longer in the view dropped from the state.
 */
export function withDrafts(view: RoundView, store: WebviewStateStore): RoundView {
  const state = stateOf(store);
  const drafts = (state as DraftsState).drafts;
  if (!drafts) return view;
  const ids = new Set(view.items.map((i) => i.id));
  const kept = Object.fromEntries(Object.entries(drafts).filter(([id]) => ids.has(id)));
  if (Object.keys(kept).length !== Object.keys(drafts).length) store.set({ ...state, drafts: kept });
  return {
    ...view,
    items: view.items.map((item) => {
      const draft = item.kind === 'form' && item.state === 'pending' ? kept[item.id] : undefined;
      if (item.kind !== 'form' || !draft) return item;
      return {
        ...item,
        fields: item.fields.map((f) => {
          if (!Object.hasOwn(draft, f.key)) return f;
          const typed = draft[f.key];
          return { ...f, initial: typed === null ? undefined : (typed as FormValue), initialSource: undefined };
        }),
      };
    }),
  };
}
