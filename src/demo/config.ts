// Process-wide settings of the demo server, read once from the environment.
import { randomBytes } from 'node:crypto';

/** Environment variable holding a shared HMAC key for `requestState` (at least 32 bytes of UTF-8). */
export const KEY_ENV = 'MCP_ROUNDTRIP_DEMO_KEY';
/** Environment variable overriding how long a minted `requestState` stays valid, in whole seconds. */
export const TTL_ENV = 'MCP_ROUNDTRIP_DEMO_TTL_SECONDS';
/** Default lifetime of a `requestState`: ten minutes, long enough for a person to fill a form. */
export const DEFAULT_TTL_SECONDS = 600;

/**
 * Settings shared by every server instance of one process.
 *
 * - `key`: HMAC-SHA256 key that signs `requestState` (>= 32 bytes).
 * - `keySource`: `'env'` when read from {@link KEY_ENV} (processes with the same key can serve the
 *   legs of one flow in turn), `'random'` when generated for this process only.
 * - `ttlSeconds`: lifetime of a minted `requestState`.
 */
export interface DemoConfig {
  readonly key: Uint8Array;
  readonly keySource: 'env' | 'random';
  readonly ttlSeconds: number;
}

/**
 * Reads {@link DemoConfig} from `env`.
 *
 * Throws an `Error` with a message naming the variable when {@link KEY_ENV} is shorter than 32 bytes
 * (the SDK codec's minimum) or {@link TTL_ENV} is not a positive integer, so a typo fails at start-up
 * instead of producing state nobody can verify.
 */
export function readDemoConfig(env: NodeJS.ProcessEnv = process.env): DemoConfig {
  const rawKey = env[KEY_ENV];
  let key: Uint8Array;
  let keySource: DemoConfig['keySource'];
  if (rawKey !== undefined && rawKey !== '') {
    key = new TextEncoder().encode(rawKey);
    if (key.byteLength < 32) {
      throw new Error(`${KEY_ENV} must be at least 32 bytes long (got ${key.byteLength}); use e.g. 64 hex characters`);
    }
    keySource = 'env';
  } else {
    key = randomBytes(32);
    keySource = 'random';
  }

  const rawTtl = env[TTL_ENV];
  let ttlSeconds = DEFAULT_TTL_SECONDS;
  if (rawTtl !== undefined && rawTtl !== '') {
    ttlSeconds = Number(rawTtl);
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1) {
      throw new Error(`${TTL_ENV} must be a positive whole number of seconds (got ${JSON.stringify(rawTtl)})`);
    }
  }
  return { key, keySource, ttlSeconds };
}
