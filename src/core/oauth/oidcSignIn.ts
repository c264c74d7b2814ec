/**
 * Our own OIDC sign-in to an enterprise IdP, for the enterprise grant when no `idTokenFile` is set and
 * no host sign-in (a VS Code authentication provider) gives the ID token: the authorization code flow
 * with PKCE S256 against the IdP's issuer (`idpIssuer`, discovered through
 * `/.well-known/openid-configuration`), as client `idpClientId`, the browser through the host's
 * driver and the loopback listener, like a server's sign-in. The person is asked before the first
 * request to the IdP's origin (`approveSignIn`). The ID token (and a refresh token, when the IdP
 * gives one) is kept in the host's {@link OAuthStore} and never logged; an expired one is refreshed,
 * else the person is asked again.
 *
 * Spec: OpenID Connect Core 1.0 §3.1 (authorization code flow), OpenID Connect Discovery 1.0;
 * RFC 7636 (PKCE); RFC 9207 (`iss`); MCP "enterprise-managed authorization" (the ID token is the
 * subject of the ID-JAG exchange).
 */
import { randomBytes } from 'node:crypto';
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  refreshAuthorization,
  startAuthorization,
  type AuthorizationServerMetadata,
} from '@modelcontextprotocol/client';
import { abortRejection } from '../util/async';
import { errorMessage, HostError } from '../util/errors';
import { oneLine } from '../util/shownText';
import { checkCallback } from './callbackParams';
import { browserUrlProblem, type AuthorizationDriver } from './driver';
import type { IdTokenRequest, IdTokenSource } from './idTokenSource';
import { listenForCallback, START_PATH } from './loopbackListener';
import type { OAuthStore } from './oauthStore';
import { authTargetProblem } from './authTargets';
import { assertPkceS256 } from './provider';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, hostOf } from './signInFlow';

/** The scopes asked of the IdP when `idToken.scopes` names none (`offline_access`: a refresh token, so no new sign-in each hour). */
export const DEFAULT_OIDC_SCOPES = ['openid', 'offline_access'];

/** An ID token this close to its `exp` is not used any more (ms). */
const EXPIRY_MARGIN_MS = 60_000;

/** The store key prefix of the ID tokens kept (the key names the issuer and the client id). */
export const ID_TOKEN_KEY_PREFIX = 'mcpRoundtrip.oidcIdToken:';

/** What is kept per IdP and client. */
interface KeptIdToken {
  idToken: string;
  refreshToken?: string;
  /** The ID token's `exp`, ms since the epoch (undefined: unknown, used once then asked again). */
  expiresAt?: number;
}

/** What the OIDC sign-in works with. */
export interface OidcSignInOptions {
  store: OAuthStore;
  driver: AuthorizationDriver;
  /**
   * The loopback callback port when the server's settings name none (`callbackPort`); the IdP client's
   * redirect URIs must allow `http://127.0.0.1:<port>/callback` (0: any free port, for IdPs that allow any).
   */
  callbackPort: number;
  /** Another source asked first when the settings name it (VS Code's authentication providers). */
  preferred?: IdTokenSource;
  timeoutMs?: number;
  fetchFn?: typeof fetch;
  /** One line of the round-trip log (never a token). */
  step?(text: string): void;
  now?: () => number;
}

/**
 * The ID token source of an OIDC sign-in at the enterprise IdP (see the module comment). With
 * `preferred`, a server whose settings name `idToken.authenticationProvider` is served by it instead.
 */
