/**
 * The SDK's `OAuthClientProvider` for one server, over the host's {@link Credentials}: what `auth()`
 * reads and writes while it discovers, registers, refreshes and builds the authorization URL. The
 * discovery state, the PKCE verifier and the `state` value live in memory only, for one sign-in.
 *
 * It never navigates: the authorization URL is captured for the sign-in flow (`signInFlow.ts`), which
 * asks the person, opens the browser and checks what comes back. In `refresh` mode it refuses to go
 * interactive (no registration, no authorization URL) so a refresh can be tried without side effects.
 *
 * Spec: MCP 2026-07-28 "Authorization": client registration order, PKCE, `state`, refresh tokens,
 * credentials bound to their issuer. Its parts: the client identity (`clientIdentity.ts`) and the
 * token record kept (`credentials.ts`).
 */
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { HostError } from '../util/errors';
import { oneLine } from '../util/shownText';
import { clientMetadataFor, findClient, registrationKind } from './clientIdentity';
import { tokenRecord, type Credentials, type RegistrationKind } from './credentials';
import { browserUrlProblem } from './driver';
import type { OAuthSettings } from './oauthSettings';

/** Thrown by the provider in `refresh` mode where `auth()` would need a person. */
export class InteractionNeeded extends Error {
  constructor() {
    super('a sign-in in the browser is needed');
    this.name = 'InteractionNeeded';
  }
}

/**
 * Refuse an authorization server that does not advertise PKCE S256 (the SDK only refuses a list
 * that lacks it, not a missing list), or that has no metadata at all.
 * @throws HostError `auth`
 */
export function assertPkceS256(discovery: OAuthDiscoveryState | undefined): void {
  const md = discovery?.authorizationServerMetadata;
  const as = discovery?.authorizationServerUrl ?? 'the authorization server';
  if (!md)
    throw new HostError(
      'auth',
      `no authorization server metadata was found at ${as} (RFC 8414 and OpenID discovery tried); a sign-in needs it`,
    );
  if (!md.code_challenge_methods_supported?.includes('S256')) {
    throw new HostError(
      'auth',
      `${md.issuer} does not say it supports PKCE with S256 (code_challenge_methods_supported ${md.code_challenge_methods_supported ? 'lacks S256' : 'is missing'}); the host does not sign in without it`,
    );
  }
}

/**
 * Refuse, before any registration or consent, a discovery the host does not sign in with: no usable
 * protected resource metadata (MCP 2026-07-28: a client MUST use it to find the authorization server,
 * and sends its `resource`; no fallback to the server's origin), or an authorization endpoint a
 * browser is not sent to (not https off loopback, or a user name or password before the host).
 * @param mode a refresh opens no browser: only the protected resource metadata is checked
 * @param tried the protected resource metadata requests made (`GET <url> → <status>`), for the message
 * @throws HostError `auth`
 */
export function assertUsableDiscovery(
  discovery: OAuthDiscoveryState | undefined,
  mode: 'refresh' | 'authorize',
  tried: readonly string[] = [],
): void {
  const prm = discovery?.resourceMetadata;
  if (!prm?.authorization_servers?.length) {
    const why = prm
      ? 'names no authorization server'
      : `was not found or not usable${tried.length ? ` (${tried.map((t) => oneLine(t, 300)).join('; ')})` : ''}`;
    // No metadata at all is how a 2025-03-26 server looks: say how to sign in to one.
    const legacy =
      !prm && !discovery?.authorizationServerMetadata
        ? '. A server of the 2025-03-26 revision has no metadata: set its "era" to "legacy" to sign in at its own /authorize, /token and /register'
        : '';
    throw new HostError(
      'auth',
      `the server's protected resource metadata (RFC 9728) ${why}; the host does not sign in without it (it names the authorization server and the resource the token is for)${legacy}`,
    );
  }
  const endpoint = discovery?.authorizationServerMetadata?.authorization_endpoint;
  if (mode === 'refresh' || !endpoint) return; // a refresh opens no browser; no metadata: assertPkceS256 says so
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new HostError('auth', `the authorization endpoint "${oneLine(endpoint, 200)}" is not a URL`);
  }
  const problem = browserUrlProblem(url);
  if (problem) throw new HostError('auth', `the authorization endpoint ${oneLine(problem, 300)}; nothing was registered`);
}

/** What the provider needs besides the store. */
export interface ProviderOptions {
  serverUrl: string;
  settings: OAuthSettings;
  /** The host-wide client ID metadata document URL (a server's own setting wins). */
  clientMetadataUrl?: string;
  clientName: string;
  /**
   * The server speaks the 2025 era only (`"era": "legacy"`): when it has neither protected resource
   * nor authorization server metadata, it is a 2025-03-26 server, whose endpoints are `/authorize`,
   * `/token` and `/register` at its root (MCP 2025-03-26 "Authorization", fallbacks for servers
   * without metadata discovery), and PKCE is required of every client of that revision.
   */
  legacyFallback?: boolean;
  /** The server's DPoP proof key (made once per server, on first use). */
  dpop?: () => Promise<DpopSession>;
  /** Whether the MCP server challenged with the `DPoP` scheme. */
  dpopChallenged?: () => boolean;
}

