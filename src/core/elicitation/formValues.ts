/**
 * Reading a raw form value as a value of its field's kind: numbers typed as text, calendar dates and
 * RFC 3339 date-times (also what a `datetime-local` input gives), email and URI shapes, choices by
 * value. Shared by pre-fill (`formFields.ts`) and coercion (`formModel.ts`). Pure logic.
 */
import type { FieldKind, FieldOption, FormField, FormValue, OptionValue } from './formField';

const NUMBER_RE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const LOCAL_DATE_TIME_RE = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const URI_RE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$/;

/** Parses a number typed as text; `undefined` for junk (`3abc`), empty, or non-finite. */
export function parseNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (!NUMBER_RE.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

function isValidDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[mo - 1];
}

/** True for an RFC 3339 date-time with an offset (`2026-11-01T09:30:00Z`), with real calendar and clock values. */
export function isValidDateTime(s: string): boolean {
  const m = DATE_TIME_RE.exec(s);
  if (!m || !isValidDate(m[1])) return false;
  const [h, mi, sec] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (h > 23 || mi > 59 || sec > 60) return false;
  return m[5] === undefined || (Number(m[5]) <= 23 && Number(m[6]) <= 59);
}

/**
 * An HTML `datetime-local` value has no seconds and no offset, which RFC 3339 (`date-time`)
 * requires: read it as the person's local time and add the local offset.
 */
export function localDateTimeToRfc3339(s: string): string | undefined {
  const m = LOCAL_DATE_TIME_RE.exec(s);
  if (!m || !isValidDate(`${m[1]}-${m[2]}-${m[3]}`)) return undefined;
  const [y, mo, d, h, mi, sec] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? '0')];
  if (h > 23 || mi > 59 || sec > 59) return undefined;
  const offsetMin = -new Date(y, mo - 1, d, h, mi, sec).getTimezoneOffset();
  const pad = (n: number) => String(n).padStart(2, '0');
  const zone =
    offsetMin === 0 ? 'Z' : `${offsetMin > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offsetMin) / 60))}:${pad(Math.abs(offsetMin) % 60)}`;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? ''}${zone}`;
}

/** True when `s` has the shape the field kind needs (email, URI, date, date-time); any text for other kinds. */
export function formatOk(kind: FieldKind, s: string): boolean {
  switch (kind) {
    case 'email':
      return EMAIL_RE.test(s);
    case 'uri':
      return URI_RE.test(s);
    case 'date':
      return isValidDate(s);
    case 'date-time':
      return isValidDateTime(s);
    default:
      return true;
  }
}

/** The option whose value is `v`, or whose value reads as the string `v` (HTML selects give strings). */
export function findOption(options: readonly FieldOption[], v: unknown): FieldOption | undefined {
  return options.find((o) => o.value === v) ?? (typeof v === 'string' ? options.find((o) => String(o.value) === v) : undefined);
}

/** `v` as a value of the field's kind (not checked against ranges), or `undefined` when it does not fit. */
export function normalizeForKind(field: FormField, v: unknown): FormValue | undefined {
  switch (field.kind) {
    case 'text':
      return typeof v === 'string' ? v : undefined;
    case 'email':
    case 'uri':
    case 'date':
      return typeof v === 'string' && formatOk(field.kind, v.trim()) ? v.trim() : undefined;
    case 'date-time':
      // Also keep what a `datetime-local` input gave (no offset): it is what the person typed.
      return typeof v === 'string' && (isValidDateTime(v.trim()) || localDateTimeToRfc3339(v.trim()) !== undefined) ? v.trim() : undefined;
    case 'number':
      return parseNumber(v);
    case 'integer': {
      const n = parseNumber(v);
      return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
    }
    case 'boolean':
      return typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined;
    case 'select':
      return findOption(field.options ?? [], v)?.value;
    case 'multiselect': {
      if (!Array.isArray(v)) return undefined;
      const picked: OptionValue[] = [];
      for (const item of v) {
        const o = findOption(field.options ?? [], item);
        if (o && !picked.includes(o.value)) picked.push(o.value);
      }
      return v.length > 0 && picked.length === 0 ? undefined : picked;
    }
  }
}
