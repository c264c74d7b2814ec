/**
 * A server's DPoP proof key (RFC 9449), made on its first use and kept in the {@link OAuthStore} next
 * to the server's tokens, so a DPoP-bound refresh token still works after a restart.
 *
 * WebCrypto cannot persist a non-extractable key: the key is made extractable once, its private part
 * written to the store as a JWK (VS Code's secret storage; the CLI's 0600 file), and then imported
 * back non-extractable; the extractable copy is dropped. Every proof is signed by the non-extractable
 * key. A server that never asks for DPoP never gets a key.
 */
import { DpopSession, generateDpopKeyPair } from '@modelcontextprotocol/client';
import { isPlainObject } from '../util/json';
import { DPOP_KEY_PREFIX, serverKey } from './credentials';
import type { OAuthStore } from './oauthStore';

/** The one algorithm the host makes keys for (the SDK's default; every DPoP authorization server takes it). */
const ALG = 'ES256';
const CURVE = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** What is kept of a key: the private JWK (`d` included) of a P-256 key, and its algorithm. */
interface KeptKey {
  alg: typeof ALG;
  jwk: JsonWebKey;
}

function parseKept(text: string | undefined): KeptKey | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    if (!isPlainObject(v) || v.alg !== ALG || !isPlainObject(v.jwk)) return undefined;
    const jwk = v.jwk;
    const parts = ['x', 'y', 'd'].every((k) => typeof jwk[k] === 'string' && jwk[k].length <= 100);
    return jwk.kty === 'EC' && jwk.crv === 'P-256' && parts ? (v as unknown as KeptKey) : undefined;
  } catch {
    return undefined;
  }
}

/** The RFC 7638 SHA-256 thumbprint of an EC public key (the value a token's `cnf.jkt` holds). */
async function thumbprint(jwk: JsonWebKey): Promise<string> {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  // Web Crypto's global, not node:crypto: the module is loaded at every CLI start, DPoP rarely.
  return Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical))).toString('base64url');
}

/** A session signing with `kept`'s key, imported non-extractable. */
async function sessionOf(kept: KeptKey): Promise<DpopSession> {
  const { x, y, crv, kty } = kept.jwk;
  const publicJwk = { kty, crv, x, y };
  const privateKey = await crypto.subtle.importKey('jwk', { ...publicJwk, d: kept.jwk.d }, CURVE, false, ['sign']);
  const publicKey = await crypto.subtle.importKey('jwk', publicJwk, CURVE, true, ['verify']);
  return DpopSession.create({
    keyPair: { privateKey, publicKey, publicJwk, thumbprint: await thumbprint(publicJwk), alg: ALG },
  });
}

/**
 * The DPoP session of `serverUrl`: its kept key, or a new one, kept before it is first used.
 * A kept value that is not a usable key is replaced (the server's DPoP-bound tokens then need a new
 * sign-in, as after losing the key).
 * @throws whatever the store throws on reading or writing
 */
export async function keptDpopSession(store: OAuthStore, serverUrl: string): Promise<DpopSession> {
  const key = DPOP_KEY_PREFIX + serverKey(serverUrl);
  const kept = parseKept(await store.get(key));
  if (kept) {
    try {
      return await sessionOf(kept);
    } catch {
      // Not a key WebCrypto takes (a hand-edited store): make a new one below.
    }
  }
  const made = await generateDpopKeyPair({ alg: ALG, extractable: true });
  const jwk = await crypto.subtle.exportKey('jwk', made.privateKey);
  const fresh: KeptKey = { alg: ALG, jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d } };
  await store.set(key, JSON.stringify(fresh));
  return sessionOf(fresh);
}
