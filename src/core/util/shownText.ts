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

/**
 * Characters server text may not bring into a log line: C0 and C1 controls (ESC, CSI U+009B, NEL
 * U+0085...), DEL, line and paragraph separators, and the bidirectional controls that reorder how a
 * line reads (U+202E "RIGHT-TO-LEFT OVERRIDE" turns `evil\u202Eexe.txt` into what looks like `evil` `txt.exe`).
 */
// eslint-disable-next-line no-control-regex
export const UNSAFE_TEXT_RE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/** Strip control characters from server-provided text so one log line stays one line and reads as written. */
export function oneLine(s: string, max = 300): string {
  const flat = s.replace(UNSAFE_TEXT_RE, ' ');
  return flat.length > max ? flat.slice(0, max) + '…' : flat;
}

/** "1 item" / "3 items". */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
