/**
 * One sign-in of one server, start to end: try the refresh token first (no person needed), else
 * bind the loopback listener, let the SDK's `auth()` discover the authorization server and register
 * (pre-registered id → client ID metadata document → dynamic registration), check what the SDK does
 * not (S256 advertised, a browser-safe URL), hand the authorization URL to the host's driver, check
 * the callback (`state`, then `iss`, then `error`), and exchange the code. A server set to a grant
 * without a person (`machineGrant.ts`) gets its token from the token endpoint instead, no browser.
 * Every step is logged without a token, code or secret.
 *
 * Spec: MCP 2026-07-28 "Authorization" (the whole client checklist); RFC 7636 (PKCE S256);
 * RFC 8707 (`resource`, as `auth()` sends it, exactly as the metadata gives it); RFC 9207 (`iss`).
 */
import { auth, type AuthOptions, type DpopSession } from '@modelcontextprotocol/client';
import { abortRejection } from '../util/async';
import { HostError, errorMessage } from '../util/errors';
import { formatMs } from '../log/traceLog';
import { signInError } from './authErrors';
import { checkCallback } from './callbackParams';
import type { AuthChallenge } from './challenge';
import { claimedAccount, expiresAt, type Credentials } from './credentials';
import { browserUrlProblem, type AuthorizationDriver } from './driver';
import { listenForCallback, START_PATH, type CallbackListener } from './loopbackListener';
import { isMachineGrant, runMachineSignIn } from './machineGrant';
import { metadataFetch, type MetadataFetch } from './metadataFetch';
import { analyzeUrl } from '../elicitation/urlConsent';
import type { IdTokenSource } from './idTokenSource';
import type { OAuthSettings } from './oauthSettings';
import { assertPkceS256, InteractionNeeded, type HostOAuthProvider } from './provider';

/** Default time a person has to finish a sign-in in the browser (ms). */
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** What one sign-in works with. */
export interface SignInContext {
  server: string;
  serverUrl: string;
  provider: HostOAuthProvider;
  credentials: Credentials;
  driver: AuthorizationDriver;
  /** The configured callback port (0: any free port). */
  callbackPort: number;
  /** True when the client id is pre-registered (its redirect URI is fixed: no fallback port). */
  staticClient: boolean;
  /** The server's `oauth` settings (a grant without a person skips the browser altogether). */
  settings: OAuthSettings;
  /** The server's DPoP proof key, for a server that asks for DPoP. */
  dpop?: () => Promise<DpopSession>;
  /** Whether the MCP server challenged with the `DPoP` scheme. */
  dpopChallenged?: () => boolean;
  /** The host's sign-in for an enterprise IdP's ID token (when `idTokenFile` is not set). */
  idTokens?: IdTokenSource;
  timeoutMs: number;
  /** One line of the round-trip log (never a secret). */
  step(text: string): void;
}

/** What this sign-in is for. */
export interface SignInOptions {
  challenge?: AuthChallenge;
  /** The scope to request (the challenge's, or the union of the previous and the challenged ones). */
  scope?: string;
  /** Skip the refresh token: the scope needed is more than what the token was granted (step-up). */
  force: boolean;
  /** Only refresh: when the refresh token does not do, return `unchanged` instead of asking anyone. */
  refreshOnly?: boolean;
  signal?: AbortSignal;
}

/** The host of an issuer URL, for messages (the issuer itself when it is not a URL). */
export function hostOf(issuer: string | undefined): string {
  if (!issuer) return 'the authorization server';
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}

function tokenLine(ctx: SignInContext, verb: string): Promise<void> {
  return ctx.credentials.tokens(ctx.serverUrl).then((r) => {
    if (!r) return;
    const exp = expiresAt(r);
    const scope = typeof r.tokens.scope === 'string' && r.tokens.scope ? `scopes granted: ${r.tokens.scope}` : 'no scope named';
    const expiry = exp ? `expires in ${formatMs(Math.max(0, exp - Date.now()))}` : 'no expiry given';
    const refresh = r.tokens.refresh_token ? ', refresh token kept' : '';
    ctx.step(`${verb} with ${hostOf(r.issuer)}${claimedAccount(r.account)}; ${scope}; ${expiry}${refresh}`);
  });
}

async function bind(ctx: SignInContext): Promise<CallbackListener> {
  try {
    return await listenForCallback(ctx.callbackPort);
  } catch (e) {
    // A dynamically registered client can come back on any port (it registers again); a
    // pre-registered one only on the port it was registered with.
    if (ctx.staticClient || ctx.callbackPort === 0 || (e as { errno?: string }).errno !== 'EADDRINUSE') throw e;
    ctx.step(`callback port ${ctx.callbackPort} is taken; using another one (this registers the client again)`);
    return listenForCallback(0);
  }
}

