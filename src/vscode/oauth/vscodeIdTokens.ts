/**
 * The enterprise IdP's ID token in VS Code: a session of one of VS Code's authentication providers
 * (`"oauth": { "grant": "enterprise", "idToken": { "authenticationProvider": "microsoft" } }`), asked
 * with `openid` and the configured scopes; VS Code asks the person before the first sign-in
 * (`createIfNone`). Only a provider whose session carries an `idToken` (Microsoft's does) can serve;
 * any other is refused by name. The token is never logged.
 */
import * as vscode from 'vscode';
import type { IdTokenRequest, IdTokenSource } from '../../core/oauth/idTokenSource';
import type { OAuthSettings } from '../../core/oauth/oauthSettings';
import { HostError } from '../../core/util/errors';

/** The scopes asked when a server's `idToken.scopes` names none. */
export const DEFAULT_ID_TOKEN_SCOPES = ['openid', 'profile', 'email'];

/**
 * The ID token source of the extension.
 * @param mayAuthorize throws for a server that may not sign in here (an untrusted workspace's)
 */
export function vscodeIdTokens(mayAuthorize: (server: string) => void): IdTokenSource {
  return {
    describe: (s: OAuthSettings) =>
      s.idToken?.authenticationProvider ? `a VS Code sign-in with ${s.idToken.authenticationProvider}` : 'no ID token source',
    async idToken(r: IdTokenRequest): Promise<string> {
      const provider = r.settings.idToken?.authenticationProvider;
      if (!provider)
        throw new HostError(
          'auth',
          `${r.server}: the enterprise sign-in has no ID token: set "oauth.idTokenFile", or "oauth.idToken": { "authenticationProvider": "microsoft" } to sign in through VS Code`,
        );
      mayAuthorize(r.server);
      const scopes = [...new Set(['openid', ...(r.settings.idToken?.scopes ?? DEFAULT_ID_TOKEN_SCOPES)])];
      let session: vscode.AuthenticationSession | undefined;
      try {
        session = await vscode.authentication.getSession(provider, scopes, { createIfNone: true });
      } catch (e) {
        const msg = (e as Error).message ?? String(e);
        if (/cancel/i.test(msg)) throw new HostError('cancelled', `the sign-in with ${provider} for ${r.server} was cancelled`);
        throw new HostError(
          'auth',
          `${r.server}: signing in with the VS Code authentication provider "${provider}" failed (${msg}); check "oauth.idToken.authenticationProvider" names an installed provider`,
        );
      }
      const idToken = (session as { idToken?: unknown } | undefined)?.idToken;
      if (typeof idToken !== 'string' || !idToken)
        throw new HostError(
          'auth',
          `${r.server}: the VS Code authentication provider "${provider}" gives no ID token with its session; use "microsoft", or set "oauth.idTokenFile" to a file holding the IdP's ID token`,
        );
      return idToken;
    },
  };
}
