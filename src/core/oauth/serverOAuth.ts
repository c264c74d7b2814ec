/**
 * OAuth for one HTTP server, as its connection uses it: the `fetch` its transport sends with (the
 * token on every request; a refused request turned into {@link SignInNeeded}), one sign-in at a time
 * (concurrent refusals share it), the scope to ask for (the challenge's; on a step-up the union with
 * what was asked before), a bound on sign-ins per operation, and sign-out.
 *
 * Spec: MCP 2026-07-28 "Authorization": `Authorization: Bearer` on every request, never in the query;
 * step-up on `403 insufficient_scope` with the union of scopes (SEP-2350) and a retry limit; a 401
 * after a token re-runs discovery (the server may have moved to another authorization server).
 */
import { computeScopeUnion, isStrictScopeSuperset, type FetchLike } from '@modelcontextprotocol/client';
import type { HostEvent } from '../log/events';
import { abortRejection } from '../util/async';
import { HostError } from '../util/errors';
import { challengeOf, describeChallenge, operationOf, SignInNeeded, type AuthChallenge } from './challenge';
import { Credentials, expiresAt, serverKey, type SignInStatus } from './credentials';
import type { AuthorizationDriver } from './driver';
import type { OAuthStore } from './oauthStore';
import { CALLBACK_PATH, DEFAULT_CALLBACK_PORT, type OAuthSettings } from './oauthSettings';
import { HostOAuthProvider } from './provider';
import { DEFAULT_SIGN_IN_TIMEOUT_MS, runSignIn, type SignInContext } from './signInFlow';

/** Sign-ins one operation may start before the host stops asking (window: {@link SIGN_IN_WINDOW_MS}). */
export const MAX_SIGN_INS_PER_OPERATION = 2;
/** The window in which sign-ins of one operation are counted (ms). */
export const SIGN_IN_WINDOW_MS = 10 * 60_000;
/** A token this close to its expiry is refreshed before it is sent (ms). */
export const REFRESH_AHEAD_MS = 60_000;

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
}

/** One server's OAuth (see the module comment). */
export class ServerOAuth {
  readonly credentials: Credentials;
  private readonly provider: HostOAuthProvider;
  private inFlight?: Promise<void>;
  private refreshing?: Promise<unknown>;
  private readonly attempts = new Map<string, { count: number; since: number }>();

  /**
   * @param server the server's display name
   * @param serverUrl its MCP endpoint
   * @param emit receives `auth` events (one line each in the round-trip log)
   */
  constructor(
    readonly server: string,
    readonly serverUrl: string,
    private readonly settings: OAuthSettings,
    private readonly host: OAuthHost,
    private readonly emit: (e: HostEvent) => void,
  ) {
    this.credentials = new Credentials(host.store);
    const port = this.callbackPort;
    this.provider = new HostOAuthProvider(this.credentials, { serverUrl, settings, clientMetadataUrl: host.clientMetadataUrl, clientName: host.clientName ?? 'MCP Roundtrip' }, `http://127.0.0.1:${port || DEFAULT_CALLBACK_PORT}${CALLBACK_PATH}`);
  }

  private get callbackPort(): number {
    return this.settings.callbackPort ?? this.host.callbackPort ?? DEFAULT_CALLBACK_PORT;
  }

  private step(message: string): void {
    this.emit({ kind: 'auth', server: this.server, message });
  }

  /**
   * The transport's fetch around `inner` (the host's bounded fetch): the token on every request; a
   * refusal of a request becomes {@link SignInNeeded}.
   */
  wrapFetch(inner: FetchLike): FetchLike {
    return async (input, init) => {
      const method = (init?.method ?? 'GET').toUpperCase();
      await this.refreshIfExpiring();
      const token = (await this.credentials.tokens(this.serverUrl))?.tokens.access_token;
      const headers = new Headers(init?.headers);
      if (token) headers.set('Authorization', `Bearer ${token}`);
      const response = await inner(input, { ...init, headers });
      // Only a POST carries a request to retry; a refused GET stream or DELETE is left to the transport.
      if (method !== 'POST') return response;
      const operation = operationOf(init?.body);
      const challenge = challengeOf(response, operation, !!token);
      if (!challenge) {
        if (response.ok) this.attempts.delete(operation);
        return response;
      }
      await response.body?.cancel().catch(() => {});
      throw this.challenged(challenge);
    };
  }

