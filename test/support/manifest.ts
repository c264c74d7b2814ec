/**
 * The extension's manifest as VS Code reads it: `package.json` with each `%key%` string replaced by
 * its English text from `package.nls.json` (or another language's file), for tests that check the
 * titles and texts the person sees.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The NLS strings of `language` (`undefined`: English, `package.nls.json`). */
export function nlsStrings(language?: string): Record<string, string> {
  return JSON.parse(readFileSync(path.join(ROOT, language ? `package.nls.${language}.json` : 'package.nls.json'), 'utf8')) as Record<
    string,
    string
  >;
}

/**
 * `package.json` with its `%key%` strings resolved from {@link nlsStrings} (a key missing there is left as is).
 * @param language e.g. `zh-cn`; English when not given
 */
export function resolvedManifest(language?: string): Record<string, any> {
  const strings = { ...nlsStrings(), ...(language ? nlsStrings(language) : {}) };
  const resolve = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const m = /^%([^%]+)%$/.exec(v);
      return m && Object.prototype.hasOwnProperty.call(strings, m[1]) ? strings[m[1]] : v;
    }
    if (Array.isArray(v)) return v.map(resolve);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
    return v;
  };
  return resolve(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))) as Record<string, any>;
}