export function oidcIdTokens(o: OidcSignInOptions): IdTokenSource {
  const now = o.now ?? Date.now;
  const step = (text: string) => o.step?.(text);
  return {
    describe: (s) =>
      s.idToken?.authenticationProvider && o.preferred
        ? o.preferred.describe(s)
        : `an OIDC sign-in at ${hostOf(s.idpIssuer)} as ${s.idpClientId ?? '?'}`,
    async idToken(r: IdTokenRequest): Promise<string> {
      if (r.settings.idToken?.authenticationProvider && o.preferred) return o.preferred.idToken(r);
      const issuer = r.settings.idpIssuer;
      const clientId = r.settings.idpClientId;
      if (!issuer || !clientId)
        throw new HostError('auth', `${r.server}: the enterprise sign-in needs "idpIssuer" and "idpClientId" to sign in at the IdP`);
      const key = `${ID_TOKEN_KEY_PREFIX}${issuer}\n${clientId}`;
      const kept = parseKept(await o.store.get(key));
      if (kept?.expiresAt !== undefined && kept.expiresAt - EXPIRY_MARGIN_MS > now()) return kept.idToken;
      // A confidential IdP client (the one the ID-JAG exchange authenticates as) signs in with its secret too.
      const secret = r.settings.idpClientSecret;
      const client = { client_id: clientId, ...(secret ? { client_secret: secret } : {}) };
      const scopes = [...new Set(['openid', ...(r.settings.idToken?.scopes ?? DEFAULT_OIDC_SCOPES)])];
      const fetchFn = o.fetchFn ?? fetch;
      const idp = hostOf(issuer);
      let issuerUrl: URL;
      try {
        issuerUrl = new URL(issuer);
      } catch {
        throw new HostError('auth', `${r.server}: "idpIssuer" is not a URL (${JSON.stringify(issuer.slice(0, 200))})`);
      }
      // Nothing goes to an IdP over plain http off this machine: an ID token and a client secret would travel in clear.
      const problem = authTargetProblem(issuerUrl, issuer);
      if (problem) throw new HostError('auth', `${r.server}: the IdP ${problem}; check "idpIssuer" (the CLI: --idp-issuer)`);
      // Without a person nobody can agree or sign in: said before anything is asked or sent. The person
      // agrees before anything is sent to the IdP's origin (its discovery document included).
      const askPerson = async () => {
        if (!o.driver.interactive)
          throw new HostError(
            'authRequired',
            `${r.server}: the enterprise sign-in at ${idp} needs a person, and none can sign in here: ${o.driver.unavailable ?? 'no one can open a browser'}; or set "idTokenFile" (the CLI: --id-token-file)`,
          );
        await o.driver.approveSignIn?.({
          server: r.server,
          serverUrl: issuer,
          origin: issuerUrl,
          scopes,
          reason: 'signIn',
          operation: `the enterprise ID token for ${r.server}`,
          signal: r.signal ?? new AbortController().signal,
        });
      };
      if (!kept?.refreshToken) await askPerson();
      const metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn }).catch((e: unknown) => {
        throw new HostError('auth', `${r.server}: the IdP's discovery at ${idp} failed (${errorMessage(e)}); check "idpIssuer"`);
      });
      if (kept?.refreshToken) {
        try {
          const tokens = await refreshAuthorization(issuer, {
            metadata,
            clientInformation: client,
            refreshToken: kept.refreshToken,
            fetchFn,
          });
          if (tokens.id_token) {
            step(`refreshed the ID token at ${idp}`);
            return keep(o.store, key, tokens.id_token, tokens.refresh_token ?? kept.refreshToken);
          }
        } catch {
          // An expired or revoked refresh token: a new sign-in below.
        }
        step(`the ID token at ${idp} could not be refreshed; signing in again`);
        await o.store.delete(key);
        await askPerson();
      }
      const tokens = await signIn(o, r, issuer, metadata, client, scopes, fetchFn, step);
      return keep(o.store, key, tokens.idToken, tokens.refreshToken);
    },
  };
}