/** The person's say before a sign-in leaves the server's origin: what was agreed, or why not. */
interface StartConsent {
  /** The host and scopes shown when the person agreed. */
  agreed?: { host: string; scopes: string[] };
  /** The person's no (or the question's failure): the sign-in's error, whatever the SDK made of the refused request. */
  refusal?: Error;
}

/**
 * Hold every request of `meta` to another origin than the MCP server's until the person agreed
 * (asked once per sign-in, through the driver's `approveSignIn`): before that, only the server's own
 * origin is reached (its protected resource metadata there, its own authorization server).
 */
function askBeforeOtherOrigins(ctx: SignInContext, opts: SignInOptions, meta: MetadataFetch): StartConsent {
  const consent: StartConsent = {};
  const approve = ctx.driver.approveSignIn?.bind(ctx.driver);
  if (!approve) return consent;
  const own = new URL(ctx.serverUrl).origin;
  let asked: Promise<void> | undefined;
  meta.gate = (url) => {
    if (url.origin === own || consent.agreed) return Promise.resolve();
    asked ??= (async () => {
      // As the SDK will choose them (the challenge's, else the metadata's), with the host's own
      // offline_access (a refresh token), which it adds whenever the authorization server offers it.
      const scopes = (opts.scope ?? meta.resourceScopes?.join(' ') ?? '').split(' ').filter(Boolean);
      if (scopes.length && !scopes.includes('offline_access')) scopes.push('offline_access');
      const origin = new URL(url.origin);
      ctx.step(`asking you before the sign-in reaches ${url.origin}, another origin than the server's (nothing was sent there yet)`);
      const timeout = AbortSignal.timeout(ctx.timeoutMs);
      try {
        await approve({
          server: ctx.server,
          serverUrl: ctx.serverUrl,
          origin,
          scopes,
          reason: opts.challenge?.status === 403 ? 'stepUp' : 'signIn',
          operation: opts.challenge?.operation ?? 'request',
          signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
        });
      } catch (e) {
        consent.refusal = e instanceof Error ? e : new HostError('cancelled', `signing in to ${ctx.server} was declined`);
        ctx.step(`nothing was sent to ${url.origin}: ${errorMessage(e)}`);
        throw e;
      }
      consent.agreed = { host: analyzeUrl(origin.href).host || origin.host, scopes };
    })();
    return asked;
  };
  return consent;
}

