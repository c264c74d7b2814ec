/**
 * How one HTTP server signs in, as `mcp.json` may say it (the shape VS Code and Claude Code accept):
 * `"oauth": { "clientId": "…", "clientSecret": "${input:…}" }` for a client registered beforehand,
 * `"oauth": false` for a server that must never start a sign-in, nothing for the default (client
 * metadata document or dynamic registration, whichever the authorization server offers).
 *
 * Spec: MCP 2026-07-28 "Authorization", client registration (pre-registered → client ID metadata
 * document → dynamic registration).
 */
import { isPlainObject } from '../util/json';

/** The loopback port of the sign-in callback unless a server sets its own (not VS Code's 33418, not the Inspector's 6276). */
export const DEFAULT_CALLBACK_PORT = 33419;

/** The path of the loopback callback. */
export const CALLBACK_PATH = '/callback';

/** What an `oauth` entry may set. All optional. */
export interface OAuthSettings {
  /** A client id registered beforehand with the server's authorization server. */
  clientId?: string;
  /** Its secret, for a confidential client (usually `${input:…}`, kept in secret storage). */
  clientSecret?: string;
  /** An https URL of a client ID metadata document this host may use as its client id. */
  clientMetadataUrl?: string;
  /** The loopback port of the callback (0: any free port, which forces a fresh dynamic registration). */
  callbackPort?: number;
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
  for (const key of ['clientId', 'clientSecret', 'clientMetadataUrl'] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || !v) throw new Error(`${where}: "oauth.${key}" must be a non-empty string`);
    out[key] = v;
  }
  if (out.clientSecret !== undefined && out.clientId === undefined)
    throw new Error(`${where}: "oauth.clientSecret" needs "oauth.clientId"`);
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
