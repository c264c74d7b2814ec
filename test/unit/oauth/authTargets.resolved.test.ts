/**
 * A public server's sign-in never reaches into the person's network through a name or a redirect:
 * a host name that resolves to a loopback, private or link-local address is refused, and each
 * redirect's target is checked as a request of its own (src/core/oauth/authTargets.ts, metadataFetch.ts).
 */
import assert from 'node:assert/strict';
import { resolvedTargetProblem } from '../../../src/core/oauth/authTargets';
import { metadataFetch } from '../../../src/core/oauth/metadataFetch';
import { HostError } from '../../../src/core/util/errors';

const SERVER = 'https://mcp.example.com/mcp';
const DNS: Record<string, string[]> = {
  'auth.example.com': ['93.184.216.34'],
  'intranet.example.com': ['10.0.0.5'],
  'metadata.example.com': ['::ffff:169.254.169.254'],
};
const lookup = (host: string) => (DNS[host] ? Promise.resolve(DNS[host]) : Promise.reject(new Error('ENOTFOUND')));

describe('sign-in targets: names and redirects', () => {
  it('a name resolving to a private address is refused for a public server; a public one, or a private server, is not', async () => {
    assert.match(
      (await resolvedTargetProblem(new URL('https://intranet.example.com/token'), SERVER, lookup)) ?? '',
      /https:\/\/intranet\.example\.com resolves to 10\.0\.0\.5, a loopback or private address, named for a server on a public one \(mcp\.example\.com\)/,
    );
    assert.match(
      (await resolvedTargetProblem(new URL('https://metadata.example.com/'), SERVER, lookup)) ?? '',
      /resolves to ::ffff:169\.254\.169\.254/,
    );
    assert.equal(await resolvedTargetProblem(new URL('https://auth.example.com/token'), SERVER, lookup), undefined);
    assert.equal(
      await resolvedTargetProblem(new URL('https://intranet.example.com/token'), 'http://127.0.0.1:3000/mcp', lookup),
      undefined,
    );
  });

  it('a redirect to a private address is not followed; one to a public host is, and the request reaches it', async () => {
    const requested: string[] = [];
    const base = ((input: string | URL | Request) => {
      const url = String(input instanceof Request ? input.url : input);
      requested.push(url);
      if (url.includes('/evil'))
        return Promise.resolve(new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest' } }));
      if (url.includes('/moved'))
        return Promise.resolve(new Response(null, { status: 301, headers: { location: '/.well-known/oauth-authorization-server' } }));
      return Promise.resolve(
        new Response('{"issuer":"https://auth.example.com"}', { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    }) as typeof fetch;
    const m = metadataFetch(() => {}, undefined, base, SERVER, lookup);
    await assert.rejects(
      m.fetch('https://auth.example.com/evil'),
      (e: unknown) => e instanceof HostError && e.kind === 'auth' && /does not request http:\/\/169\.254\.169\.254\/latest/.test(e.message),
    );
    assert.deepEqual(requested, ['https://auth.example.com/evil'], 'the private target was never requested');
    const ok = await m.fetch('https://auth.example.com/moved');
    assert.equal(ok.status, 200);
    assert.deepEqual(requested.slice(1), [
      'https://auth.example.com/moved',
      'https://auth.example.com/.well-known/oauth-authorization-server',
    ]);
  });
});
