/**
 * What a person is told before a sign-in: the host the browser goes to (the authorization URL's,
 * where the password is typed) and the authorization server's when that differs, every scope asked
 * for (on a step-up the new ones first), and the warnings URL consent gives for the same URL. VS Code
 * shows it as a notification (a modal when it is too long for one), the CLI prints it whole.
 *
 * Spec: MCP 2026-07-28 "Authorization" (the person consents at the authorization server); the
 * URL-mode elicitation rules of showing the host and warning on suspicious URLs, applied here too.
 */
import { analyzeUrl } from '../elicitation/urlConsent';
import { oneLine } from '../util/shownText';
import type { AuthorizationRequest } from './driver';
import { hostOf } from './signInFlow';

/** What the prompt is built from. */
export type SignInPromptRequest = Pick<
  AuthorizationRequest,
  'server' | 'issuer' | 'scopes' | 'newScopes' | 'reason' | 'operation' | 'authorizationUrl'
>;

/** The sign-in prompt in parts (server text made one-line; scopes never cut). */
export interface SignInPrompt {
  /** The host the browser goes to: the authorization URL's (with its port when not the default). */
  host: string;
  /** Who asks, why, and where you sign in (and that it is not the authorization server's host, when so). */
  headline: string;
  /** Every scope: `scopes: a b`, or on a step-up `new scopes: c; granted before: a b`; '' for none. */
  scopes: string;
  /** URL consent's warnings about the authorization URL, most severe first. */
  warnings: string[];
  /** All of it as one line: headline, scopes, warnings. */
  text: string;
}

/** Scope names as shown: one line each, never cut (the URL bounds them). */
function names(scopes: string[]): string {
  return scopes.map((s) => oneLine(s, Number.MAX_SAFE_INTEGER)).join(' ');
}

/**
 * Whether the person already agreed to this authorization before the sign-in left the server's origin
 * (`req.agreed`): the browser goes to the host then named, for no scope not then shown, and the URL
 * draws no warning. Otherwise the driver asks (again).
 */
export function alreadyAgreed(req: SignInPromptRequest & Pick<AuthorizationRequest, 'agreed'>): boolean {
  if (!req.agreed) return false;
  const p = signInPrompt(req);
  const shown = new Set(req.agreed.scopes);
  return p.host === req.agreed.host && !p.warnings.length && req.scopes.every((s) => shown.has(s));
}

/** The prompt for `req` (see the module comment). */
export function signInPrompt(req: SignInPromptRequest): SignInPrompt {
  const analysis = analyzeUrl(req.authorizationUrl.href);
  const host = analysis.host || req.authorizationUrl.host;
  const asHost = hostOf(req.issuer);
  const why = req.reason === 'stepUp' ? `needs more permission for ${oneLine(req.operation, 120)}` : 'asks you to sign in';
  const elsewhere = asHost.toLowerCase() === host ? '' : ` (not at ${oneLine(asHost, 200)}, the authorization server's host)`;
  const headline = `MCP server "${oneLine(req.server, 100)}" ${why} at ${oneLine(host, 200)}${elsewhere}`;
  const fresh = req.reason === 'stepUp' ? (req.newScopes ?? []).filter((s) => req.scopes.includes(s)) : [];
  const before = req.scopes.filter((s) => !fresh.includes(s));
  const scopes = fresh.length
    ? `new scopes: ${names(fresh)}${before.length ? `; granted before: ${names(before)}` : ''}`
    : req.scopes.length
      ? `scopes: ${names(req.scopes)}`
      : '';
  const warnings = analysis.warnings;
  const text = `${headline}${scopes ? ` (${scopes})` : ''}.${warnings.length ? ` Warning: ${warnings.join(' ')}` : ''}`;
  return { host, headline, scopes, warnings, text };
}
