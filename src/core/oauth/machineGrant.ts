/**
 * Sign-ins without a person, for CI, services and enterprises: the token comes straight from the
 * authorization server's token endpoint, with no browser and no authorization code.
 * - `client_credentials`: the client's secret (`client_secret_basic`, or `client_secret_post` when
 *   that is all the authorization server takes) or a private key signing a client assertion
 *   (`private_key_jwt`), through the SDK's `ClientCredentialsProvider` / `PrivateKeyJwtProvider`.
 * - `jwt_bearer` (workload identity federation): the workload's JWT from a file or an environment
 *   variable, sent as the RFC 7523 assertion; a refusal is reported, never retried with another grant.
 * - `enterprise` (enterprise-managed authorization): the IdP's ID token exchanged at the IdP for an
 *   ID-JAG (RFC 8693), which the SDK's `CrossAppAccessProvider` exchanges for the server's token.
 *
 * Discovery is the SDK's (protected resource metadata, then the authorization server's), checked as
 * the browser sign-in checks it; the token is kept as other tokens are. Nothing secret is logged.
 *
 * Spec: MCP 2026-07-28 "Authorization" (discovery, `resource`); the MCP extensions "OAuth client
 * credentials" (SEP-1046), "workload identity federation" (SEP-1933) and "enterprise-managed
 * authorization" (SEP-990); RFC 7523 (JWT bearer grant and client assertions); RFC 8693.
 */
import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  PrivateKeyJwtProvider,
  discoverOAuthServerInfo,
  requestJwtAuthorizationGrant,
  fetchToken,
  selectResourceURL,
  type DpopSession,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import { readFile, stat } from 'node:fs/promises';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import { oneLine } from '../util/shownText';
import { tokenRecord, type Credentials } from './credentials';
import type { IdTokenSource } from './idTokenSource';
import type { OAuthGrant, OAuthSettings } from './oauthSettings';
import { asksForDpop, assertUsableDiscovery } from './provider';

/** The RFC 7523 grant type of an assertion. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The largest credential file read (a key, a workload token, an ID token), bytes. */
export const MAX_CREDENTIAL_FILE_BYTES = 64 * 1024;

/** The grants that need no person. */
export function isMachineGrant(grant: OAuthGrant | undefined): grant is Exclude<OAuthGrant, 'authorization_code'> {
  return grant !== undefined && grant !== 'authorization_code';
}

/**
 * The trimmed text of a credential file, bounded by {@link MAX_CREDENTIAL_FILE_BYTES}.
 * @param what names the credential in messages (`the workload token file`)
 * @throws HostError `auth` naming the file and what was wrong (never its content)
 */
