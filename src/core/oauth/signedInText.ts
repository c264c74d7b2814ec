/** Who a server is signed in with, for the servers view and the pickers. No `vscode` import: testable under Node. */
import { claimedAccount } from './credentials';
import { hostOf } from './signInFlow';

/** `signed in with login.example.com (an unverified ID token claims to be ada)`, or undefined when not signed in. */
export function signedInText(s: { issuer: string; account?: string } | undefined): string | undefined {
  return s ? `signed in with ${hostOf(s.issuer)}${claimedAccount(s.account)}` : undefined;
}
