/**
 * The CLI's sign-in services: the store (`--oauth-store file`, the default: a 0600 file in the user's
 * config directory; `memory`: nothing kept), the terminal driver (browser unless `--no-browser`), the
 * enterprise ID token's OIDC sign-in at the IdP (when no `--id-token-file`), and `auth logout <server-url>`.
 */
import { Credentials } from '../core/oauth/credentials';
import { DEFAULT_CALLBACK_PORT } from '../core/oauth/oauthSettings';
import { MemoryOAuthStore, type OAuthStore } from '../core/oauth/oauthStore';
import { oidcIdTokens } from '../core/oauth/oidcSignIn';
import type { OAuthHost } from '../core/oauth/serverOAuth';
import type { CliOptions } from './args';
import { defaultOAuthFile, FileOAuthStore } from './oauthFileStore';
import type { Ask } from './terminalPrompt';
import { terminalSignIn } from './terminalSignIn';

/** The store `--oauth-store` names, and how to name it in messages. */
export function cliStore(kind: CliOptions['oauthStore']): { store: OAuthStore; hint: string } {
  if (kind === 'memory')
    return { store: new MemoryOAuthStore(), hint: 'memory only (--oauth-store memory): it is gone when the command ends' };
  const file = defaultOAuthFile();
  return { store: new FileOAuthStore(file), hint: file };
}

/** The OAuth host of one CLI run. */
export function cliOAuth(opts: CliOptions, io: { stderr: NodeJS.WritableStream; stdinIsTTY: boolean }, ask: Ask): OAuthHost {
  const { store, hint } = cliStore(opts.oauthStore);
  const driver = terminalSignIn({
    interactive: io.stdinIsTTY,
    out: io.stderr,
    ask,
    openBrowser: opts.openBrowser,
    storeHint: opts.oauthStore === 'memory' ? undefined : hint,
  });
  // `--grant enterprise` without `--id-token-file`: the ID token from an OIDC sign-in at `--idp-issuer`.
  return { store, driver, idTokens: oidcIdTokens({ store, driver, callbackPort: DEFAULT_CALLBACK_PORT }) };
}

/**
 * `auth logout <server-url>`: forget that server's tokens (its client registration stays, it is not
 * a secret of the person's).
 * @returns the line to print
 */
export async function logout(opts: CliOptions, url: string): Promise<string> {
  const { store, hint } = cliStore(opts.oauthStore);
  const had = await new Credentials(store).forgetTokens(url);
  return had ? `signed out of ${url} (removed from ${hint})` : `not signed in to ${url} (nothing kept in ${hint})`;
}
