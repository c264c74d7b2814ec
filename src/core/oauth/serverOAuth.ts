/**
 * OAuth for one HTTP server, as its connection uses it: the `fetch` its transport sends with (the
 * token on every request; a refused request turned into {@link SignInNeeded}), one sign-in at a time
 * (concurrent refusals share it), the scope to ask for (the challenge's; on a step-up the union with
 * what was asked before), a bound on sign-ins per operation, and sign-out.
 *
 * Spec: MCP 2026-07-28 "Authorization": `Authorization: Bearer` on every request, never in the query;
 * step-up on `403 insufficient_scope` with the union of scopes (SEP-2350) and a retry limit; a 401
 * after a token re-runs discovery (the server may have moved to another authorization server).
 *
 * The parts: `authorizedFetch.ts` (the token on every request, refresh ahead of expiry, refusals
 * turned into errors), `signInRunner.ts` (one sign-in at a time, its scope) and `signInAttempts.ts`
 * (sign-ins counted per operation).
 */
import type { DpopSession, FetchLike } from '@modelcontextprotocol/client';
import type { HostEvent } from '../log/events';
import { HostError } from '../util/errors';
import { authorizedFetch } from './authorizedFetch';
import { describeChallenge, SignInNeeded, type AuthChallenge } from './challenge';
import { Credentials, serverKey, type SignInStatus } from './credentials';
import type { AuthorizationDriver } from './driver';
import { keptDpopSession } from './dpopKey';
import type { OAuthStore } from './oauthStore';
import { CALLBACK_PATH, DEFAULT_CALLBACK_PORT, type OAuthSettings } from './oauthSettings';
import type { IdTokenSource } from './idTokenSource';
import { HostOAuthProvider } from './provider';
import { MAX_SIGN_INS_PER_OPERATION, SignInAttempts } from './signInAttempts';
import { DEFAULT_SIGN_IN_TIMEOUT_MS } from './signInFlow';
import { SignInRunner } from './signInRunner';

/** The host's OAuth services, shared by every server. */
export interface OAuthHost {
  store: OAuthStore;
  driver: AuthorizationDriver;
  /** A client ID metadata document URL the host may use as its client id. */
  clientMetadataUrl?: string;
  /** The `client_name` registered (default `MCP Roundtrip`). */
  clientName?: string;
  /** Time a person has to finish a sign-in, ms (default 5 minutes). */
  signInTimeoutMs?: number;
  /** The callback port when a server sets none (default {@link DEFAULT_CALLBACK_PORT}). */
  callbackPort?: number;
  /** The host's sign-in for an enterprise IdP's ID token, for `enterprise` servers without `idTokenFile`. */
  idTokens?: IdTokenSource;
}

/** One server's OAuth (see the module comment). */
export class ServerOAuth {
  readonly credentials: Credentials;
  private readonly provider: HostOAuthProvider;
  private readonly signIns: SignInRunner;
  private readonly attempts = new SignInAttempts();
  /** The server's DPoP proof key: made on first use and kept in the store (`dpopKey.ts`); signs non-extractable. */
  private dpopSession?: Promise<DpopSession>;
  private readonly dpop = () =>
    (this.dpopSession ??= keptDpopSession(this.credentials.store, this.serverUrl).catch((e: unknown) => {
      this.dpopSession = undefined;
      throw e;
    }));
  /** The server challenged with the `DPoP` scheme (it wants sender-constrained tokens). */
  private dpopChallenged = false;
  private readonly wantsDpop = () => this.dpopChallenged;

