/**
 * How one HTTP server signs in, as `mcp.json` may say it (the shape VS Code and Claude Code accept):
 * `"oauth": { "clientId": "…", "clientSecret": "${input:…}" }` for a client registered beforehand,
 * `"oauth": false` for a server that must never start a sign-in, nothing for the default (client
 * metadata document or dynamic registration, whichever the authorization server offers).
 *
 * `"grant"` picks a sign-in without a person (see `machineGrant.ts`): `client_credentials` (a secret or
 * a private key file), `jwt_bearer` (a workload's token from a file or an environment variable) or
 * `enterprise` (an enterprise IdP's ID token exchanged for an ID-JAG, then for the server's token).
 * Secrets are values (`${input:…}`, `${env:…}`) or files, never logged.
 *
 * Spec: MCP 2026-07-28 "Authorization", client registration (pre-registered → client ID metadata
 * document → dynamic registration); the OAuth client credentials, workload identity federation and
 * enterprise-managed authorization extensions.
 */
import { isPlainObject } from '../util/json';

/** The loopback port of the sign-in callback unless a server sets its own (not VS Code's 33418, not the Inspector's 6276). */
export const DEFAULT_CALLBACK_PORT = 33419;

/** The path of the loopback callback. */
export const CALLBACK_PATH = '/callback';

/** How a server's token is obtained: in the browser (the default), or by one of the grants without a person. */
export const OAUTH_GRANTS = ['authorization_code', 'client_credentials', 'jwt_bearer', 'enterprise'] as const;

/** One of {@link OAUTH_GRANTS}. */
export type OAuthGrant = (typeof OAUTH_GRANTS)[number];

/** The string members of an `oauth` entry (each a non-empty string when set). */
const STRING_KEYS = [
  'clientId',
  'clientSecret',
  'clientMetadataUrl',
  'privateKeyFile',
  'signingAlgorithm',
  'assertionFile',
  'assertionEnv',
  'idTokenFile',
  'idpIssuer',
  'idpClientId',
  'idpClientSecret',
] as const;

/** What an `oauth` entry may set. All optional. */
export interface OAuthSettings {
  /** How the token is obtained (default `authorization_code`: a sign-in in the browser). */
  grant?: OAuthGrant;
  /** A client id registered beforehand with the server's authorization server. */
  clientId?: string;
  /** Its secret, for a confidential client (usually `${input:…}`, kept in secret storage). */
  clientSecret?: string;
  /** An https URL of a client ID metadata document this host may use as its client id. */
  clientMetadataUrl?: string;
  /** The loopback port of the callback (0: any free port, which forces a fresh dynamic registration). */
  callbackPort?: number;
  /** `client_credentials` with `private_key_jwt`: a PEM (PKCS#8) private key file signing the client assertion. */
  privateKeyFile?: string;
  /** The JWS algorithm of that key (default: from the key: ES256/ES384/ES512, RS256, EdDSA). */
  signingAlgorithm?: string;
  /** `jwt_bearer`: a file holding the workload's JWT (read again for every token request; it rotates). */
  assertionFile?: string;
  /** `jwt_bearer`: the environment variable holding the workload's JWT. */
  assertionEnv?: string;
  /** `enterprise`: a file holding the enterprise IdP's ID token. */
  idTokenFile?: string;
  /** `enterprise`: the IdP's issuer URL (its token endpoint is discovered there). */
  idpIssuer?: string;
  /** `enterprise`: this host's client id at the IdP. */
  idpClientId?: string;
  /** `enterprise`: its secret at the IdP, when the IdP wants one. */
  idpClientSecret?: string;
  /**
   * `enterprise`, without `idTokenFile`: a sign-in that yields the ID token. In VS Code,
   * `authenticationProvider` names one of its authentication providers (e.g. `microsoft`) asked for a
   * session with `scopes` (default `openid`, `profile`, `email`).
   */
  idToken?: IdTokenSettings;
}

/** Where an `enterprise` grant's ID token comes from when no file holds it. */
export interface IdTokenSettings {
  /** A VS Code authentication provider id (e.g. `microsoft`); its session's ID token is used. */
  authenticationProvider?: string;
  /** The scopes asked of that provider (`openid` is always added). */
  scopes?: string[];
}

function parseIdTokenSettings(raw: unknown, where: string): IdTokenSettings {
  if (!isPlainObject(raw)) throw new Error(`${where}: "oauth.idToken" must be an object, e.g. { "authenticationProvider": "microsoft" }`);
  const out: IdTokenSettings = {};
  if (raw.authenticationProvider !== undefined) {
    if (typeof raw.authenticationProvider !== 'string' || !raw.authenticationProvider)
      throw new Error(`${where}: "oauth.idToken.authenticationProvider" must be a non-empty string (a VS Code authentication provider id)`);
    out.authenticationProvider = raw.authenticationProvider;
  }
  if (raw.scopes !== undefined) {
    if (!Array.isArray(raw.scopes) || !raw.scopes.every((x) => typeof x === 'string' && x))
      throw new Error(`${where}: "oauth.idToken.scopes" must be an array of non-empty strings`);
    out.scopes = raw.scopes as string[];
  }
  return out;
}

