/**
 * Configuration files (JSON with comments and trailing commas) read as someone else's words: bounded in
 * size and depth before they are parsed, and every fault one message naming the file, never a throw.
 * A file nested a million levels deep made the parser's recursion throw out of the whole reload.
 */
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';

/** The most bytes of a configuration file read (a hand-written file is a few kilobytes). */
export const MAX_CONFIG_FILE_BYTES = 5_000_000;
/** The deepest nesting of objects and arrays accepted in a configuration file. */
export const MAX_CONFIG_DEPTH = 100;

/** A parsed file's value, or why it is refused (a sentence naming `location`). */
export type ParsedJsonc = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Whether objects and arrays in `text` nest deeper than `limit`, outside strings and comments. Linear,
 * and it stops at the first level past the limit.
 */
export function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '{' || c === '[') {
      if (++depth > limit) return true;
    } else if (c === '}' || c === ']') depth--;
  }
  return false;
}

/**
 * Parse a configuration file's text. Never throws.
 * @param location the file, named in the error
 * @returns the value (`undefined` for an empty file), or an error naming the file and the fault
 *   (nesting past {@link MAX_CONFIG_DEPTH}, invalid JSON with its line)
 */
export function parseConfigJsonc(text: string, location: string): ParsedJsonc {
  if (nestsDeeper(text, MAX_CONFIG_DEPTH))
    return { ok: false, error: `${location}: nested deeper than ${MAX_CONFIG_DEPTH} levels; not read` };
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (e) {
    return { ok: false, error: `${location}: could not be parsed (${e instanceof Error ? e.message : String(e)})` };
  }
  if (errors.length) {
    const line = text.slice(0, errors[0].offset).split('\n').length;
    return { ok: false, error: `${location}: invalid JSON at line ${line}: ${printParseErrorCode(errors[0].error)}` };
  }
  return { ok: true, value };
}
