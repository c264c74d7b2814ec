/**
 * What a person must see before agreeing to open a URL a server sent (URL-mode elicitation):
 * the full URL, its host (to highlight), and warnings for the usual tricks. Browser-safe (no Node
 * imports): the round panel's webview uses it too.
 *
 * Spec: MCP 2026-07-28 "Elicitation", URL mode: show the full URL before consent, never prefetch
 * or open without consent, highlight the domain, warn on punycode / suspicious URLs. See docs/field-cases.md, F5.
 */

/** The analysis of one URL. */
export interface UrlAnalysis {
  /** The URL exactly as the server sent it (shown in full, as text). */
  url: string;
  /**
   * The URL as a browser reads it (the WHATWG parser's `href`: a `\\` read as `/`, the host in
   * punycode): what is opened, so that the host shown is the host reached. '' when unparsable.
   */
  href: string;
  /** The host (hostname, with port when not the default), lowercased; '' when unparsable. */
  host: string;
  /** `url` split around the host's first occurrence, for highlighting without re-serialising. */
  parts: { before: string; host: string; after: string };
  /** Human warnings, most severe first. */
  warnings: string[];
  /** Only http(s) URLs that parse may be opened. */
  openable: boolean;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const LOCAL = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Analyse a URL for consent.
 * @param raw the `url` param of a URL-mode elicitation (any string; never fetched here)
 */
export function analyzeUrl(raw: string): UrlAnalysis {
  const warnings: string[] = [];
  let u: URL | undefined;
  try {
    u = new URL(raw);
  } catch {
    /* handled below */
  }
  if (!u) {
    return {
      url: raw,
      href: '',
      host: '',
      parts: { before: raw, host: '', after: '' },
      warnings: ['This is not a valid URL.'],
      openable: false,
    };
  }
  const scheme = u.protocol.replace(/:$/, '');
  const openable = scheme === 'http' || scheme === 'https';
  if (!openable) warnings.push(`The scheme "${scheme}:" is not a web address; only http and https links can be opened.`);
  const hostname = u.hostname.toLowerCase();
  if (u.username || u.password)
    warnings.push('The URL contains a user name or password before the host, a common way to disguise the real destination.');
  if (hostname.split('.').some((label) => label.startsWith('xn--'))) {
    warnings.push(`The host "${hostname}" uses punycode (international characters) and may imitate a familiar domain.`);
  }
  // A raw host with non-ASCII characters was converted to punycode by the parser: say so too.
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(raw.slice(0, raw.indexOf(u.pathname) > 0 ? raw.indexOf(u.pathname) : raw.length))) {
    if (!warnings.some((w) => w.includes('punycode')))
      warnings.push('The address contains international characters that may imitate a familiar domain.');
  }
  if (IPV4.test(hostname) || hostname.startsWith('[')) {
    if (!LOCAL.has(hostname)) warnings.push(`The host is a raw IP address (${hostname}), not a domain name.`);
  }
  if (scheme === 'http' && !LOCAL.has(hostname)) warnings.push('The connection is not encrypted (http, not https).');
  // Invisible and direction-changing characters make a URL read differently from where it goes.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/.test(raw)) {
    warnings.push('The address contains invisible or text-direction characters, so it may not read the way it really goes.');
  }
  const host = u.port ? `${hostname}:${u.port}` : hostname;
  // Browsers read "\\" as "/" in a web address: "https://good.test\\@evil.test/" goes to good.test.
  if (raw.includes('\\')) warnings.push(`The address contains a backslash, which browsers read as "/": it goes to ${host}.`);
  // Highlight the host where it really sits: after "scheme://" and any userinfo "@".
  // (The slashes after the scheme may be backslashes too, as browsers read them.)
  const authorityStart = /^\s*[a-z][a-z0-9+.-]*:[/\\]*/i.exec(raw)?.[0].length ?? 0;
  const at = raw.indexOf('@', authorityStart);
  const slash = raw.slice(authorityStart).search(/[/\\?#]/);
  const authorityEnd = slash < 0 ? raw.length : authorityStart + slash;
  const hostStart = at >= 0 && at < authorityEnd ? at + 1 : authorityStart;
  const parts = { before: raw.slice(0, hostStart), host: raw.slice(hostStart, authorityEnd), after: raw.slice(authorityEnd) };
  return { url: raw, href: u.href, host, parts, warnings, openable };
}
