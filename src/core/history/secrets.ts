/**
 * What the history and saved calls never keep: the values of secret fields. A field is secret when
 * its schema says so (`format: "password"`, `writeOnly: true`) or when its key or title names a
 * secret (password, passphrase, secret, API key or token, access token, authorization, cookie, credential, private key, PIN). The
 * spec forbids asking for such values with a form, so a server that does anyway gets the benefit of
 * the doubt on the host's side: its value is dropped, never stored.
 *
 * Spec: MCP 2026-07-28 "Elicitation" (servers must not request sensitive information through form
 * mode); JSON Schema 2020-12 meta-data `writeOnly`.
 */
import { isPlainObject } from '../util/json';

/** Key or title words that mark a secret (whole words, case-insensitive, camelCase split). */
const SECRET_WORDS =
  /(^|[^a-z])(password|passwd|passphrase|pass ?code|secret|api ?key|api ?token|access ?token|auth ?token|refresh ?token|bearer|authorization|cookie|credentials?|private ?key|pin|otp|cvv|cvc)([^a-z]|$)/i;

/** `apiKey` → `api Key`, `access_token` → `access token`: words a person would read. */
function words(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ');
}

/**
 * Whether the property `key` with schema `schema` holds a secret.
 * @param schema the property's JSON Schema (anything: a non-object is judged by its key alone)
 */
export function isSecretField(key: string, schema: unknown): boolean {
  const s = isPlainObject(schema) ? schema : {};
  if (s.format === 'password' || s.writeOnly === true) return true;
  const title = typeof s.title === 'string' ? s.title : '';
  return SECRET_WORDS.test(words(key)) || SECRET_WORDS.test(words(title));
}

/** The text put where a secret value was. */
export const REDACTED = '[redacted]';

/** Shortest secret that is searched for inside other text (shorter ones would garble everything). */
export const MIN_SCRUBBED_LENGTH = 4;

/**
 * A copy of a JSON value with every occurrence of the `secrets` strings replaced by {@link REDACTED}
 * (in strings and object keys, at any depth). A server that echoes a password in its result must not
 * get it into the history through the result.
 * @param secrets values of at least {@link MIN_SCRUBBED_LENGTH} characters (shorter ones are ignored)
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const list = [...new Set(secrets.filter((s) => s.length >= MIN_SCRUBBED_LENGTH))].sort((a, b) => b.length - a.length);
  if (!list.length) return value;
  const text = (s: string) => list.reduce((acc, secret) => (acc.includes(secret) ? acc.split(secret).join(REDACTED) : acc), s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Every string in a JSON value (the secret values a person gave, from an answer's content). */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (isPlainObject(value)) for (const v of Object.values(value)) stringsIn(v, out);
  else if (typeof value === 'number') out.push(String(value));
  return out;
}

/** Most secret values a {@link SecretMask} remembers (the oldest are forgotten first). */
export const MAX_MASKED_SECRETS = 200;

/**
 * The secret values given in this session (password and other secret fields, secret arguments), so
 * that text from a server (its stderr, an error message) never brings one into the log: each is
 * replaced by {@link REDACTED}. Values shorter than {@link MIN_SCRUBBED_LENGTH} are not searched for.
 * Kept in memory only, bounded.
 */
export class SecretMask {
  private readonly values: string[] = [];

  /** Remember `values` (strings of at least {@link MIN_SCRUBBED_LENGTH} characters). */
  add(values: readonly string[]): void {
    for (const v of values) {
      if (v.length < MIN_SCRUBBED_LENGTH || this.values.includes(v)) continue;
      this.values.push(v);
      if (this.values.length > MAX_MASKED_SECRETS) this.values.shift();
    }
    this.values.sort((a, b) => b.length - a.length);
  }

  /** `text` with every remembered value replaced. */
  apply(text: string): string {
    return this.values.length ? scrubSecrets(text, this.values) : text;
  }
}