export async function readCredentialFile(path: string, what: string): Promise<string> {
  let text: string;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new HostError('auth', `${what} ${path} is not a file`);
    if (s.size > MAX_CREDENTIAL_FILE_BYTES)
      throw new HostError(
        'auth',
        `${what} ${path} holds ${s.size} bytes, more than the ${MAX_CREDENTIAL_FILE_BYTES} a credential may have`,
      );
    text = (await readFile(path, 'utf8')).trim();
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new HostError('auth', `${what} ${path} could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!text) throw new HostError('auth', `${what} ${path} is empty`);
  return text;
}

/**
 * The trimmed value of the environment variable `name`.
 * @throws HostError `auth` when it is unset or empty
 */
export function readCredentialEnv(name: string, what: string, env: NodeJS.ProcessEnv = process.env): string {
  const v = env[name]?.trim();
  if (!v) throw new HostError('auth', `${what}: the environment variable ${name} is not set`);
  return v;
}

/**
 * The JWS algorithm of a PEM private key: ES256/ES384/ES512 by curve, RS256 for RSA, EdDSA for Ed25519.
 * @throws HostError `auth` for a key that is not PEM or of another kind (set `signingAlgorithm` then)
 */
export function signingAlgorithmOf(pem: string, path: string): string {
  // Loaded when a key is read, not with the CLI; `require`: the CLI's bundle may run in a vm.Script (compileCache.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createPrivateKey } = require('node:crypto') as typeof import('node:crypto');
  let key;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new HostError('auth', `the private key file ${path} is not a PEM private key`);
  }
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec') {
    const alg = ({ prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' } as Record<string, string>)[curve ?? ''];
    if (alg) return alg;
  }
  throw new HostError(
    'auth',
    `the private key in ${path} is ${key.asymmetricKeyType}${curve ? ` (${curve})` : ''}; set "signingAlgorithm" to the JWS algorithm to sign with`,
  );
}

/**
 * The `jwt_bearer` grant's client (workload identity federation): a public client whose token request
 * carries the workload's JWT as the assertion, read anew for every request (such tokens rotate).
 */
export class WorkloadJwtProvider implements OAuthClientProvider {
  constructor(
    private readonly clientId: string | undefined,
    private readonly issuer: string,
    private readonly assertion: () => Promise<string>,
  ) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'MCP Roundtrip', redirect_uris: [], grant_types: [JWT_BEARER_GRANT], token_endpoint_auth_method: 'none' };
  }

  /** A client id only when configured: the assertion identifies the workload. */
  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.clientId ? { client_id: this.clientId, issuer: this.issuer } : undefined;
  }

  tokens(): undefined {
    return undefined;
  }

  saveTokens(): void {}

  redirectToAuthorization(): never {
    throw new Error('the jwt_bearer grant opens no browser');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): never {
    throw new Error('the jwt_bearer grant has no PKCE verifier');
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: await this.assertion() });
    if (scope) params.set('scope', scope);
    return params;
  }
}

/**
 * The token endpoint of the enterprise IdP `issuer`: from its RFC 8414 metadata, else its OpenID
 * configuration, whichever names the same issuer. Only `token_endpoint` is read (an IdP's OpenID
 * configuration often lacks members a sign-in at it would need; this exchange needs none of them).
 * @throws HostError `auth` when neither document names a token endpoint for that issuer
 */
export async function idpTokenEndpoint(issuer: string, fetchFn: FetchLike): Promise<string> {
  const base = new URL(issuer);
  const path = base.pathname.replace(/\/+$/, '');
  const tried: string[] = [];
  for (const url of [
    new URL(`/.well-known/oauth-authorization-server${path}`, base),
    new URL(`/.well-known/openid-configuration${path}`, base),
    ...(path ? [new URL(`${path}/.well-known/openid-configuration`, base)] : []),
  ]) {
    const res = await fetchFn(url, { headers: { Accept: 'application/json' } });
    tried.push(`GET ${url.href} → ${res.status}`);
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      continue;
    }
    const md: unknown = await res.json().catch(() => undefined);
    if (isPlainObject(md) && md.issuer === issuer && typeof md.token_endpoint === 'string') return md.token_endpoint;
    tried[tried.length - 1] += ' (no token_endpoint for this issuer)';
  }
  throw new HostError('auth', `the IdP ${issuer} names no token endpoint (${tried.join('; ')}); check "idpIssuer"`);
}

/** Where a grant's inputs are: the settings, and how files and the environment are read. */
export interface GrantInputs {
  settings: OAuthSettings;
  /** The authorization server's issuer the credentials may go to (discovery's). */
  issuer: string;
  /** The fetch the IdP's requests go through (bounded, only to allowed targets). */
  fetchFn: FetchLike;
  readFile?: (path: string, what: string) => Promise<string>;
  env?: NodeJS.ProcessEnv;
  /** `enterprise` without `idTokenFile`: the host's sign-in that yields the IdP's ID token. */
  idTokens?: IdTokenSource;
  /** The server's display name (for the ID token sign-in's prompt). */
  server?: string;
}

/**
 * The enterprise IdP's ID token: from `idTokenFile`, else from the host's {@link IdTokenSource}.
 * @throws HostError `auth` when neither is there (naming what to set), or what the source threw
 */
export async function enterpriseIdToken(inputs: GrantInputs): Promise<string> {
  const s = inputs.settings;
  if (s.idTokenFile) return (inputs.readFile ?? readCredentialFile)(s.idTokenFile, "the IdP's ID token file");
  if (inputs.idTokens) return inputs.idTokens.idToken({ server: inputs.server ?? 'the server', settings: s });
  throw new HostError(
    'auth',
    `the enterprise sign-in has no ID token: set "idTokenFile" (the CLI: --id-token-file) to a file holding the IdP's ID token${
      s.idToken?.authenticationProvider ? `; "idToken.authenticationProvider" needs VS Code` : ''
    }`,
  );
}

/**
 * The SDK provider that asks for the token of a grant without a person.
 * @throws HostError `auth` when a credential file or variable cannot be read
 */
export async function machineProvider(grant: Exclude<OAuthGrant, 'authorization_code'>, inputs: GrantInputs): Promise<OAuthClientProvider> {
  const { settings: s, issuer } = inputs;
  const read = inputs.readFile ?? readCredentialFile;
  const clientName = 'MCP Roundtrip';
  switch (grant) {
    case 'client_credentials': {
      if (s.privateKeyFile) {
        const pem = await read(s.privateKeyFile, 'the private key file');
        const algorithm = s.signingAlgorithm ?? signingAlgorithmOf(pem, s.privateKeyFile);
        return new PrivateKeyJwtProvider({ clientId: s.clientId!, privateKey: pem, algorithm, clientName, expectedIssuer: issuer });
      }
      return new ClientCredentialsProvider({ clientId: s.clientId!, clientSecret: s.clientSecret!, clientName, expectedIssuer: issuer });
    }
    case 'jwt_bearer':
      return new WorkloadJwtProvider(s.clientId, issuer, () =>
        s.assertionFile
          ? read(s.assertionFile, 'the workload token file')
          : Promise.resolve(readCredentialEnv(s.assertionEnv!, 'the workload token', inputs.env)),
      );
    case 'enterprise':
      return new CrossAppAccessProvider({
        clientId: s.clientId!,
        clientSecret: s.clientSecret!,
        clientName,
        expectedIssuer: issuer,
        fetchFn: inputs.fetchFn,
        assertion: async (ctx) => {
          const idToken = await enterpriseIdToken(inputs);
          try {
            const grantResult = await requestJwtAuthorizationGrant({
              tokenEndpoint: await idpTokenEndpoint(s.idpIssuer!, ctx.fetchFn),
              audience: ctx.authorizationServerUrl,
              resource: ctx.resourceUrl,
              idToken,
              clientId: s.idpClientId!,
              clientSecret: s.idpClientSecret,
              scope: ctx.scope,
              fetchFn: ctx.fetchFn,
            });
            return grantResult.jwtAuthGrant;
          } catch (e) {
            if (e instanceof HostError) throw e;
            throw new HostError(
              'auth',
              `exchanging the ID token at the IdP ${s.idpIssuer} for an ID-JAG failed: ${oneLine((e as Error).message, 300)}; check "idpIssuer", "idpClientId" (the CLI: --idp-issuer, --idp-client-id) and that the ID token is current`,
            );
          }
        },
      });
  }
}

/** What a sign-in without a person needs. */
export interface MachineSignIn {
  server: string;
  serverUrl: string;
  settings: OAuthSettings;
  credentials: Credentials;
  /** The fetch discovery and token requests go through. */
  fetchFn: FetchLike;
  /** The protected resource metadata requests made, for messages (filled by `fetchFn`). */
  resourceMetadataTried: readonly string[];
  /** The scope to request (the challenge's; else the server's `scopes_supported`; else none). */
  scope?: string;
  /** The challenge's `resource_metadata` URL, if any. */
  resourceMetadataUrl?: URL;
  step(text: string): void;
  readFile?: GrantInputs['readFile'];
  env?: NodeJS.ProcessEnv;
  idTokens?: IdTokenSource;
  /** The server's DPoP proof key, used when the server asks for DPoP and its authorization server can. */
  dpop?: () => Promise<DpopSession>;
  /** The MCP server challenged with the `DPoP` scheme. */
  dpopChallenged?: boolean;
}

/** The words for a grant in the log. */
const GRANT_WORDS: Record<Exclude<OAuthGrant, 'authorization_code'>, string> = {
  client_credentials: 'client credentials',
  jwt_bearer: "the workload's token (JWT bearer)",
  enterprise: "the enterprise IdP's ID-JAG (enterprise-managed authorization)",
};

/**
 * Obtain the server's token with the settings' grant: discover, check, one token request (no retry),
 * keep the token.
 * @returns the discovery used (its issuer for the log)
 * @throws HostError `auth` (what was refused or unreadable, and what to set); the SDK's OAuth errors
 *   (the caller maps them, `authErrors.ts`)
 */
export async function runMachineSignIn(m: MachineSignIn): Promise<OAuthDiscoveryState> {
  const grant = m.settings.grant;
  if (!isMachineGrant(grant)) throw new Error('runMachineSignIn needs a grant without a person');
  const info = await discoverOAuthServerInfo(m.serverUrl, { resourceMetadataUrl: m.resourceMetadataUrl, fetchFn: m.fetchFn });
  const discovery: OAuthDiscoveryState = {
    authorizationServerUrl: String(info.authorizationServerUrl),
    resourceMetadata: info.resourceMetadata,
    authorizationServerMetadata: info.authorizationServerMetadata,
  };
  assertUsableDiscovery(discovery, 'refresh', m.resourceMetadataTried);
  const metadata = info.authorizationServerMetadata;
  const issuer = metadata?.issuer ?? String(info.authorizationServerUrl);
  const provider = await machineProvider(grant, {
    settings: m.settings,
    issuer,
    fetchFn: m.fetchFn,
    readFile: m.readFile,
    env: m.env,
    idTokens: m.idTokens,
    server: m.server,
  });
  // Throws when the metadata's resource is not this server; sent verbatim as the metadata gives it.
  await selectResourceURL(m.serverUrl, provider, info.resourceMetadata);
  const resource = info.resourceMetadata!.resource;
  await provider.saveAuthorizationServerUrl?.(issuer);
  await provider.saveResourceUrl?.(resource);
  if (m.dpop && asksForDpop(discovery, !!m.dpopChallenged)) provider.dpop = m.dpop;
  const scope = m.scope ?? info.resourceMetadata?.scopes_supported?.join(' ') ?? undefined;
  m.step(`asking ${issuer} for a token with ${GRANT_WORDS[grant]}${scope ? `; scopes ${scope}` : ''}`);
  const tokens = await fetchToken(provider, info.authorizationServerUrl, {
    metadata,
    resource,
    scope: scope || undefined,
    fetchFn: m.fetchFn,
  });
  const previous = await m.credentials.tokens(m.serverUrl);
  await m.credentials.saveTokens(m.serverUrl, tokenRecord({ ...tokens, issuer }, issuer, previous, undefined));
  return discovery;
}
