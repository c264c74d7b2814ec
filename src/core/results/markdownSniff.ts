/**
 * Whether plain text reads as Markdown, decided in one pass over at most {@link MAX_SNIFFED_CHARS}
 * characters, and over at most a {@link SniffBudget}'s characters across all the texts of one result:
 * a server's text must never hold the extension host (a backtracking pattern took seconds per block on
 * a run of `[`, and a hundred such blocks took minutes).
 */

/** The most characters of one text looked at (a Markdown document shows itself well before). */
export const MAX_SNIFFED_CHARS = 1_000_000;

/** The most characters looked at across all the texts of one result (see {@link sniffBudget}). */
export const MAX_SNIFFED_PER_RESULT = 1_000_000;

/** What is left to look at for one result, in characters; each sniff takes what it looks at. */
export interface SniffBudget {
  chars: number;
}

/** A fresh budget of {@link MAX_SNIFFED_PER_RESULT} characters, for one result. */
export function sniffBudget(): SniffBudget {
  return { chars: MAX_SNIFFED_PER_RESULT };
}

/** What ends a line for `^` and `$` in a multiline pattern. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** Block-level marks a line opens with: heading, list item, numbered item, fence, quote, table row. */
const LINE_MARK = /^(?:#{1,6} |\s*[-*] \S|\s*\d+\. \S|```|> |\|.+\|\s*$)/;

/**
 * Whether `text` reads as Markdown: a line that opens with a heading, list, fence, quote or table row
 * mark, or strong emphasis (`**x**`) or a link (`[x](y)`) within a line. Linear in the characters
 * looked at: the first {@link MAX_SNIFFED_CHARS}, and no more than `budget` has left (which it takes).
 * @param budget the result's budget; once spent, the text is taken as plain text without a look
 */
export function looksLikeMarkdown(text: string, budget?: SniffBudget): boolean {
  const most = Math.max(0, Math.min(MAX_SNIFFED_CHARS, budget ? budget.chars : MAX_SNIFFED_CHARS));
  if (budget) budget.chars -= Math.min(text.length, most);
  if (most === 0) return false;
  const sniffed = text.length > most ? text.slice(0, most) : text;
  // A line opens after any line terminator; emphasis and links stop only at a line feed.
  return (
    sniffed.split(LINE_BREAK).some((line) => LINE_MARK.test(line)) || sniffed.split('\n').some((line) => hasStrong(line) || hasLink(line))
  );
}

/** `**x**` in one line: a run of two stars or more, characters that are not stars, another such run. */
function hasStrong(line: string): boolean {
  // Whether the star run before the current starless stretch had two stars or more, and that stretch's length.
  let opened = false;
  let between = 0;
  let stars = 0;
  for (let i = 0; i < line.length; i++) {
    if (line.charCodeAt(i) === 42 /* * */) {
      stars++;
      continue;
    }
    if (stars > 0) {
      if (stars >= 2 && opened && between > 0) return true;
      [opened, between, stars] = [stars >= 2, 0, 0];
    }
    between++;
  }
  return stars >= 2 && opened && between > 0;
}

/** `[x](y)` in one line: text without `]` between the brackets, then `(`, text without `)`, then `)`. */
function hasLink(line: string): boolean {
  const lastClose = line.lastIndexOf(')');
  let open = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '[') {
      if (open < 0) open = i;
    } else if (c === ']') {
      if (open >= 0 && i - open >= 2 && line[i + 1] === '(' && line[i + 2] !== ')' && lastClose > i + 2) return true;
      open = -1;
    }
  }
  return false;
}
