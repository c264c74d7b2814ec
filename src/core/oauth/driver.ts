/**
 * The part of a sign-in that belongs to the host's UI: asking the person, opening the browser,
 * waiting for the callback or a pasted URL. VS Code (notification, `openExternal`, progress with
 * Cancel and Paste), the CLI (URL printed, browser unless `--no-browser`, a pasted line) and the
 * conformance client (a headless browser stand-in) each implement it.
 */

/** One authorization the person is asked to complete in a browser. */
export interface AuthorizationRequest {
  /** The server's display name. */
  server: string;
  serverUrl: string;
  /** The authorization server's issuer (its host is what the person is told). */
  issuer: string;
  /** The scopes requested (empty when none are). */
  scopes: string[];
  /** On a step-up, the scopes of {@link scopes} not granted before (shown first). */
  newScopes?: string[];
  /** Why: a first sign-in, an expired one, or more scopes for an operation (step-up). */
  reason: 'signIn' | 'stepUp';
  /** The refused operation, e.g. `tools/call write_file`. */
  operation: string;
  /** Where to send the browser (already checked: https, or http on a loopback host; no user name or password). */
  authorizationUrl: URL;
  /**
   * A short loopback URL (beside the redirect URI) that redirects to `authorizationUrl`: for openers
   * that re-encode query strings (VS Code's `openExternal`), the browser still arrives at its exact bytes.
   */
  launchUrl: URL;
  /** Where the browser comes back (the loopback listener, as the browser reaches it). */
  redirectUrl: URL;
  /** The query of the first request to the loopback listener's callback path. */
  callback: Promise<URLSearchParams>;
  /** Aborted when the sign-in is cancelled or times out. */
  signal: AbortSignal;
  /**
   * What the person already agreed to in {@link AuthorizationDriver.approveSignIn} (the host and the
   * scopes then shown), when they were asked before the sign-in left the server's origin. A driver
   * need not ask again when the browser goes to that host for no other scope and draws no warning
   * (`signInPrompt.ts`, `alreadyAgreed`).
   */
  agreed?: { host: string; scopes: string[] };
}

/**
 * The question asked before a sign-in sends its first request to another origin than the MCP
 * server's (protected resource metadata elsewhere, the authorization server's metadata, registration).
 */
export interface SignInStartRequest {
  server: string;
  serverUrl: string;
  /** The other origin the sign-in would reach first (its host is what the person is told). */
  origin: URL;
  /** The scopes known so far (the challenge's, else the protected resource metadata's); may be empty. */
  scopes: string[];
  reason: 'signIn' | 'stepUp';
  operation: string;
  /** Aborted when the sign-in is cancelled or times out. */
  signal: AbortSignal;
}

/** How a host completes browser sign-ins. */
export interface AuthorizationDriver {
  /**
   * Whether someone can complete a sign-in here. When false, a server that needs one fails with
   * HostError `authRequired` and {@link unavailable} says what to do.
   */
  readonly interactive: boolean;
  /** Why no sign-in is possible here and what to do instead (shown when {@link interactive} is false). */
  readonly unavailable?: string;
  /**
   * Ask the person before the sign-in reaches another origin than the MCP server's (nothing is sent
   * there before this resolves). A driver without it has no one to ask (a headless stand-in).
   * @throws HostError `cancelled` when the person says no
   */
  approveSignIn?(request: SignInStartRequest): Promise<void>;
  /** The redirect URI the browser can reach for a local listener URL (VS Code remote: `asExternalUri`). */
  redirectUrlFor?(local: URL): Promise<URL>;
  /**
   * Ask the person, open the browser, wait: resolves to the callback's query parameters (from the
   * loopback listener or a URL the person pasted).
   * @throws HostError `cancelled` when the person says no or cancels; `auth` when the browser cannot be opened
   */
  authorize(request: AuthorizationRequest): Promise<URLSearchParams>;
}

/**
 * Why a browser may not be sent to `url`, or undefined when it may: https, or http on a loopback
 * host, and no user name or password before the host (`https://127.0.0.1:8080@login.example/` goes
 * to login.example while reading like a local address). Anything else (a `javascript:` or `file:`
 * URL, plain http to another host) is refused.
 */
export function browserUrlProblem(url: URL): string | undefined {
  if (url.username || url.password)
    return `${url.protocol}//…@${url.host} has a user name or password before the host, a common way to disguise where a browser goes`;
  if (url.protocol === 'https:') return undefined;
  const h = url.hostname;
  if (url.protocol === 'http:' && (h === '127.0.0.1' || h === 'localhost' || h === '[::1]' || h === '::1')) return undefined;
  return `${url.protocol}//${url.host}: a browser is only sent to https or loopback URLs`;
}

/** Whether a browser may be sent to `url` (see {@link browserUrlProblem}). */
export function isSafeBrowserUrl(url: URL): boolean {
  return browserUrlProblem(url) === undefined;
}
