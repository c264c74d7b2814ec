/**
 * Small checks on JSON values, shared by the whole host. Server-chosen keys ("__proto__",
 * "constructor") must stay plain keys: read own properties only, and define rather than assign.
 */

/** True for a JSON object: not null, not an array. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `o[key]` when `o` has it as its own property, else `undefined` (never an inherited member). */
export function ownValue<T>(o: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return o !== undefined && Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** Sets `o[key]` as an own data property, also for the key "__proto__". */
export function put(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether a JSON value nests deeper than `max` levels (iterative: a hostile depth cannot overflow the stack). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x !== null && typeof x === 'object') stack.push([x, depth + 1]);
  }
  return false;
}

/** The JSON length of a value; `Infinity` when it cannot be written (too deep for `JSON.stringify`). */
export function jsonSize(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