  /**
   * @param server the server's display name
   * @param serverUrl its MCP endpoint
   * @param emit receives `auth` events (one line each in the round-trip log)
   * @param era the server's era setting: `legacy` allows a 2025-03-26 server's default endpoints
   */
  constructor(
    readonly server: string,
    readonly serverUrl: string,
    settings: OAuthSettings,
    host: OAuthHost,
    private readonly emit: (e: HostEvent) => void,
    era?: 'auto' | 'modern' | 'legacy',
  ) {
    this.credentials = new Credentials(host.store);
    const callbackPort = settings.callbackPort ?? host.callbackPort ?? DEFAULT_CALLBACK_PORT;
    this.provider = new HostOAuthProvider(
      this.credentials,
      {
        serverUrl,
        settings,
        clientMetadataUrl: host.clientMetadataUrl,
        clientName: host.clientName ?? 'MCP Roundtrip',
        legacyFallback: era === 'legacy',
        dpop: this.dpop,
        dpopChallenged: this.wantsDpop,
      },
      `http://127.0.0.1:${callbackPort || DEFAULT_CALLBACK_PORT}${CALLBACK_PATH}`,
    );
    this.signIns = new SignInRunner({
      server,
      serverUrl,
      provider: this.provider,
      credentials: this.credentials,
      driver: host.driver,
      callbackPort,
      dpopChallenged: this.wantsDpop,
      staticClient: !!settings.clientId,
      settings,
      dpop: this.dpop,
      idTokens: host.idTokens,
      timeoutMs: host.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
      step: (text) => this.step(text),
    });
  }

  private step(message: string): void {
    this.emit({ kind: 'auth', server: this.server, message });
  }

  /**
   * The transport's fetch around `inner` (the host's bounded fetch): the token on every request; a
   * refusal of a request becomes {@link SignInNeeded}.
   */
  wrapFetch(inner: FetchLike): FetchLike {
    return authorizedFetch(inner, {
      tokens: () => this.credentials.tokens(this.serverUrl),
      dpop: this.dpop,
      signingIn: () => this.signIns.running,
      refresh: () => this.signIns.refresh(),
      succeeded: (operation) => this.attempts.succeeded(operation),
      challenged: (challenge) => this.challenged(challenge),
    });
  }

  /**
   * The error for a refusal: {@link SignInNeeded} (whose `signIn` runs the sign-in), or HostError
   * `auth` when this operation has had its {@link MAX_SIGN_INS_PER_OPERATION} sign-ins already.
   */
  challenged(challenge: AuthChallenge): HostError {
    if (challenge.dpop) this.dpopChallenged = true;
    const recent = this.attempts.recent(challenge.operation);
    const what = `${this.server} refused ${challenge.operation} (${describeChallenge(challenge)})`;
    if (recent >= MAX_SIGN_INS_PER_OPERATION) {
      this.step(`${what} again after ${recent} sign-in(s); not asking again`);
      return new HostError(
        'auth',
        `${what} even after ${recent} sign-in(s); the host stopped asking. Check that your account may do this, or sign out and in again`,
      );
    }
    return new SignInNeeded(challenge, (signal) => this.signIn(challenge, signal), `${what}: a sign-in is needed`);
  }

  /**
   * Sign in for `challenge` (one sign-in at a time: a caller arriving meanwhile waits for the same one).
   * @throws HostError `authRequired`, `cancelled`, `auth` (see `signInFlow.ts`)
   */
  async signIn(challenge: AuthChallenge, signal?: AbortSignal): Promise<void> {
    if (!this.signIns.running) this.attempts.count(challenge.operation);
    await this.signIns.signIn(challenge, signal);
  }

  /** What may be shown of this server's sign-in, if it has one. */
  status(): Promise<SignInStatus | undefined> {
    return this.credentials.status(this.serverUrl);
  }

  /** Forget this server's tokens; the next request asks for a sign-in again. @returns whether it was signed in */
  async signOut(): Promise<boolean> {
    const had = await this.credentials.forgetTokens(this.serverUrl);
    await this.provider.invalidateCredentials('discovery');
    this.attempts.clear();
    this.step(had ? `signed out of ${serverKey(this.serverUrl)}` : 'was not signed in');
    return had;
  }
}
