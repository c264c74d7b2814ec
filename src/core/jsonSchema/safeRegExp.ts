/**
 * The regular-expression engine of the host's JSON Schema checks (ajv `code.regExp`): `pattern`
 * comes from the server and the text from the person, so a backtracking engine would let a server
 * freeze the host with a pattern like `^(a+)+$` (a 30-character answer takes seconds, each more
 * character doubles it; the VS Code extension host runs every extension). RE2 (re2js, pure
 * JavaScript) matches in linear time. A pattern RE2 cannot express (lookaround, backreferences) is
 * not checked by the host: the server stays the authority for it and may ask again.
 *
 * Compiling is what a server can still make slow: RE2 expands counted repetition, so `[\s\S]{1000}`
 * written a thousand times is a program of a million instructions. Each pattern's size is estimated
 * before it is compiled, and one schema's patterns share a budget ({@link withPatternBudget}); a
 * pattern past either is left to the server too. Equal patterns are compiled once.
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

/** The largest estimated program of one pattern compiled (instructions; `a{1000}` is about 1 000). */
export const MAX_PATTERN_PROGRAM = 5_000;
/** The estimated program size all the patterns of one schema may compile to together. */
export const PATTERN_BUDGET_PER_SCHEMA = 20_000;
/** Compiled patterns kept, by source (a form repeats its patterns; re-checks reuse them). */
const COMPILED_KEPT = 256;

const compiled = new Map<string, RE2JSClass | undefined>();
/** What the schema being compiled may still spend ({@link withPatternBudget}); unbounded outside one. */
let budget = Infinity;

/**
 * Run `compile` (one schema's compilation) with the patterns it compiles sharing
 * {@link PATTERN_BUDGET_PER_SCHEMA}.
 */
export function withPatternBudget<T>(compile: () => T): T {
  const outer = budget;
  budget = PATTERN_BUDGET_PER_SCHEMA;
  try {
    return compile();
  } finally {
    budget = outer;
  }
}

/**
 * An upper estimate of the RE2 program a pattern compiles to (instructions), in one pass: each atom
 * counts one, a counted repetition multiplies what it repeats by its largest count, a group is the sum
 * of its alternatives.
 */
export function patternCost(pattern: string): number {
  // The cost of each open group so far, and of the last atom (what a quantifier repeats).
  const groups: number[] = [0];
  const lasts: number[] = [0];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    let atom = 1;
    if (c === '\\') i++;
    else if (c === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
    } else if (c === '(') {
      groups.push(0);
      lasts.push(0);
      continue;
    } else if (c === ')' && groups.length > 1) {
      lasts.pop();
      atom = groups.pop()! + 1;
    } else if (c === '{') {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i, i + 16));
      if (m) {
        const times = m[2] === undefined ? Number(m[1]) : m[2] === '' ? Number(m[1]) + 1 : Math.max(Number(m[1]), Number(m[2]));
        const top = groups.length - 1;
        groups[top] += lasts[top] * (times - 1);
        lasts[top] *= times;
        i += m[0].length - 1;
        continue;
      }
    } else if (c === '*' || c === '+' || c === '?') {
      groups[groups.length - 1]++;
      continue;
    }
    groups[groups.length - 1] += atom;
    lasts[lasts.length - 1] = atom;
  }
  return groups.reduce((a, b) => a + b, 0);
}

/** `pattern` compiled, or `undefined` when RE2 cannot express it or it costs more than it may. */
function compile(pattern: string): RE2JSClass | undefined {
  if (compiled.has(pattern)) return compiled.get(pattern);
  const cost = patternCost(pattern);
  if (cost > MAX_PATTERN_PROGRAM || cost > budget) return undefined;
  budget -= cost;
  let re: RE2JSClass | undefined;
  try {
    re = re2().compile(pattern);
  } catch {
    re = undefined;
  }
  if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
  compiled.set(pattern, re);
  return re;
}

/**
 * ajv's `code.regExp`: compiles `pattern` with RE2. ajv passes its flags ("u"); RE2 is Unicode-aware
 * without them. Never throws: a pattern RE2 refuses, or one past its size or the schema's budget,
 * gives a matcher that accepts everything.
 */
export function safeRegExp(pattern: string, _flags?: string): RegExpLike {
  // The key must differ per pattern: ajv reuses one compiled pattern for every equal key.
  const key = `/${pattern}/re2`;
  const re = compile(pattern);
  return re ? { test: (s: string) => re.test(s), toString: () => key } : { test: () => true, toString: () => `${key}-unchecked` };
}
// ajv writes `code` into standalone validation code only; it never runs here.
safeRegExp.code = 'require("re2js").RE2JS.compile';
