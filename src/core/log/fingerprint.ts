/**
 * A short, non-secret fingerprint of an opaque string (FNV-1a 32-bit over UTF-16 code units, hex).
 * Used to let a person correlate `requestState` across log lines without logging the state
 * itself (spec: `requestState` is opaque; docs/field-cases.md, F9: never logged at info level).
 * Not a security hash: it only distinguishes values in a log.
 *
 * @param value any string (may be empty)
 * @returns 8 lowercase hex digits
 */
export function fingerprint(value: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