/**
 * Read an `oauth` member: `false`, an object of {@link OAuthSettings}, or absent.
 * @param where names the server in messages, e.g. `mcp.json: server "remote"`
 * @throws Error naming the member that is wrong
 */
export function parseOAuthSettings(raw: unknown, where: string): OAuthSettings | false | undefined {
  if (raw === undefined || raw === true) return undefined;
  if (raw === false) return false;
  if (!isPlainObject(raw)) throw new Error(`${where}: "oauth" must be false or an object with "clientId" (and optionally "clientSecret")`);
  const out: OAuthSettings = {};
  for (const key of STRING_KEYS) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !v) throw new Error(`${where}: "oauth.${key}" must be a non-empty string`);
    out[key] = v;
  }
  if (raw.grant !== undefined) {
    if (!OAUTH_GRANTS.includes(raw.grant as OAuthGrant))
      throw new Error(`${where}: "oauth.grant" must be one of ${OAUTH_GRANTS.join(', ')}`);
    out.grant = raw.grant as OAuthGrant;
  }
  if (out.clientSecret !== undefined && out.clientId === undefined)
    throw new Error(`${where}: "oauth.clientSecret" needs "oauth.clientId"`);
  if (raw.idToken !== undefined) out.idToken = parseIdTokenSettings(raw.idToken, where);
  checkGrant(out, `${where}: "oauth"`);
  if (raw.callbackPort !== undefined) {
    const p = raw.callbackPort;
    if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p > 65535)
      throw new Error(`${where}: "oauth.callbackPort" must be a port number (0-65535)`);
    out.callbackPort = p;
  }
  if (out.clientMetadataUrl !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(out.clientMetadataUrl);
    } catch {
      u = undefined;
    }
    if (!u || u.protocol !== 'https:' || u.pathname === '/')
      throw new Error(`${where}: "oauth.clientMetadataUrl" must be an https URL with a path`);
  }
  return out;
}

/**
 * Check that `settings` name what their grant needs, and nothing of another grant.
 * @param where names the settings in messages, e.g. `mcp.json: server "remote": "oauth"` or `the command line`
 * @throws Error naming what is missing or out of place, and what to set
 */
export function checkGrant(settings: OAuthSettings, where: string): void {
  const grant = settings.grant ?? 'authorization_code';
  const has = (k: keyof OAuthSettings) => settings[k] !== undefined;
  const need = (k: keyof OAuthSettings, why: string) => {
    if (!has(k)) throw new Error(`${where}: the ${grant} grant needs "${k}" (${why})`);
  };
  const only = (allowed: readonly (keyof OAuthSettings)[]) => {
    for (const k of STRING_KEYS)
      if (has(k) && !allowed.includes(k)) throw new Error(`${where}: "${k}" does not apply to the ${grant} grant`);
  };
  if (grant !== 'enterprise' && has('idToken')) throw new Error(`${where}: "idToken" does not apply to the ${grant} grant`);
  switch (grant) {
    case 'authorization_code':
      return only(['clientId', 'clientSecret', 'clientMetadataUrl']);
    case 'client_credentials':
      need('clientId', 'the client registered with the authorization server');
      if (has('clientSecret') === has('privateKeyFile'))
        throw new Error(`${where}: the client_credentials grant needs either "clientSecret" or "privateKeyFile", not both`);
      return only(['clientId', 'clientSecret', 'privateKeyFile', 'signingAlgorithm']);
    case 'jwt_bearer':
      if (has('assertionFile') === has('assertionEnv'))
        throw new Error(`${where}: the jwt_bearer grant needs either "assertionFile" or "assertionEnv" (where the workload's token is)`);
      return only(['clientId', 'assertionFile', 'assertionEnv']);
    case 'enterprise':
      need('clientId', "the client registered with the MCP server's authorization server");
      need('clientSecret', "its secret at the MCP server's authorization server");
      need('idpIssuer', "the enterprise IdP's issuer URL");
      need('idpClientId', "this host's client id at the IdP");
      if (has('idTokenFile') && has('idToken'))
        throw new Error(`${where}: the enterprise grant takes the ID token from "idTokenFile" or from "idToken", not both`);
      return only(['clientId', 'clientSecret', 'idpIssuer', 'idpClientId', 'idpClientSecret', 'idTokenFile']);
  }
}
