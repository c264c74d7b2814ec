// Statistics shared by the benchmark scripts (run.mjs, peers.mjs, report.mjs).

/** The median of numbers (null for none). */
export function median(values) {
  const s = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (!s.length) return null;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * An approximate 95% confidence interval of the median of `values` (distribution-free: the order
 * statistics at n/2 ± 0.98·√n), or null for fewer than 6 values.
 */
export function medianCI(values) {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = s.length;
  if (n < 6) return null;
  const lo = Math.max(0, Math.floor(n / 2 - 0.98 * Math.sqrt(n)) - 1);
  const hi = Math.min(n - 1, Math.ceil(n / 2 + 0.98 * Math.sqrt(n)) - 1);
  return [s[lo], s[hi]];
}

/** Rounded to 3 decimals (null stays null). */
export const r3 = (n) => (n == null ? null : Math.round(n * 1000) / 1000);
/** Rounded to 1 decimal (null stays null). */
export const r1 = (n) => (n == null ? null : Math.round(n * 10) / 10);