/** The browser part: ask, open, wait (bounded by the sign-in's limit and its signal), check. */
async function authorizeInBrowser(
  ctx: SignInContext,
  opts: SignInOptions,
  listener: CallbackListener,
  redirectUrl: URL,
  consent: StartConsent,
): Promise<{ code: string; iss?: string }> {
  const { provider } = ctx;
  const url = provider.captured!;
  if (provider.usesLegacyEndpoints)
    ctx.step(`no metadata: a 2025-03-26 server, signing in at its ${url.origin}/authorize, /token and /register`);
  const metadata = provider.discoveryResult?.authorizationServerMetadata;
  const asName = hostOf(provider.issuer);
  if (!provider.usesLegacyEndpoints) assertPkceS256(provider.discoveryResult);
  const problem = browserUrlProblem(url);
  if (problem) throw new HostError('auth', `${asName}'s authorization endpoint is ${problem}`);
  const scopes = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
  // Granted before: the token's scope, else what was asked for (RFC 6749 §5.1: an omitted scope is the one requested).
  const before = await ctx.credentials.tokens(ctx.serverUrl);
  const granted = new Set(String(before?.tokens.scope ?? before?.requestedScope ?? '').split(' '));
  const newScopes = scopes.filter((s) => !granted.has(s));
  ctx.step(
    `client: ${provider.registration === 'stored' ? 'registered before' : (provider.registration ?? 'registered')}; asking for ${scopes.length ? `scopes ${scopes.join(' ')}` : 'no particular scope'} at ${asName}${url.host === asName ? '' : `, whose sign-in page is at ${url.host}`}`,
  );
  listener.startAt(url);
  const launchUrl = new URL(START_PATH.slice(1), redirectUrl);
  const timeout = AbortSignal.timeout(ctx.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const stop = abortRejection(signal, () =>
    timeout.aborted && !opts.signal?.aborted
      ? new HostError(
          'auth',
          `the sign-in at ${asName} did not complete within ${formatMs(ctx.timeoutMs)}; start it again when you are ready`,
        )
      : new HostError('cancelled', `the sign-in to ${ctx.server} was cancelled`),
  );
  let params: URLSearchParams;
  try {
    params = await Promise.race([
      ctx.driver.authorize({
        server: ctx.server,
        serverUrl: ctx.serverUrl,
        issuer: provider.issuer ?? asName,
        scopes,
        newScopes,
        reason: opts.challenge?.status === 403 ? 'stepUp' : 'signIn',
        operation: opts.challenge?.operation ?? 'request',
        authorizationUrl: url,
        launchUrl,
        redirectUrl,
        callback: listener.callback,
        signal,
        ...(consent.agreed ? { agreed: consent.agreed } : {}),
      }),
      stop.promise,
    ]);
  } finally {
    stop.dispose();
  }
  ctx.step('the browser came back; checking the response');
  return checkCallback(params, provider.expectedState, metadata, asName);
}

/**
 * Sign `ctx.server` in (or refresh its sign-in).
 * @returns `refreshed` when the refresh token sufficed, `signedIn` after a browser sign-in,
 *   `unchanged` when `refreshOnly` and the refresh did not do
 * @throws HostError `authRequired` (no one can sign in here), `cancelled`, `auth` (everything else, named)
 */
export async function runSignIn(ctx: SignInContext, opts: SignInOptions): Promise<'refreshed' | 'signedIn' | 'unchanged'> {
  const { provider } = ctx;
  const meta = metadataFetch((line) => ctx.step(`discovery: ${line}`), opts.signal, fetch, ctx.serverUrl);
  provider.resourceMetadataTried = meta.resourceMetadata;
  if (isMachineGrant(ctx.settings.grant)) {
    try {
      await runMachineSignIn({
        server: ctx.server,
        serverUrl: ctx.serverUrl,
        settings: ctx.settings,
        credentials: ctx.credentials,
        fetchFn: meta.fetch,
        resourceMetadataTried: meta.resourceMetadata,
        scope: opts.scope,
        resourceMetadataUrl: opts.challenge?.resourceMetadataUrl,
        step: (text) => ctx.step(text),
        dpop: ctx.dpop,
        dpopChallenged: ctx.dpopChallenged?.(),
        idTokens: ctx.idTokens,
      });
    } catch (e) {
      throw signInError(e, { server: ctx.server, notJson: meta.notJson });
    }
    await tokenLine(ctx, opts.refreshOnly ? 'refreshed the sign-in' : 'signed in');
    return opts.refreshOnly ? 'refreshed' : 'signedIn';
  }
  const base: AuthOptions = {
    serverUrl: ctx.serverUrl,
    scope: opts.scope,
    resourceMetadataUrl: opts.challenge?.resourceMetadataUrl,
    fetchFn: meta.fetch,
  };
  try {
    const stored = await ctx.credentials.tokens(ctx.serverUrl);
    if (stored?.tokens.refresh_token && !opts.force) {
      provider.beginAttempt('refresh', provider.redirectUrl);
      try {
        if ((await auth(provider, base)) === 'AUTHORIZED') {
          await tokenLine(ctx, 'refreshed the sign-in');
          return 'refreshed';
        }
      } catch (e) {
        if (!(e instanceof InteractionNeeded)) throw e;
        ctx.step('the refresh token was not accepted; a sign-in in the browser is needed');
      }
    }
    if (opts.refreshOnly) return 'unchanged';
    if (!ctx.driver.interactive) {
      throw new HostError(
        'authRequired',
        `${ctx.server} needs a sign-in${opts.challenge ? ` (it answered ${opts.challenge.status})` : ''}, and none can be done here: ${ctx.driver.unavailable ?? 'no one can open a browser'}`,
      );
    }
    const listener = await bind(ctx);
    // From here a person is asked: nothing goes to another origin than the server's before they agree.
    const consent = askBeforeOtherOrigins(ctx, opts, meta);
    try {
      const redirectUrl = (await ctx.driver.redirectUrlFor?.(listener.url)) ?? listener.url;
      provider.beginAttempt('authorize', redirectUrl.href);
      const started = await auth(provider, { ...base, forceReauthorization: opts.force }).catch((e: unknown) => {
        // The SDK may take a refused request for a missing document and go on: the person's no is the error.
        throw consent.refusal ?? e;
      });
      if (consent.refusal) throw consent.refusal;
      if (started === 'AUTHORIZED') {
        await tokenLine(ctx, 'refreshed the sign-in');
        return 'refreshed';
      }
      const asName = hostOf(provider.issuer);
      ctx.step(
        `authorization server ${provider.issuer ?? asName}${provider.discoveryResult?.resourceMetadata ? `, named by the server's protected resource metadata` : ''}`,
      );
      const { code, iss } = await authorizeInBrowser(ctx, opts, listener, redirectUrl, consent);
      await auth(provider, { ...base, authorizationCode: code, iss });
      listener.reply(true, `Signed in to ${ctx.server}. You can close this tab.`);
      await tokenLine(ctx, 'signed in');
      return 'signedIn';
    } catch (e) {
      listener.reply(
        false,
        `The sign-in to ${ctx.server} did not complete: ${errorMessage(signInError(e, { server: ctx.server, asName: hostOf(provider.issuer), notJson: meta.notJson }))}`,
      );
      throw e;
    } finally {
      await listener.close();
    }
  } catch (e) {
    throw signInError(e, { server: ctx.server, asName: provider.issuer ? hostOf(provider.issuer) : undefined, notJson: meta.notJson });
  }
}
