/**
 * Where the enterprise IdP's ID token comes from when `idTokenFile` is not set: the host's own
 * sign-in at the IdP (VS Code: one of its authentication providers, e.g. Microsoft). The core asks
 * through this interface and never knows which host answers; the token itself is never logged.
 *
 * Spec: the MCP "enterprise-managed authorization" extension (SEP-990): the ID token is the subject
 * of the RFC 8693 exchange for an ID-JAG.
 */
import type { OAuthSettings } from './oauthSettings';

/** What an ID token is asked for: the server and its `oauth` settings (`idpIssuer`, `idpClientId`, `idToken`). */
export interface IdTokenRequest {
  /** The server's display name (for the person's prompt and messages). */
  server: string;
  settings: OAuthSettings;
  /** Ends the wait (the call's cancellation or limit). */
  signal?: AbortSignal;
}

/** The host's way to an enterprise IdP's ID token. */
export interface IdTokenSource {
  /**
   * The ID token (a compact JWT) for `request`.
   * @throws HostError `auth` naming the provider or IdP and what to configure, `cancelled` when the person declined
   */
  idToken(request: IdTokenRequest): Promise<string>;
  /** How the token is obtained, for the log and the Servers view (e.g. `a VS Code sign-in with microsoft`); never a secret. */
  describe(settings: OAuthSettings): string;
}
