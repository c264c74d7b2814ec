/**
 * What went wrong in a sign-in, in words a person can act on: the SDK's OAuth errors (issuer
 * mismatches, registration refused, token endpoint errors, a resource that is not this server) and
 * network failures → HostError `auth`, naming the authorization server and, where a metadata
 * document was not JSON, which one. Texts that came from a server are made one line and bounded.
 *
 * Spec: MCP 2026-07-28 "Authorization" (issuer checks, resource indicators); RFC 6749 §5.2 (token
 * errors); RFC 7591 §3.2.2 (registration errors).
 */
import {
  AuthorizationServerMismatchError,
  InsecureTokenEndpointError,
  IssuerMismatchError,
  OAuthError,
  RegistrationRejectedError,
} from '@modelcontextprotocol/client';
import { HostError, errorMessage } from '../util/errors';
import { oneLine } from '../util/shownText';

/** What the mapping may name. */
export interface SignInFailureContext {
  /** The server's display name. */
  server: string;
  /** The authorization server, as the person knows it (its host), when known. */
  asName?: string;
  /** Metadata documents that were not JSON (`metadataFetch.ts`). */
  notJson: readonly string[];
}

/** Map any failure of a sign-in to a HostError (HostErrors pass unchanged). */
export function signInError(e: unknown, ctx: SignInFailureContext): HostError {
  if (e instanceof HostError) return e;
  const as = ctx.asName ?? 'the authorization server';
  const prefix = `signing in to ${ctx.server} failed`;
  const notes = ctx.notJson.length ? `; ${ctx.notJson.map((n) => oneLine(n, 300)).join('; ')}` : '';
  if (e instanceof IssuerMismatchError) {
    if (e.kind === 'metadata') {
      return new HostError(
        'auth',
        `${prefix}: the authorization server metadata found for ${oneLine(String(e.expected), 200)} claims to be issued by ${oneLine(String(e.received), 200)}, another origin than where it was found; it was not used (RFC 8414 §3.3)`,
      );
    }
    return new HostError('auth', `${prefix}: the sign-in response did not come from ${as}; its code was not used`);
  }
  if (e instanceof AuthorizationServerMismatchError) {
    return new HostError(
      'auth',
      `${prefix}: the server now names another authorization server (${oneLine(e.currentIssuer, 200)}) than the one this sign-in started with (${oneLine(e.recordedIssuer, 200)}); start the sign-in again`,
    );
  }
  if (e instanceof RegistrationRejectedError) {
    return new HostError(
      'auth',
      `${prefix}: ${as} refused to register MCP Roundtrip as a client (HTTP ${e.status}): ${oneLine(e.body, 300)}`,
    );
  }
  if (e instanceof InsecureTokenEndpointError) {
    return new HostError(
      'auth',
      `${prefix}: ${as} has a token endpoint over plain http (${oneLine(e.tokenEndpoint, 200)}); credentials are only sent over https or to loopback`,
    );
  }
  if (e instanceof OAuthError) {
    // The client's own credentials were refused: say which settings hold them.
    const fix =
      String(e.code) === 'invalid_client'
        ? '; check the client\'s id and its secret or key ("clientId", "clientSecret" or "privateKeyFile"; the CLI: --client-id, --client-secret-env, --private-key-file)'
        : '';
    return new HostError('auth', `${prefix}: ${as} answered ${oneLine(String(e.code), 80)}: ${oneLine(e.message, 300)}${fix}`);
  }
  if (e instanceof SyntaxError || (e instanceof Error && e.name === 'SyntaxError')) {
    return new HostError('auth', `${prefix}: a metadata document is not JSON${notes || `: ${oneLine(errorMessage(e), 200)}`}`);
  }
  const message = errorMessage(e);
  if (/^Protected resource .* does not match expected/.test(message)) {
    return new HostError(
      'auth',
      `${prefix}: the server's protected resource metadata names another resource: ${oneLine(message, 300)}; no sign-in was started`,
    );
  }
  if (e instanceof TypeError) {
    const cause = (e as { cause?: unknown }).cause;
    return new HostError('auth', `${prefix}: ${as} could not be reached: ${oneLine(cause ? errorMessage(cause) : message, 300)}`);
  }
  return new HostError('auth', `${prefix}: ${oneLine(message, 400)}${notes}`);
}
