/**
 * The `fetch` that sign-ins use for the authorization side (metadata discovery, registration, token
 * requests): each request bounded in time and by the sign-in's signal, each body bounded in size
 * before it is buffered, each discovery request named in the round-trip log (URL and status, never a
 * body), and a metadata document that is not JSON remembered so the error can say which one it was.
 */
import { HostError } from '../util/errors';
import { authTargetProblem, resolvedTargetProblem, systemLookup, type LookupHost } from './authTargets';

/** The largest body read from an authorization-side response (bytes). */
export const MAX_AUTH_BODY = 1024 * 1024;
/** Most redirects one authorization-side request follows (each target checked as a request of its own). */
export const MAX_AUTH_REDIRECTS = 5;
/** Time limit of one authorization-side request (ms). */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** A fetch with what it noticed. */
export interface MetadataFetch {
  fetch: typeof fetch;
  /** Documents that should have been JSON and were not (URL, status, content type). */
  readonly notJson: string[];
  /** The protected resource metadata requests made (`GET <url> → <status>`, or `… → no answer`). */
  readonly resourceMetadata: string[];
  /** The `scopes_supported` of the protected resource metadata read, if it named any. */
  resourceScopes?: string[];
  /**
   * Awaited before each request (and each redirect's target) is sent, once it passed the target checks:
   * the sign-in sets it to ask the person before another origin than the server's is reached. Its
   * rejection is the request's.
   */
  gate?: (url: URL) => Promise<void>;
}

async function boundedBody(res: Response, url: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_AUTH_BODY) {
    await res.body?.cancel().catch(() => {});
    throw new HostError('auth', `${url} answered a ${declared}-byte body, more than the ${MAX_AUTH_BODY} bytes the host reads`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (!reader) return new Uint8Array();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_AUTH_BODY) {
      await reader.cancel().catch(() => {});
      throw new HostError('auth', `${url} answered more than the ${MAX_AUTH_BODY} bytes the host reads`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function isDiscovery(url: URL, method: string): boolean {
  return method === 'GET' && url.pathname.includes('/.well-known/');
}

/**
 * A bounded fetch for one sign-in.
 * @param onDiscovery called with `GET <url> → <status>` for each discovery request
 * @param signal the sign-in's signal (cancel, time limit)
 * @param serverUrl the MCP server's URL: each request, and each redirect's target, is checked against
 *   it first (`authTargets.ts`: the URL, then what its host name resolves to)
 * @param lookupHost the resolver of those checks (tests give their own)
 */
export function metadataFetch(
  onDiscovery: (line: string) => void,
  signal?: AbortSignal,
  base: typeof fetch = fetch,
  serverUrl?: string,
  lookupHost: LookupHost = systemLookup,
): MetadataFetch {
  const notJson: string[] = [];
  const resourceMetadata: string[] = [];
  const out: MetadataFetch = { fetch: fetch, notJson, resourceMetadata };
  const bounded = async (input: string | URL | Request, init?: RequestInit, hops = 0): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const refused =
      serverUrl === undefined
        ? undefined
        : (authTargetProblem(url, serverUrl) ?? (await resolvedTargetProblem(url, serverUrl, lookupHost)));
    if (refused) {
      if (url.pathname.includes('/oauth-protected-resource'))
        resourceMetadata.push(`${url.origin}${url.pathname} not requested: ${refused}`);
      throw new HostError('auth', `the sign-in does not request ${url.origin}${url.pathname}: ${refused}`);
    }
    if (out.gate) await out.gate(url);
    const signals = [AbortSignal.timeout(AUTH_REQUEST_TIMEOUT_MS), ...(signal ? [signal] : []), ...(init?.signal ? [init.signal] : [])];
    let res: Response;
    try {
      // Redirects are followed here, so that each target is checked as a request of its own.
      res = await base(input, { ...init, signal: AbortSignal.any(signals), ...(serverUrl === undefined ? {} : { redirect: 'manual' }) });
    } catch (e) {
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new HostError('cancelled', 'the sign-in was cancelled');
      if ((e as Error).name === 'TimeoutError')
        throw new HostError('auth', `${url.origin}${url.pathname} did not answer within ${AUTH_REQUEST_TIMEOUT_MS / 1000} s`);
      throw e;
    }
    const location = serverUrl !== undefined && res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location !== null) {
      await res.body?.cancel().catch(() => {});
      if (hops >= MAX_AUTH_REDIRECTS)
        throw new HostError('auth', `${url.origin}${url.pathname} redirected more than ${MAX_AUTH_REDIRECTS} times`);
      const next = new URL(location, url);
      // 307 and 308 repeat the request as it was; the others become a GET without a body (as fetch does).
      const same = res.status === 307 || res.status === 308;
      const nextInit: RequestInit = same ? { ...init } : { ...init, method: 'GET', body: undefined };
      return bounded(same && input instanceof Request ? new Request(next, input) : next, nextInit, hops + 1);
    }
    const where = `${url.origin}${url.pathname}`;
    if (isDiscovery(url, method)) onDiscovery(`GET ${where} → ${res.status}`);
    if (isDiscovery(url, method) && url.pathname.includes('/oauth-protected-resource'))
      resourceMetadata.push(`GET ${where} → ${res.status}`);
    const noBody = res.status === 204 || res.status === 304 || (res.status >= 300 && res.status < 400);
    const body = noBody ? null : await boundedBody(res, where);
    if (body && res.ok && isDiscovery(url, method)) {
      try {
        const doc = JSON.parse(new TextDecoder().decode(body)) as { scopes_supported?: unknown } | null;
        const scopes = url.pathname.includes('/oauth-protected-resource') ? doc?.scopes_supported : undefined;
        if (Array.isArray(scopes)) out.resourceScopes = scopes.filter((x): x is string => typeof x === 'string');
      } catch {
        const what = `${where} answered ${res.status} ${res.headers.get('content-type') ?? 'without a content type'} that is not JSON`;
        notJson.push(what);
        if (url.pathname.includes('/oauth-protected-resource')) resourceMetadata.push(what);
      }
    }
    const copy = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(copy, 'url', { value: res.url });
    return copy;
  };
  out.fetch = bounded;
  return out;
}
