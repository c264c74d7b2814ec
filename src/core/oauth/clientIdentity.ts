/**
 * The client identity of a sign-in: the metadata the host registers with (dynamic registration),
 * and which identity a sign-in uses (a pre-registered client of the settings, else a stored
 * registration that fits the sign-in's redirect URI), and how a new one came to be.
 *
 * Spec: MCP 2026-07-28 "Authorization", client registration (pre-registered, client ID metadata
 * document, dynamic registration, in that order); RFC 7591 client metadata; RFC 8252 native apps.
 */
import type { OAuthClientMetadata, StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import type { Credentials, RegistrationKind } from './credentials';
import type { OAuthSettings } from './oauthSettings';

/** Loopback hosts a browser may be sent to over plain http (RFC 8252 §7.3). */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || hostname.endsWith('.localhost')
  );
}

/**
 * The metadata of a registration through `redirectUrl`: a public client (no secret) of the
 * authorization code and refresh grants, `native` for a loopback redirect. No `scope`: the scope
 * comes from the challenge or the server's metadata, or is omitted.
 */
export function clientMetadataFor(clientName: string, redirectUrl: string): OAuthClientMetadata {
  const loopback = isLoopbackHost(new URL(redirectUrl).hostname);
  return {
    client_name: clientName,
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: loopback ? 'native' : 'web',
  };
}

/** The identity a sign-in uses, and where it comes from. */
export interface FoundClient {
  info: StoredOAuthClientInformation;
  registration: 'pre-registered' | 'stored';
}

/**
 * The client identity for `issuer`: the settings' pre-registered client, else the registration
 * stored for the issuer, if it fits.
 * @param redirectUrl the sign-in's redirect URI (a dynamic registration is for its redirect URIs: a
 *   sign-in through another one registers again); `undefined` when any stored one fits (a refresh)
 * @returns `undefined` when there is none that fits
 */
export async function findClient(
  credentials: Credentials,
  settings: OAuthSettings,
  issuer: string | undefined,
  redirectUrl: string | undefined,
): Promise<FoundClient | undefined> {
  const { clientId, clientSecret } = settings;
  if (clientId)
    return {
      info: { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}), ...(issuer ? { issuer } : {}) },
      registration: 'pre-registered',
    };
  const record = issuer ? await credentials.client(issuer) : undefined;
  const registered = record?.kind === 'dynamic registration' ? (record.info as { redirect_uris?: unknown }).redirect_uris : undefined;
  const fits = !record || redirectUrl === undefined || !Array.isArray(registered) || registered.includes(redirectUrl);
  return record && fits ? { info: record.info, registration: 'stored' } : undefined;
}

/** How a client identity the SDK saves came to be: its id is the metadata document's URL, or it was registered. */
export function registrationKind(info: StoredOAuthClientInformation, clientMetadataUrl: string | undefined): RegistrationKind {
  return info.client_id === clientMetadataUrl ? 'metadata document' : 'dynamic registration';
}
