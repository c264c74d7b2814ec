/**
 * Reading what the browser brought back: a URL the person pasted ("the URL your browser ended on"),
 * and the checks every callback goes through before its code is used: `state` first, then the
 * issuer (RFC 9207), and only then an `error` the authorization server sent.
 *
 * Spec: MCP 2026-07-28 "Authorization" (state, `iss` validation, never act on an error from a
 * mismatched issuer); RFC 6749 §4.1.2.1 (error responses).
 */
import { validateAuthorizationResponseIssuer, type AuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { HostError } from '../util/errors';
import { oneLine } from '../util/shownText';

/** The longest pasted text read (a callback URL is far shorter). */
export const MAX_PASTED = 8192;

/**
 * The query of a pasted callback: a full URL (wherever the browser ended: loopback, a forwarded
 * port, a proxy) or just its query string.
 * @throws HostError `auth` naming what is missing
 */
export function parsePastedCallback(text: string): URLSearchParams {
  const t = text.trim();
  if (!t) throw new HostError('auth', 'nothing was pasted');
  if (t.length > MAX_PASTED)
    throw new HostError('auth', `the pasted text is longer than ${MAX_PASTED} characters; paste the URL from the browser's address bar`);
  let params: URLSearchParams;
  try {
    params = new URL(t).searchParams;
  } catch {
    params = new URLSearchParams(t.startsWith('?') ? t.slice(1) : t);
  }
  if (!params.has('code') && !params.has('error'))
    throw new HostError(
      'auth',
      'the pasted URL has neither a "code" nor an "error" parameter; paste the whole address the browser ended on',
    );
  return params;
}

/** The authorization code of a callback that passed every check. */
export interface CheckedCallback {
  code: string;
  iss?: string;
}

/**
 * Check a callback: `state` must be exactly the one sent; the issuer as RFC 9207 says; then an
 * `error` is reported (its description shown as text); then a `code` must be there.
 * @throws HostError `auth`: state mismatch, issuer mismatch (the callback's own texts are not shown),
 *   the authorization server's error, or no code
 */
export function checkCallback(
  params: URLSearchParams,
  expectedState: string | undefined,
  metadata: AuthorizationServerMetadata | undefined,
  asName: string,
): CheckedCallback {
  const state = params.get('state');
  if (!expectedState || state !== expectedState) {
    throw new HostError(
      'auth',
      `the sign-in response does not belong to this sign-in (its "state" ${state === null ? 'is missing' : 'does not match'}); nothing was sent to ${asName}. Start the sign-in again`,
    );
  }
  const iss = params.get('iss') ?? undefined;
  try {
    validateAuthorizationResponseIssuer({
      iss,
      expectedIssuer: metadata?.issuer,
      issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
    });
  } catch {
    // The callback may come from another authorization server: none of its texts is shown.
    const why =
      iss === undefined
        ? 'it does not say which authorization server sent it, though that server promised to'
        : 'it names another authorization server';
    throw new HostError(
      'auth',
      `the sign-in response did not come from the expected authorization server ${asName} (${why}); its code was not used`,
    );
  }
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    const denied = error === 'access_denied' ? ' (access was denied)' : '';
    throw new HostError(
      'auth',
      `${asName} refused the sign-in: ${oneLine(error, 100)}${denied}${description ? ` — ${oneLine(description, 300)}` : ''}`,
    );
  }
  const code = params.get('code');
  if (!code) throw new HostError('auth', `the sign-in response from ${asName} carries no authorization code`);
  return { code, iss };
}
