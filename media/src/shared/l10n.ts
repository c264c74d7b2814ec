/**
 * The webviews' own strings in the person's language. The extension writes VS Code's loaded bundle
 * (`vscode.l10n.bundle`, l10n/bundle.l10n.<language>.json: English message → translation) into the
 * document as a JSON data block ({@link L10N_BUNDLE_ID}, `src/vscode/shared/webviewHtml.ts`); `t` looks a
 * message up there, as `vscode.l10n.t` does in the extension, so one bundle serves both. Server text is
 * never given to `t`. No block (English, or a page under test): the English message itself.
 */
import { FIELD_ERROR_TEXTS } from '../../../src/core/elicitation/formMessages';
import { textTemplates, translateFilled } from '../../../src/core/util/textTemplates';
import { L10N_BUNDLE_ID } from '../../../src/vscode/shared/webviewHtml';

let bundle: Record<string, string> | undefined;

/** The bundle of the document (read once); empty when there is none or it is not a JSON object of strings. */
function loaded(): Record<string, string> {
  if (bundle) return bundle;
  bundle = {};
  const block = typeof document === 'undefined' ? null : document.getElementById(L10N_BUNDLE_ID);
  try {
    const parsed = block?.textContent ? (JSON.parse(block.textContent) as unknown) : undefined;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      for (const [k, v] of Object.entries(parsed)) if (typeof v === 'string') bundle[k] = v;
    }
  } catch {
    // A bundle that does not parse leaves the page in English, never blank.
  }
  return bundle;
}

/** Use `entries` as the bundle (a unit test; the page reads its data block instead). */
export function setBundle(entries: Record<string, string> | undefined): void {
  bundle = entries ? { ...entries } : undefined;
}

/**
 * `message` in the person's language, its `{0}`, `{1}`… replaced by `args` in order (a placeholder
 * without its argument stays as written), as VS Code's `l10n.t` formats its arguments.
 * @param message the English text, a literal (l10n.bundle.test.ts checks its Chinese entry)
 */
export function t(message: string, ...args: (string | number | boolean)[]): string {
  const text = loaded()[message] ?? message;
  return text.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

const FIELD_ERRORS = textTemplates(FIELD_ERROR_TEXTS);

/**
 * A field error the core wrote ("Must be a number between 1 and 5") in the person's language, by its
 * template in {@link FIELD_ERROR_TEXTS} (l10n.bundle.test.ts checks each has its Chinese entry), the
 * values filled in kept as they are; an error of no known template stays as written.
 */
export function fieldErrorText(message: string): string {
  return translateFilled(message, FIELD_ERRORS, (key) => loaded()[key]);
}