  /**
   * The error for a refusal: {@link SignInNeeded} (whose `signIn` runs the sign-in), or HostError
   * `auth` when this operation has had its {@link MAX_SIGN_INS_PER_OPERATION} sign-ins already.
   */
  challenged(challenge: AuthChallenge): HostError {
    const seen = this.attempts.get(challenge.operation);
    const recent = seen && Date.now() - seen.since < SIGN_IN_WINDOW_MS ? seen.count : 0;
    const what = `${this.server} refused ${challenge.operation} (${describeChallenge(challenge)})`;
    if (recent >= MAX_SIGN_INS_PER_OPERATION) {
      this.step(`${what} again after ${recent} sign-in(s); not asking again`);
      return new HostError('auth', `${what} even after ${recent} sign-in(s); the host stopped asking. Check that your account may do this, or sign out and in again`);
    }
    return new SignInNeeded(challenge, (signal) => this.signIn(challenge, signal), `${what}: a sign-in is needed`);
  }

  /**
   * Sign in for `challenge` (one sign-in at a time: a caller arriving meanwhile waits for the same one).
   * @throws HostError `authRequired`, `cancelled`, `auth` (see `signInFlow.ts`)
   */
  async signIn(challenge: AuthChallenge, signal?: AbortSignal): Promise<void> {
    if (!this.inFlight) {
      const seen = this.attempts.get(challenge.operation);
      const fresh = !seen || Date.now() - seen.since >= SIGN_IN_WINDOW_MS;
      this.attempts.set(challenge.operation, { count: fresh ? 1 : seen.count + 1, since: fresh ? Date.now() : seen.since });
      this.inFlight = this.run(challenge, signal).finally(() => (this.inFlight = undefined));
    }
    const stop = abortRejection(signal, () => new HostError('cancelled', `the sign-in to ${this.server} was cancelled`));
    try {
      await Promise.race([this.inFlight, stop.promise]);
    } finally {
      stop.dispose();
    }
  }

  private async run(challenge: AuthChallenge, signal?: AbortSignal): Promise<void> {
    const record = await this.credentials.tokens(this.serverUrl);
    const granted = typeof record?.tokens.scope === 'string' ? record.tokens.scope : undefined;
    const previous = record?.requestedScope ?? granted;
    const scope = challenge.status === 403 ? computeScopeUnion(previous, challenge.scope) : challenge.scope;
    const force = challenge.status === 403 && isStrictScopeSuperset(scope, granted);
    this.step(`${this.server} answered ${challenge.operation} with ${describeChallenge(challenge)}${challenge.hadToken ? '' : ' (no token yet)'}; ${force ? 'asking for more scopes' : 'signing in'}`);
    // A token refused with 401: the server may now name another authorization server.
    if (challenge.status === 401 && challenge.hadToken) await this.provider.invalidateCredentials('discovery');
    try {
      await runSignIn(this.context(), { challenge, scope, force, signal });
    } catch (e) {
      this.step(`did not sign in: ${(e as Error).message}`);
      throw e;
    }
  }

  private context(): SignInContext {
    return {
      server: this.server,
      serverUrl: this.serverUrl,
      provider: this.provider,
      credentials: this.credentials,
      driver: this.host.driver,
      callbackPort: this.callbackPort,
      staticClient: !!this.settings.clientId,
      timeoutMs: this.host.signInTimeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
      step: (text) => this.step(text),
    };
  }

  /** Refresh a token about to expire before it is sent (best effort: a failure leaves it to the server's 401). */
  private async refreshIfExpiring(): Promise<void> {
    if (this.inFlight) return;
    const record = await this.credentials.tokens(this.serverUrl);
    const exp = record && expiresAt(record);
    if (!record?.tokens.refresh_token || exp === undefined || exp - Date.now() > REFRESH_AHEAD_MS) return;
    this.refreshing ??= runSignIn(this.context(), { force: false, refreshOnly: true })
      .catch((e: unknown) => this.step(`refreshing the token ahead of its expiry failed: ${(e as Error).message}`))
      .finally(() => (this.refreshing = undefined));
    await this.refreshing;
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
