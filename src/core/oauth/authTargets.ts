/**
 * Where a sign-in may send requests (protected resource metadata, authorization server metadata,
 * registration, tokens): https, or plain http to a loopback address only; and a server on a public
 * address may not name a loopback, private or link-local one (its metadata would otherwise make the
 * host reach into the person's network before anyone is asked). A name is checked by what it resolves
 * to ({@link resolvedTargetProblem}), and each redirect's target as a request of its own (`metadataFetch.ts`).
 *
 * Spec: MCP 2026-07-28 "Authorization", security considerations (all authorization server endpoints
 * over https; SSRF from metadata URLs).
 */
import { lookup } from 'node:dns/promises';
import { isLoopbackHost } from './clientIdentity';

function v4Private(a: number[]): boolean {
  const [x, y] = a;
  return (
    x === 0 ||
    x === 10 ||
    x === 127 ||
    (x === 100 && y >= 64 && y <= 127) ||
    (x === 169 && y === 254) ||
    (x === 172 && y >= 16 && y <= 31) ||
    (x === 192 && y === 168)
  );
}

/** Whether `hostname` (as `URL.hostname` gives it) is localhost or a loopback, private or link-local address. */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (isLoopbackHost(h)) return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
  if (v4) return v4Private(v4.slice(1).map(Number));
  if (!h.startsWith('[')) return false;
  const v6 = h.slice(1, -1);
  // IPv4-mapped (the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
    return v4Private([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  return v6 === '::' || v6 === '::1' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6);
}

/**
 * Why a sign-in for the server at `serverUrl` may not request `url`, or undefined when it may.
 * @param serverUrl the MCP server's URL (a loopback or private server may name loopback or private endpoints)
 */
export function authTargetProblem(url: URL, serverUrl: string): string | undefined {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    return `${url.origin} is not https (only a loopback address is reached over plain http)`;
  let server: URL | undefined;
  try {
    server = new URL(serverUrl);
  } catch {
    server = undefined;
  }
  if (server && !isPrivateHost(server.hostname) && isPrivateHost(url.hostname))
    return `${url.origin} is a loopback or private address, named for a server on a public one (${server.host})`;
  return undefined;
}

/** Resolves a host name to its addresses (as `dns.lookup` gives them). */
export type LookupHost = (hostname: string) => Promise<string[]>;

/** The system resolver's addresses of `hostname`, all families. */
export const systemLookup: LookupHost = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

/**
 * Why `url`'s host may not be reached for the server at `serverUrl` once resolved: a public server's
 * sign-in naming a host whose name resolves to a loopback, private or link-local address. Address
 * literals, and servers on such addresses themselves, are {@link authTargetProblem}'s.
 * @returns the reason, or undefined (a name that does not resolve is left to the request to fail)
 */
export async function resolvedTargetProblem(
  url: URL,
  serverUrl: string,
  lookupHost: LookupHost = systemLookup,
): Promise<string | undefined> {
  let server: URL;
  try {
    server = new URL(serverUrl);
  } catch {
    return undefined;
  }
  const host = url.hostname;
  if (isPrivateHost(server.hostname) || isPrivateHost(host) || /^[\d.]+$/.test(host) || host.startsWith('[')) return undefined;
  let addresses: string[];
  try {
    addresses = await lookupHost(host);
  } catch {
    return undefined;
  }
  const inside = addresses.find((a) => isPrivateHost(a.includes(':') ? new URL(`http://[${a}]`).hostname : a));
  return inside === undefined
    ? undefined
    : `${url.origin} resolves to ${inside}, a loopback or private address, named for a server on a public one (${server.host})`;
}
