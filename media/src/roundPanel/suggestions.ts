/**
 * Suggestions for the text fields of a prompt's or resource template's arguments form, from the
 * server's `completion/complete` (only when it has the `completions` capability): typing (debounced)
 * asks the extension, whose answer fills the field's `<datalist>`, the browser's own suggestions.
 * Only the answer to a field's latest request is shown; the values go in as `option.value`, never HTML.
 */
import {
  MAX_COMPLETE_CONTEXT,
  MAX_COMPLETE_TEXT,
  MAX_SUGGESTIONS_SHOWN,
  type FromWebview,
  type SuggestionsMessage,
} from '../../../src/vscode/roundPanel/protocol';

/** How long typing must pause before suggestions are asked for. */
export const SUGGEST_DELAY_MS = 250;

/** A timer that can be cleared (the browser's setTimeout; a hand-run one in tests). */
export type SetTimer = (fn: () => void, ms: number) => () => void;

/** The suggestion requests of one form: at most one waiting to be sent, each answered only if still the field's latest. */
export class Suggestions {
  private seq = 0;
  private readonly latest = new Map<string, number>();
  private clearPending?: () => void;

  /**
   * @param post sends a message to the extension
   * @param values the current values of the form's text fields, by key (the context of a request)
   * @param setTimer the debounce timer
   */
  constructor(
    private readonly post: (m: FromWebview) => void,
    private readonly values: () => Record<string, string>,
    private readonly setTimer: SetTimer,
  ) {}

  /** The person typed in (or entered) field `key`: ask after {@link SUGGEST_DELAY_MS} without more typing. */
  typed(key: string, value: string): void {
    this.clearPending?.();
    this.clearPending = this.setTimer(() => {
      this.clearPending = undefined;
      if (value.length > MAX_COMPLETE_TEXT) return;
      const context: Record<string, string> = {};
      let n = 0;
      for (const [k, v] of Object.entries(this.values())) {
        if (k === key || v === '' || v.length > MAX_COMPLETE_TEXT || n >= MAX_COMPLETE_CONTEXT) continue;
        context[k] = v;
        n++;
      }
      const seq = ++this.seq;
      this.latest.set(key, seq);
      this.post({ type: 'complete', key, value, context, seq });
    }, SUGGEST_DELAY_MS);
  }

  /** The values to show for an answer, or `undefined` when a newer request of its field was sent since. */
  received(m: SuggestionsMessage): string[] | undefined {
    if (this.latest.get(m.key) !== m.seq) return undefined;
    return m.values.filter((v) => typeof v === 'string').slice(0, MAX_SUGGESTIONS_SHOWN);
  }

  /** The form is gone or sent: nothing more is asked. */
  stop(): void {
    this.clearPending?.();
    this.clearPending = undefined;
    this.latest.clear();
  }
}

/** What {@link fillOptions} needs of the document and of the datalist (a real one in the webview). */
export interface OptionsTarget {
  ownerDocument: { createElement(tag: 'option'): { value: string } } | null;
  replaceChildren(...nodes: never[]): void;
}

/** Put `values` in the datalist as options (each as the option's `value`: text, never markup). */
export function fillOptions(list: OptionsTarget, values: readonly string[]): void {
  const doc = list.ownerDocument;
  if (!doc) return;
  const options = values.map((v) => {
    const o = doc.createElement('option');
    o.value = v;
    return o;
  });
  (list.replaceChildren as (...nodes: unknown[]) => void)(...options);
}
