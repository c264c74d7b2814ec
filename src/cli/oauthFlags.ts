/**
 * The CLI's sign-in flags for an `--http` server: the same `oauth` settings as `mcp.json`'s, for CI,
 * services and enterprises (`--grant client_credentials|jwt_bearer|enterprise`, a pre-registered
 * `--client-id`). A secret is never taken on the command line (it would sit in the shell's history and
 * in every process listing): it comes from an environment variable (`--client-secret-env NAME`) or a
 * file (`--private-key-file`, `--assertion-file`, `--id-token-file`), and is never printed.
 */
import { cliList, cliText } from './messages';
import { checkGrant, OAUTH_GRANTS, type OAuthGrant, type OAuthSettings } from '../core/oauth/oauthSettings';

/** The flags, as `node:util` `parseArgs` options. */
export const OAUTH_FLAG_OPTIONS = {
  'client-id': { type: 'string' },
  'client-secret-env': { type: 'string' },
  'private-key-file': { type: 'string' },
  'signing-algorithm': { type: 'string' },
  grant: { type: 'string' },
  'assertion-file': { type: 'string' },
  'assertion-env': { type: 'string' },
  'id-token-file': { type: 'string' },
  'idp-issuer': { type: 'string' },
  'idp-client-id': { type: 'string' },
  'idp-client-secret-env': { type: 'string' },
  // Declared only to refuse them with a message that says what to do instead.
  'client-secret': { type: 'string' },
  'idp-client-secret': { type: 'string' },
} as const;

/** The flags' values as `parseArgs` gives them. */
export type OAuthFlagValues = { [K in keyof typeof OAUTH_FLAG_OPTIONS]?: string };

/** The usage lines of the flags. */
export const OAUTH_FLAGS_USAGE = `  [--grant authorization_code|client_credentials|jwt_bearer|enterprise]   sign-in of an --http server (default: in the browser)
  [--client-id <id>] [--client-secret-env <VAR>]   a registered client; its secret from an environment variable
  [--private-key-file <pem>] [--signing-algorithm <alg>]   client_credentials with private_key_jwt
  [--assertion-file <file> | --assertion-env <VAR>]   jwt_bearer: the workload's token
  [--id-token-file <file>] [--idp-issuer <url>] [--idp-client-id <id>] [--idp-client-secret-env <VAR>]   enterprise`;

/** Each setting and the flag that sets it, for messages in the flags' words. */
const FLAG_OF: Record<string, string> = {
  clientId: '--client-id',
  clientSecret: '--client-secret-env',
  privateKeyFile: '--private-key-file',
  signingAlgorithm: '--signing-algorithm',
  assertionFile: '--assertion-file',
  assertionEnv: '--assertion-env',
  idTokenFile: '--id-token-file',
  idpIssuer: '--idp-issuer',
  idpClientId: '--idp-client-id',
  idpClientSecret: '--idp-client-secret-env',
};

/**
 * The grant the flags imply when `--grant` is not given: a key or a secret (`client_credentials`), a
 * workload token (`jwt_bearer`), an IdP (`enterprise`); a bare `--client-id` signs in in the browser.
 */
function impliedGrant(v: OAuthFlagValues): OAuthGrant {
  if (v['assertion-file'] !== undefined || v['assertion-env'] !== undefined) return 'jwt_bearer';
  if (v['id-token-file'] !== undefined || v['idp-issuer'] !== undefined || v['idp-client-id'] !== undefined) return 'enterprise';
  if (v['private-key-file'] !== undefined || v['client-secret-env'] !== undefined) return 'client_credentials';
  return 'authorization_code';
}

/**
 * The `oauth` settings the flags give, or `undefined` when none is given.
 * @param env where `--client-secret-env` / `--idp-client-secret-env` variables are read
 * @param usageError makes the error thrown (the CLI's UsageError: exit 2)
 * @throws what `usageError` makes, naming the flag that is wrong and what to give instead
 */
export function oauthSettingsFromFlags(
  v: OAuthFlagValues,
  env: NodeJS.ProcessEnv,
  usageError: (message: string) => Error,
): OAuthSettings | undefined {
  for (const flag of ['client-secret', 'idp-client-secret'] as const)
    if (v[flag] !== undefined)
      throw usageError(
        cliText("--{0} is not taken: a secret on the command line is kept in the shell's history; use --{0}-env <VAR>", flag),
      );
  if (!Object.keys(OAUTH_FLAG_OPTIONS).some((k) => v[k as keyof OAuthFlagValues] !== undefined)) return undefined;
  for (const [k, value] of Object.entries(v))
    if (value === '' && k in OAUTH_FLAG_OPTIONS) throw usageError(cliText('--{0} needs a value', k));
  const secretFrom = (flag: 'client-secret-env' | 'idp-client-secret-env'): string | undefined => {
    const name = v[flag];
    if (name === undefined) return undefined;
    const value = env[name];
    if (!value) throw usageError(cliText('--{0}: the environment variable {1} is not set', flag, name));
    return value;
  };
  const grant = (v.grant ?? impliedGrant(v)) as OAuthGrant;
  if (!OAUTH_GRANTS.includes(grant))
    throw usageError(cliText('--grant must be one of {0}, got "{1}"', cliList(OAUTH_GRANTS), String(v.grant)));
  const settings: OAuthSettings = {
    grant,
    clientId: v['client-id'],
    clientSecret: secretFrom('client-secret-env'),
    privateKeyFile: v['private-key-file'],
    signingAlgorithm: v['signing-algorithm'],
    assertionFile: v['assertion-file'],
    assertionEnv: v['assertion-env'],
    idTokenFile: v['id-token-file'],
    idpIssuer: v['idp-issuer'],
    idpClientId: v['idp-client-id'],
    idpClientSecret: secretFrom('idp-client-secret-env'),
  };
  for (const k of Object.keys(settings) as (keyof OAuthSettings)[]) if (settings[k] === undefined) delete settings[k];
  if (grant === 'authorization_code') delete settings.grant;
  if (settings.clientSecret !== undefined && settings.clientId === undefined)
    throw usageError(cliText('--client-secret-env needs --client-id'));
  try {
    checkGrant(settings, 'sign-in flags');
  } catch (e) {
    // The settings' names, in the flags' words.
    throw usageError((e as Error).message.replace(/"(\w+)"/g, (m, key: string) => FLAG_OF[key] ?? m));
  }
  return settings;
}
