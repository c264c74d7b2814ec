/** Who a server is signed in with, for the servers view and the pickers. No `vscode` import: testable under Node. */
import { claimedAccount } from './credentials';
import type { OAuthSettings } from './oauthSettings';
import { hostOf } from './signInFlow';

/** `signed in with login.example.com (an unverified ID token claims to be ada)`, or undefined when not signed in. */
export function signedInText(s: { issuer: string; account?: string } | undefined): string | undefined {
  return s ? `signed in with ${hostOf(s.issuer)}${claimedAccount(s.account)}` : undefined;
}

/**
 * Which sign-in a server's `oauth` entry makes it use, for the servers view (its tooltip; the part
 * before `:` in the description): undefined for the browser sign-in (the default). Names only where
 * the credential comes from (a file, a variable, the IdP's host), never a secret.
 * @example `enterprise sign-in: ID token from /run/idp/token at login.corp.example, via the IdP client corp-mcp`
 */
export function grantText(settings: OAuthSettings | false | undefined): string | undefined {
  if (!settings) return undefined;
  const as = settings.clientId ? ` as ${settings.clientId}` : '';
  switch (settings.grant) {
    case 'client_credentials':
      return `client credentials sign-in: ${settings.privateKeyFile ? 'a private key JWT' : 'a client secret'}${as}`;
    case 'jwt_bearer':
      return `workload identity sign-in: the workload's token from ${settings.assertionFile ?? `$${settings.assertionEnv ?? '?'}`}${as}`;
    case 'enterprise': {
      const idp = settings.idpIssuer ? safeHost(settings.idpIssuer) : 'the IdP';
      return `enterprise sign-in: ID token from ${settings.idTokenFile ?? (settings.idToken?.authenticationProvider ? `a VS Code sign-in with ${settings.idToken.authenticationProvider}` : 'an IdP sign-in')} at ${idp}${settings.idpClientId ? `, via the IdP client ${settings.idpClientId}` : ''}${as}`;
    }
    default:
      return undefined;
  }
}

function safeHost(url: string): string {
  try {
    return hostOf(url);
  } catch {
    return url;
  }
}
