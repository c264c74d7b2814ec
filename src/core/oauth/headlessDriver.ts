/**
 * A browser stand-in for hosts where nobody signs in by hand (the conformance client, tests against
 * authorization servers that approve at once): it requests the authorization URL, follows its
 * redirects the way a browser would (https or loopback only, at most a few), and delivers the last
 * one to the real loopback listener, so the callback goes through the same checks as a person's.
 */
import { HostError } from '../util/errors';
import { isSafeBrowserUrl, type AuthorizationDriver, type AuthorizationRequest } from './driver';

/** At most this many redirects are followed from the authorization endpoint. */
const MAX_REDIRECTS = 5;

/** The headless driver (see the module comment). */
export function headlessDriver(fetchFn: typeof fetch = fetch): AuthorizationDriver {
  return {
    interactive: true,
    async authorize(req: AuthorizationRequest): Promise<URLSearchParams> {
      let url = req.authorizationUrl;
      // A browser keeps the authorization server's cookies between its redirects (its login session).
      const cookies = new Map<string, string>();
      for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
        const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        const res = await fetchFn(url, { redirect: 'manual', signal: req.signal, headers: cookie ? { cookie } : {} });
        await res.body?.cancel().catch(() => {});
        for (const c of res.headers.getSetCookie()) {
          const [pair] = c.split(';');
          const at = pair.indexOf('=');
          if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
        }
        const location = res.headers.get('location');
        if (res.status < 300 || res.status > 399 || !location) {
          throw new HostError(
            'auth',
            `the authorization endpoint ${url.origin} answered HTTP ${res.status} instead of sending the browser back`,
          );
        }
        const next = new URL(location, url);
        if (next.origin === req.redirectUrl.origin && next.pathname === req.redirectUrl.pathname) {
          // As a browser would: request the callback. Its answer (the listener's page) comes after
          // the sign-in has finished, so it is not waited for here.
          void fetchFn(next, { signal: req.signal }).then(
            (r) => r.body?.cancel(),
            () => {},
          );
          return req.callback;
        }
        if (!isSafeBrowserUrl(next))
          throw new HostError(
            'auth',
            `the authorization endpoint redirected to ${next.protocol}//${next.host}, which a browser is not sent to (https or loopback only)`,
          );
        url = next;
      }
      throw new HostError('auth', `the authorization endpoint redirected more than ${MAX_REDIRECTS} times`);
    },
  };
}
