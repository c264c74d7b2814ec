/**
 * What a round panel or arguments form needs from the editor: a webview panel in VS Code
 * (`webviewHost.ts`), a fake in tests. The panels' logic runs without `vscode` behind it.
 */
import type { FieldErrors } from '../../core/elicitation/formModel';
import type { SuggestionsMessage } from './protocol';

/** The editor side of one panel. */
export interface PanelHost<V> {
  /**
   * Show `view`, creating the panel when there is none (also after the person closed it).
   * @param reveal bring the panel to the front (a new round opened)
   */
  render(view: V, reveal: boolean): void;
  /** Send field errors for one input (a form item id, or `ARGUMENTS_ID`). */
  errors(id: string, errors: FieldErrors): void;
  /** Send the server's suggestions for a field of the arguments form. */
  suggestions(message: SuggestionsMessage): void;
  /** Close the panel (if open) without it counting as the person closing it. */
  close(): void;
  /** Open `url` in the system browser (`vscode.env.openExternal`); false when it was not opened. */
  openExternal(url: string): Promise<boolean>;
  /** Log at debug level (ignored messages). */
  debug(text: string): void;
  /** True when the panel is on screen (in front in its editor group); absent: taken as on screen. */
  readonly visible?: boolean;
  /** Bring the open panel forward and focus it (the person asked to see a waiting round). */
  reveal?(): void;
  /** A timer; defaults to `setTimeout`. Returns a function that clears it. */
  setTimer?(fn: () => void, ms: number): () => void;
}
