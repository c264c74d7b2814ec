/**
 * The Content-Security-Policy an app's document runs under, built only from the domains the app
 * declared (`_meta.ui.csp`), each entry sanitised: nothing undeclared is reachable, and an entry that
 * could smuggle a directive (a `;`, a quote, a space, a keyword such as `'unsafe-eval'`) is dropped.
 *
 * Spec: MCP Apps extension (2026-01-26), "Content Security Policy": the default when nothing is
 * declared, and which declared list widens which directive; hosts "MUST NOT allow undeclared domains".
 */
import type { AppCspDomains } from './appResource';

/** The CSP of an app and the declared entries left out of it (to be logged). */
export interface AppCsp {
  /** The policy, one line, ready for a `Content-Security-Policy` header. */
  policy: string;
  /** Declared entries that were not sources the host accepts, as sent. */
  dropped: string[];
}

/**
 * A source the host accepts: an optional `http`/`https`/`ws`/`wss` scheme, a host name (optionally
 * `*.` for its subdomains) and an optional port. No path, no keyword, no wildcard alone.
 */
const SOURCE = /^(?:(?:https?|wss?):\/\/)?(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*(?::\d{1,5})?$/i;

/** The accepted entries of `list`, and the dropped ones pushed onto `dropped`. */
function sources(list: readonly string[] | undefined, dropped: string[]): string[] {
  const out: string[] = [];
  for (const entry of list ?? []) {
    const e = entry.trim();
    if (SOURCE.test(e) && e.length <= 253) out.push(e.toLowerCase());
    else dropped.push(entry);
  }
  return [...new Set(out)];
}

/**
 * The app's CSP: with nothing declared, the spec's default (`default-src 'none'`, inline scripts and
 * styles of the document itself, `data:` images and media, no network, no frames); each declared list
 * widens only its directives (`resourceDomains`: scripts, styles, images, fonts, media;
 * `connectDomains`: fetch, XHR, WebSocket; `frameDomains`: frames; `baseUriDomains`: `<base>`). Forms
 * post nowhere (`form-action 'none'`): the host restricts further where the spec allows it.
 */
export function appCsp(declared: AppCspDomains): AppCsp {
  const dropped: string[] = [];
  const res = sources(declared.resourceDomains, dropped);
  const connect = sources(declared.connectDomains, dropped);
  const frame = sources(declared.frameDomains, dropped);
  const base = sources(declared.baseUriDomains, dropped);
  const join = (...parts: string[]) => parts.filter(Boolean).join(' ');
  const directives = [
    `default-src 'none'`,
    `script-src ${join("'self'", "'unsafe-inline'", ...res)}`,
    `style-src ${join("'self'", "'unsafe-inline'", ...res)}`,
    `img-src ${join("'self'", 'data:', ...res)}`,
    `font-src ${join("'self'", 'data:', ...res)}`,
    `media-src ${join("'self'", 'data:', ...res)}`,
    `connect-src ${connect.length ? connect.join(' ') : "'none'"}`,
    `frame-src ${frame.length ? frame.join(' ') : "'none'"}`,
    `base-uri ${base.length ? base.join(' ') : "'self'"}`,
    `object-src 'none'`,
    `form-action 'none'`,
  ];
  return { policy: directives.join('; '), dropped };
}

/**
 * The iframe `allow` attribute for the permissions the person granted (`clipboardWrite` is the
 * feature `clipboard-write`); empty when none. Spec: "Permissions" (hosts MAY honour them).
 */
export function allowAttribute(granted: readonly string[]): string {
  const FEATURES: Record<string, string> = {
    camera: 'camera',
    microphone: 'microphone',
    geolocation: 'geolocation',
    clipboardWrite: 'clipboard-write',
  };
  return granted
    .map((p) => FEATURES[p])
    .filter(Boolean)
    .join('; ');
}