/** The browser sign-in at the IdP: authorization URL, callback, code exchange. */
async function signIn(
  o: OidcSignInOptions,
  r: IdTokenRequest,
  issuer: string,
  metadata: AuthorizationServerMetadata | undefined,
  client: { client_id: string; client_secret?: string },
  scopes: string[],
  fetchFn: typeof fetch,
  step: (text: string) => void,
): Promise<{ idToken: string; refreshToken?: string }> {
  const idp = hostOf(issuer);
  if (!o.driver.interactive)
    throw new HostError(
      'authRequired',
      `${r.server}: the enterprise sign-in at ${idp} needs a person, and none can sign in here: ${o.driver.unavailable ?? 'no one can open a browser'}; or set "idTokenFile" (the CLI: --id-token-file)`,
    );
  assertPkceS256({ authorizationServerUrl: issuer, authorizationServerMetadata: metadata });
  const listener = await listenForCallback(r.settings.callbackPort ?? o.callbackPort);
  try {
    const redirectUrl = (await o.driver.redirectUrlFor?.(listener.url)) ?? listener.url;
    const state = randomBytes(16).toString('base64url');
    const { authorizationUrl, codeVerifier } = await startAuthorization(issuer, {
      metadata,
      clientInformation: client,
      redirectUrl,
      scope: scopes.join(' '),
      state,
    });
    const problem = browserUrlProblem(authorizationUrl);
    if (problem) throw new HostError('auth', `${idp}'s authorization endpoint is ${problem}`);
    listener.startAt(authorizationUrl);
    step(`signing in at ${idp} for the enterprise ID token (scopes ${scopes.join(' ')})`);
    const timeoutMs = o.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = r.signal ? AbortSignal.any([r.signal, timeout]) : timeout;
    const stop = abortRejection(signal, () =>
      timeout.aborted && !r.signal?.aborted
        ? new HostError('auth', `the sign-in at ${idp} did not complete in time; start it again when you are ready`)
        : new HostError('cancelled', `the sign-in at ${idp} for ${r.server} was cancelled`),
    );
    let params: URLSearchParams;
    try {
      params = await Promise.race([
        o.driver.authorize({
          server: r.server,
          serverUrl: issuer,
          issuer: metadata?.issuer ?? issuer,
          scopes,
          reason: 'signIn',
          operation: `the enterprise ID token for ${r.server}`,
          authorizationUrl,
          launchUrl: new URL(START_PATH.slice(1), redirectUrl),
          redirectUrl,
          callback: listener.callback,
          signal,
          agreed: { host: new URL(issuer).host, scopes },
        }),
        stop.promise,
      ]);
    } finally {
      stop.dispose();
    }
    const { code, iss } = checkCallback(params, state, metadata, idp);
    const tokens = await exchangeAuthorization(issuer, {
      metadata,
      clientInformation: client,
      authorizationCode: code,
      iss,
      codeVerifier,
      redirectUri: redirectUrl,
      fetchFn,
    }).catch((e: unknown) => {
      // Said as the IdP's step, not the MCP server's: the fix is in the IdP client's settings.
      throw new HostError(
        'auth',
        `${r.server}: exchanging the sign-in code at the IdP ${idp} failed (${oneLine(errorMessage(e), 300)}); check "idpClientId" and "idpClientSecret" (the CLI: --idp-client-id, --idp-client-secret-env)`,
      );
    });
    if (!tokens.id_token)
      throw new HostError('auth', `${idp} gave no ID token for the code: check that the IdP client "${client.client_id}" may use "openid"`);
    listener.reply(true, `Signed in at ${idp}. You can close this tab.`);
    step(`signed in at ${idp}; ID token received`);
    return { idToken: tokens.id_token, refreshToken: tokens.refresh_token };
  } catch (e) {
    listener.reply(false, `The sign-in at ${idp} did not complete: ${errorMessage(e)}`);
    throw e;
  } finally {
    await listener.close();
  }
}

/** Keep the ID token with its `exp` (read from the JWT payload, not verified: for expiry only). */
async function keep(store: OAuthStore, key: string, idToken: string, refreshToken: string | undefined): Promise<string> {
  const kept: KeptIdToken = { idToken, ...(refreshToken ? { refreshToken } : {}), expiresAt: jwtExpiry(idToken) };
  await store.set(key, JSON.stringify(kept));
  return idToken;
}

/** The `exp` of a compact JWT, ms since the epoch; undefined when it has none or is no JWT. */
export function jwtExpiry(jwt: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function parseKept(raw: string | undefined): KeptIdToken | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as KeptIdToken;
    return typeof v.idToken === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}
