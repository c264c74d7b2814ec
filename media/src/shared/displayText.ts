/**
 * Display hygiene for server text in the webview: bidirectional override and isolate controls
 * (U+202A–U+202E, U+2066–U+2069) can make "evil.exe" read as "exe.live" or reorder a URL, so they
 * are removed from everything the panel shows. Display only: answers are built from the person's
 * input, and the extension keeps the server's original strings.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** A copy of `value` with bidi controls removed from every string in it (objects and arrays deep). */
export function forDisplay<T>(value: T): T {
  if (typeof value === 'string') return value.replace(BIDI_CONTROLS, '') as T;
  if (Array.isArray(value)) return value.map(forDisplay) as T;
  if (value && typeof value === 'object') {
    // Own entries only, copied as data properties: a key such as "__proto__" stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, forDisplay(v)])) as T;
  }
  return value;
}