/**
 * Whether to use DPoP: the MCP server asks for it (it challenged with the `DPoP` scheme, or its
 * protected resource metadata requires bound tokens, RFC 9728) and the authorization server can
 * issue such tokens (its metadata lists DPoP signing algorithms, RFC 9449 §5.1). A server that does
 * not ask is never sent a proof.
 * @param challenged the MCP server challenged with the `DPoP` scheme
 */
export function asksForDpop(discovery: OAuthDiscoveryState | undefined, challenged: boolean): boolean {
  const algs = (discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: unknown } | undefined)
    ?.dpop_signing_alg_values_supported;
  const required = (discovery?.resourceMetadata as { dpop_bound_access_tokens_required?: unknown } | undefined)
    ?.dpop_bound_access_tokens_required;
  return (challenged || required === true) && Array.isArray(algs) && algs.length > 0;
}

/** One server's `OAuthClientProvider` (see the module comment). */
export class HostOAuthProvider implements OAuthClientProvider {
  /** The redirect URI of the current sign-in (the loopback listener, as the browser reaches it). */
  redirectUrl: string;
  /** `refresh`: never register nor build an authorization URL ({@link InteractionNeeded} instead). */
  mode: 'refresh' | 'authorize' = 'refresh';
  /** The authorization URL `auth()` built, once it did. */
  captured?: URL;
  /** The `state` sent with the authorization request. */
  expectedState?: string;
  /** How the client identity of this sign-in was obtained, once known. */
  registration?: RegistrationKind | 'stored';
  /** The protected resource metadata requests of this sign-in (`GET <url> → <status>`), for messages. */
  resourceMetadataTried: readonly string[] = [];
  private discovery?: OAuthDiscoveryState;
  private verifier?: string;

  constructor(
    private readonly credentials: Credentials,
    private readonly options: ProviderOptions,
    redirectUrl: string,
  ) {
    this.redirectUrl = redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings.clientMetadataUrl ?? this.options.clientMetadataUrl;
  }

  /** No `scope`: the scope comes from the challenge or the server's metadata, or is omitted. */
  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataFor(this.options.clientName, this.redirectUrl);
  }

  /**
   * True when this sign-in discovers as a 2025-03-26 client does (see {@link ProviderOptions.legacyFallback}):
   * no protected resource metadata, the authorization server at the server's origin.
   */
  get usesLegacyDiscovery(): boolean {
    return !!this.options.legacyFallback && !!this.discovery && !this.discovery.resourceMetadata;
  }

  /** True when, besides, that server has no metadata at all: its default endpoints are used. */
  get usesLegacyEndpoints(): boolean {
    return this.usesLegacyDiscovery && !this.discovery?.authorizationServerMetadata;
  }

  /** The issuer of the authorization server discovery resolved, if any. */
  get issuer(): string | undefined {
    return this.discovery?.authorizationServerMetadata?.issuer ?? this.discovery?.authorizationServerUrl;
  }

  /** What discovery found (the authorization server's metadata among it). */
  get discoveryResult(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  state(): string {
    // Web Crypto's global, not node:crypto: the module is loaded at every CLI start, a sign-in rarely.
    this.expectedState = Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url');
    return this.expectedState;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    // Read right after discovery: a discovery the host does not sign in with gets no registration either.
    if (!this.usesLegacyDiscovery) assertUsableDiscovery(this.discovery, this.mode, this.resourceMetadataTried);
    if (this.mode === 'authorize' && !this.usesLegacyEndpoints) assertPkceS256(this.discovery);
    const found = await findClient(
      this.credentials,
      this.options.settings,
      ctx?.issuer ?? this.issuer,
      this.mode === 'refresh' ? undefined : this.redirectUrl,
    );
    if (!found) {
      if (this.mode === 'refresh') throw new InteractionNeeded();
      return undefined;
    }
    this.registration ??= found.registration;
    return found.info;
  }

  async saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? info.issuer ?? this.issuer;
    if (!issuer) return;
    if (this.options.settings.clientId) return; // a pre-registered client is configuration, not state
    const kind = registrationKind(info, this.clientMetadataUrl);
    this.registration = kind;
    await this.credentials.saveClient(issuer, { info, kind });
  }

  async tokens(): Promise<StoredOAuthTokens | undefined> {
    return (await this.credentials.tokens(this.options.serverUrl))?.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    const previous = await this.credentials.tokens(this.options.serverUrl);
    const issuer = ctx?.issuer ?? tokens.issuer ?? this.issuer ?? '';
    await this.credentials.saveTokens(this.options.serverUrl, tokenRecord(tokens, issuer, previous, this.captured));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.mode === 'refresh') throw new InteractionNeeded();
    this.captured = authorizationUrl;
  }

  /** The DPoP proof key, when the authorization server asks for DPoP (the SDK then signs the token requests). */
  async dpop(): Promise<DpopSession | undefined> {
    return asksForDpop(this.discovery, !!this.options.dpopChallenged?.()) ? this.options.dpop?.() : undefined;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier was recorded for this sign-in');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.credentials.forgetTokens(this.options.serverUrl);
    if ((scope === 'all' || scope === 'client') && this.issuer) await this.credentials.forgetClient(this.issuer);
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  /** Start a new sign-in attempt: nothing captured, nothing decided yet. */
  beginAttempt(mode: 'refresh' | 'authorize', redirectUrl: string): void {
    this.mode = mode;
    this.redirectUrl = redirectUrl;
    this.captured = undefined;
    this.expectedState = undefined;
    this.registration = undefined;
    this.verifier = undefined;
  }
}
