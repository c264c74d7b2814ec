/**
 * Text for VS Code notifications and progress messages. Those render Markdown-style links
 * (`[label](command:…)`, `[label](https://…)`) as clickable: a server (or a workspace's mcp.json)
 * that gets its text into a notification could make one click run a command with its arguments.
 * Every message that carries text from outside the extension goes through here.
 * No `vscode` import: testable under Node.
 */
import { oneLine } from '../../core/util/shownText';

/**
 * Make `text` safe to show in a notification: one line (controls, bidi overrides removed), bounded
 * length, and no link syntax left: `](` is broken up, so `[label](target)` shows as plain text.
 * @param max maximum length in UTF-16 code units (default 400)
 */
export function notificationText(text: string, max = 400): string {
  return oneLine(text, max).replace(/\]\s*\(/g, '] (');
}
