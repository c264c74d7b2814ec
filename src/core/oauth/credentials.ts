/**
 * The sign-ins kept in an {@link OAuthStore}: one token record per server URL, one client
 * registration per authorization server (its `issuer`). Values are the SDK's objects round-tripped
 * verbatim (with the `issuer` stamp it puts on them), so a credential issued by one authorization
 * server is never presented to another.
 *
 * Spec: MCP 2026-07-28 "Authorization": tokens stored securely and only sent to the server they were
 * issued for; client credentials bound to the issuer that registered them.
 */
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { oneLine } from '../util/shownText';
import { isPlainObject } from '../util/json';
import type { OAuthStore } from './oauthStore';

const TOKENS = 'tokens:';
const CLIENT = 'client:';
/** The store's key prefix of a server's DPoP proof key (`dpop:<server URL>`, see `dpopKey.ts`). */
export const DPOP_KEY_PREFIX = 'dpop:';

/** How a client identity came to be. */
export type RegistrationKind = 'pre-registered' | 'metadata document' | 'dynamic registration';

/** What is kept of one server's sign-in. `savedAt` is ms since the epoch. */
export interface TokenRecord {
  tokens: StoredOAuthTokens;
  savedAt: number;
  /** The authorization server's issuer that issued them. */
  issuer: string;
  /** A display name of the account, from the ID token when the authorization server sent one. */
  account?: string;
  /** The scope the sign-in asked for (a step-up asks for it again with the new scopes). */
  requestedScope?: string;
}

/** A client registration kept for one authorization server. */
export interface ClientRecord {
  info: StoredOAuthClientInformation;
  kind: RegistrationKind;
}

/**
 * The record to keep of `tokens` issued by `issuer`, `savedAt` now: the account from the ID token,
 * else the previous record's (same issuer); the scope the authorization request asked for, else the
 * previous record's (a refresh asks for none).
 * @param previous the record kept so far for the server, if any
 * @param authorization the authorization URL of this sign-in, when it went through the browser
 */
export function tokenRecord(
  tokens: StoredOAuthTokens,
  issuer: string,
  previous: TokenRecord | undefined,
  authorization: URL | undefined,
): TokenRecord {
  const same = previous?.issuer === issuer;
  const account = accountOf(tokens.id_token) ?? (same ? previous.account : undefined);
  const requestedScope = authorization
    ? (authorization.searchParams.get('scope') ?? undefined)
    : same
      ? previous.requestedScope
      : undefined;
  return { tokens, savedAt: Date.now(), issuer, ...(account ? { account } : {}), ...(requestedScope ? { requestedScope } : {}) };
}

/** What the host may show about a sign-in (never a token). */
export interface SignInStatus {
  serverUrl: string;
  /** The authorization server's issuer. */
  issuer: string;
  account?: string;
  /** When the access token expires, ms since the epoch, when the authorization server said. */
  expiresAt?: number;
  scope?: string;
}

/** The canonical key of a server: its URL without fragment (RFC 8707 resource). */
export function serverKey(serverUrl: string): string {
  const u = new URL(serverUrl);
  u.hash = '';
  return u.href;
}

/** When `record`'s access token expires, ms since the epoch, if the authorization server said. */
export function expiresAt(record: TokenRecord): number | undefined {
  const s = record.tokens.expires_in;
  return typeof s === 'number' && Number.isFinite(s) ? record.savedAt + s * 1000 : undefined;
}

/**
 * A display name from an OpenID Connect ID token's payload (`preferred_username`, `email`, `name`
 * or `sub`), for the view only. The token's signature is not verified (nothing is decided on it),
 * so the name is only ever shown as a claim ({@link claimedAccount}).
 */
export function accountOf(idToken: unknown): string | undefined {
  if (typeof idToken !== 'string') return undefined;
  const part = idToken.split('.')[1];
  if (!part || part.length > 16_384) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    if (!isPlainObject(claims)) return undefined;
    for (const k of ['preferred_username', 'email', 'name', 'sub'])
      if (typeof claims[k] === 'string' && claims[k]) return String(claims[k]).slice(0, 200);
  } catch {
    return undefined;
  }
  return undefined;
}

/** An account from an unverified ID token, as shown: a claim, never a fact (`(an unverified ID token claims to be ada)`). */
export function claimedAccount(account: string | undefined): string {
  return account ? ` (an unverified ID token claims to be ${oneLine(account, 200)})` : '';
}

function parse<T>(text: string | undefined, valid: (v: Record<string, unknown>) => boolean): T | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isPlainObject(v) && valid(v) ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Typed access to the sign-ins of an {@link OAuthStore}. */
export class Credentials {
  constructor(readonly store: OAuthStore) {}

  /** The token record of a server, if it is signed in. */
  async tokens(serverUrl: string): Promise<TokenRecord | undefined> {
    return parse<TokenRecord>(
      await this.store.get(TOKENS + serverKey(serverUrl)),
      (v) => isPlainObject(v.tokens) && typeof v.savedAt === 'number' && typeof v.issuer === 'string',
    );
  }

  async saveTokens(serverUrl: string, record: TokenRecord): Promise<void> {
    await this.store.set(TOKENS + serverKey(serverUrl), JSON.stringify(record));
  }

  /** Forget a server's tokens (sign out). @returns whether there were any */
  async forgetTokens(serverUrl: string): Promise<boolean> {
    const key = TOKENS + serverKey(serverUrl);
    const had = (await this.store.get(key)) !== undefined;
    await this.store.delete(key);
    return had;
  }

  /** The client registered with the authorization server `issuer`, if any. */
  async client(issuer: string): Promise<ClientRecord | undefined> {
    return parse<ClientRecord>(
      await this.store.get(CLIENT + issuer),
      (v) => isPlainObject(v.info) && typeof (v.info as { client_id?: unknown }).client_id === 'string',
    );
  }

  async saveClient(issuer: string, record: ClientRecord): Promise<void> {
    await this.store.set(CLIENT + issuer, JSON.stringify(record));
  }

  async forgetClient(issuer: string): Promise<void> {
    await this.store.delete(CLIENT + issuer);
  }

  /** Every signed-in server, as the host may show it. */
  async signedIn(): Promise<SignInStatus[]> {
    const out: SignInStatus[] = [];
    for (const key of await this.store.keys()) {
      if (!key.startsWith(TOKENS)) continue;
      const serverUrl = key.slice(TOKENS.length);
      const s = await this.status(serverUrl);
      if (s) out.push(s);
    }
    return out;
  }

  /** What may be shown of a server's sign-in, if it has one. */
  async status(serverUrl: string): Promise<SignInStatus | undefined> {
    const r = await this.tokens(serverUrl);
    if (!r) return undefined;
    return {
      serverUrl: serverKey(serverUrl),
      issuer: r.issuer,
      account: r.account,
      expiresAt: expiresAt(r),
      scope: typeof r.tokens.scope === 'string' ? r.tokens.scope : undefined,
    };
  }

  /** Remove every token, client registration and DPoP key. @returns how many entries were removed */
  async clear(): Promise<number> {
    const keys = (await this.store.keys()).filter((k) => k.startsWith(TOKENS) || k.startsWith(CLIENT) || k.startsWith(DPOP_KEY_PREFIX));
    for (const k of keys) await this.store.delete(k);
    return keys.length;
  }
}
