/**
 * The regular-expression engine of the host's JSON Schema checks (ajv `code.regExp`): `pattern`
 * comes from the server and the text from the person, so a backtracking engine would let a server
 * freeze the host with a pattern like `^(a+)+$` (a 30-character answer takes seconds, each more
 * character doubles it; the VS Code extension host runs every extension). RE2 (re2js, pure
 * JavaScript) matches in linear time. A pattern RE2 cannot express (lookaround, backreferences) is
 * not checked by the host: the server stays the authority for it and may ask again.
 */
import type { RE2JS as RE2JSClass } from 're2js';

// Loaded on the first pattern, not when the extension activates (about 150 KB of code).
let engine: typeof RE2JSClass | undefined;
function re2(): typeof RE2JSClass {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (engine ??= (require('re2js') as typeof import('re2js')).RE2JS);
}

/** What ajv needs of a compiled pattern: `test`, and `toString` (ajv's cache key for it). */
interface RegExpLike {
  test(s: string): boolean;
  toString(): string;
}

/**
 * ajv's `code.regExp`: compiles `pattern` with RE2. ajv passes its flags ("u"); RE2 is Unicode-aware
 * without them. Never throws: a pattern RE2 refuses gives a matcher that accepts everything.
 */
export function safeRegExp(pattern: string, _flags?: string): RegExpLike {
  // The key must differ per pattern: ajv reuses one compiled pattern for every equal key.
  const key = `/${pattern}/re2`;
  try {
    const re = re2().compile(pattern);
    return { test: (s: string) => re.test(s), toString: () => key };
  } catch {
    return { test: () => true, toString: () => `${key}-unchecked` };
  }
}
// ajv writes `code` into standalone validation code only; it never runs here.
safeRegExp.code = 'require("re2js").RE2JS.compile';
