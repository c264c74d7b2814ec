/**
 * The `fetch` an HTTP server's transport sends with when the server uses OAuth: a token about to
 * expire is refreshed first, the access token goes on every request as `Authorization: Bearer`
 * (never in the query), and a POST the server refuses for want of authorization (`401`, or `403
 * insufficient_scope`) becomes the error its caller signs in on.
 *
 * Spec: MCP 2026-07-28 "Authorization" (access token usage, scope challenge handling).
 */
import { withDpop, type DpopSession, type FetchLike } from '@modelcontextprotocol/client';
import { challengeOf, operationOf, type AuthChallenge } from './challenge';
import { expiresAt, type TokenRecord } from './credentials';

/** A token this close to its expiry is refreshed before it is sent (ms). */
export const REFRESH_AHEAD_MS = 60_000;

/** What the fetch needs of the server's OAuth. */
export interface FetchAuthorization {
  /** The server's tokens, if it has any. */
  tokens(): Promise<TokenRecord | undefined>;
  /** The DPoP proof key a `token_type: DPoP` token is bound to. */
  dpop?(): Promise<DpopSession>;
  /** True while a sign-in runs (no refresh ahead of it then). */
  signingIn(): boolean;
  /** Refresh the tokens (best effort: a failure leaves it to the server's 401). */
  refresh(): Promise<void>;
  /** A request of `operation` (named when asked: it reads the request's body) was answered without a refusal. */
  succeeded(operation: () => string): void;
  /** The error thrown for a refusal (`SignInNeeded`, or an error saying the host stopped asking). */
  challenged(challenge: AuthChallenge): Error;
}

/**
 * The transport's fetch around `inner` (the host's bounded fetch). Only a POST carries a request to
 * retry: a refused GET stream or DELETE is handed back to the transport as it came.
 * @throws what `auth.challenged` makes of a refused POST (its body cancelled)
 */
export function authorizedFetch(inner: FetchLike, auth: FetchAuthorization): FetchLike {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const record = await currentTokens(auth);
    const token = record?.tokens.access_token;
    let response: Response;
    if (token && String(record.tokens.token_type).toLowerCase() === 'dpop' && auth.dpop) {
      // A sender-constrained token (RFC 9449 §7.1): `Authorization: DPoP`, a fresh proof per request,
      // one retry with the server's nonce on `use_dpop_nonce` (the SDK's middleware).
      const session = await auth.dpop();
      response = await withDpop(session, () => token)(inner)(input, init);
    } else {
      let sent = init;
      if (token) {
        const headers = new Headers(init?.headers);
        headers.set('Authorization', `Bearer ${token}`);
        sent = { ...init, headers };
      }
      response = await inner(input, sent);
    }
    if (method !== 'POST') return response;
    // The request is named (its body read) only for a refusal, or to start a count over.
    const operation = () => operationOf(init?.body);
    const challenge = challengeOf(response, operation, !!token);
    if (!challenge) {
      if (response.ok) auth.succeeded(operation);
      return response;
    }
    await response.body?.cancel().catch(() => {});
    throw auth.challenged(challenge);
  };
}

/**
 * The tokens to send: refreshed first when about to expire (within {@link REFRESH_AHEAD_MS}) and
 * no sign-in runs (a failed refresh leaves it to the server's 401).
 */
async function currentTokens(auth: FetchAuthorization): Promise<TokenRecord | undefined> {
  const record = await auth.tokens();
  if (auth.signingIn()) return record;
  const exp = record && expiresAt(record);
  if (!record?.tokens.refresh_token || exp === undefined || exp - Date.now() > REFRESH_AHEAD_MS) return record;
  await auth.refresh();
  return auth.tokens();
}
