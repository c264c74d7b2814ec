/**
 * Server text cut for showing it to a person: a view (webview, terminal) draws what it is given, and a
 * megabyte of text without a space took the round panel's page tens of seconds to lay out.
 */

/**
 * `text` whole when it has at most `max` UTF-16 code units; else its first `max` (one fewer rather
 * than half of a surrogate pair), then ` … (N more characters)` counting what was left out.
 * @param max the most code units kept, > 0
 */
export function shownText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
  return `${text.slice(0, end)} … (${text.length - end} more characters)`;
}
