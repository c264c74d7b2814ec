/**
 * What a server said when it refused a request for want of authorization: a `401` (no token, or one
 * it no longer takes) or a `403` with `error="insufficient_scope"` (step-up), and the
 * `WWW-Authenticate` parameters that come with it. The HTTP layer turns it into a
 * {@link SignInNeeded} error; whoever made the request signs in and sends it again.
 *
 * Spec: MCP 2026-07-28 "Authorization": protected resource metadata from `WWW-Authenticate`
 * (RFC 9728 §5.1), scope challenge handling, step-up on `insufficient_scope` (RFC 6750 §3.1).
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import { oneLine } from '../util/shownText';

/** One refusal by the server. */
export interface AuthChallenge {
  status: 401 | 403;
  /** The challenged scope (space-separated), if the server named one. */
  scope?: string;
  /** The `resource_metadata` URL, if the server named one. */
  resourceMetadataUrl?: URL;
  /** The challenge's `error` (e.g. `invalid_token`, `insufficient_scope`). */
  error?: string;
  /** Whether the refused request carried a token. */
  hadToken: boolean;
  /** The server challenged with the `DPoP` scheme: it wants sender-constrained tokens (RFC 9449 §7.1). */
  dpop?: boolean;
  /** The refused operation, e.g. `tools/call write_file` (re-authorizations are bounded per operation). */
  operation: string;
}

/**
 * A request the server refused until the person signs in (or signs in with more scopes).
 * `signIn` runs that sign-in; the request may then be sent again, unchanged.
 */
export class SignInNeeded extends HostError {
  constructor(
    readonly challenge: AuthChallenge,
    readonly signIn: (signal?: AbortSignal) => Promise<void>,
    message: string,
  ) {
    super('authRequired', message);
    this.name = 'SignInNeeded';
  }
}

/**
 * The sign-in error in `e` or its `cause` chain (the SDK wraps what a transport throws at connect):
 * a {@link SignInNeeded}, or a HostError `auth` / `authRequired` (a sign-in that failed or cannot be done).
 */
export function findSignInError(e: unknown): HostError | undefined {
  for (let i = 0, x = e; i < 8 && x; i++) {
    if (x instanceof HostError && (x.kind === 'auth' || x.kind === 'authRequired')) return x;
    x = (x as { cause?: unknown }).cause ?? (x as { data?: { cause?: unknown } }).data?.cause;
  }
  return undefined;
}

/** The {@link SignInNeeded} in `e` or its `cause` chain, if any. */
export function findSignInNeeded(e: unknown): SignInNeeded | undefined {
  const found = findSignInError(e);
  return found instanceof SignInNeeded ? found : undefined;
}

/** The JSON-RPC request a POST body carries, as `method name` (`tools/call write_file`), or `request`. */
export function operationOf(body: unknown): string {
  if (typeof body !== 'string' || body.length > 1_000_000) return 'request';
  try {
    const msg = JSON.parse(body) as unknown;
    if (!isPlainObject(msg) || typeof msg.method !== 'string') return 'request';
    const p = isPlainObject(msg.params) ? msg.params : {};
    const target = typeof p.name === 'string' ? p.name : typeof p.uri === 'string' ? p.uri : '';
    return oneLine(`${msg.method} ${target}`.trim(), 200);
  } catch {
    return 'request';
  }
}

/**
 * The challenge of a response, or undefined when it is not one: a 401, or a 403 whose
 * `WWW-Authenticate` says `insufficient_scope` (any other 403 is an ordinary refusal).
 * @param operation names the refused request; asked only for a challenge (naming one reads its body)
 */
export function challengeOf(response: Response, operation: () => string, hadToken: boolean): AuthChallenge | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const p = extractWWWAuthenticateParams(response);
  if (response.status === 403 && p.error !== 'insufficient_scope') return undefined;
  return {
    status: response.status,
    scope: p.scope ? oneLine(p.scope, 2000) : undefined,
    resourceMetadataUrl: p.resourceMetadataUrl,
    error: p.error ? oneLine(p.error, 100) : undefined,
    hadToken,
    ...(/(^|,)\s*dpop(\s|,|$)/i.test(response.headers.get('www-authenticate') ?? '') ? { dpop: true } : {}),
    operation: operation(),
  };
}

/** The challenge in words, for messages: `401 (invalid_token)` or `403 insufficient_scope, needs "files:write"`. */
export function describeChallenge(c: AuthChallenge): string {
  const scope = c.scope ? `, needs "${c.scope}"` : '';
  return c.status === 403 ? `403 insufficient_scope${scope}` : `401${c.error ? ` (${c.error})` : ''}${scope}`;
}
