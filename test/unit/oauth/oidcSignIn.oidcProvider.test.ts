/**
 * Our own OIDC sign-in to an enterprise IdP (src/core/oauth/oidcSignIn.ts) against a real one on
 * loopback (oidc-provider: discovery, PKCE S256, a client registered for loopback redirects), the
 * browser step done by the headless stand-in: the person is asked before any request to the IdP's
 * origin, the ID token is the IdP's for this client, kept (never in a log line), refreshed when it
 * expires without the browser, and without anyone to sign in the error says what to set instead.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AuthorizationDriver, SignInStartRequest } from '../../../src/core/oauth/driver';
import { headlessDriver } from '../../../src/core/oauth/headlessDriver';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { ID_TOKEN_KEY_PREFIX, jwtExpiry, oidcIdTokens } from '../../../src/core/oauth/oidcSignIn';
import type { OAuthSettings } from '../../../src/core/oauth/oauthSettings';
import { HostError, isHostError } from '../../../src/core/util/errors';
import { ensureBuilt } from '../../support/build';
import { startOAuthFixture, type OAuthFixture } from '../../support/oauthFixture';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function claims(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Register this host's client at the IdP (as an administrator would): public, loopback redirect on `port`. */
async function registerClient(fx: OAuthFixture, port: number): Promise<string> {
  const res = await fetch(`${fx.issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { client_id: string }).client_id;
}

describe('our own OIDC sign-in to an enterprise IdP (oidc-provider)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());
  let fx: OAuthFixture;
  before(async () => (fx = await startOAuthFixture()));
  after(() => fx?.stop());

  it('asks first, signs in with PKCE, keeps the ID token (in no log line), and refreshes it when expired without the browser', async () => {
    const port = await freePort();
    const clientId = await registerClient(fx, port);
    const store = new MemoryOAuthStore();
    const idpRequests: string[] = [];
    const fetchFn: typeof fetch = (input, init) => (
      idpRequests.push(String(input instanceof Request ? input.url : input)),
      fetch(input, init)
    );
    const asked: { request: SignInStartRequest; idpRequestsBefore: number }[] = [];
    const inner = headlessDriver(fetchFn);
    let browsers = 0;
    const driver: AuthorizationDriver = {
      interactive: true,
      approveSignIn: async (request) => void asked.push({ request, idpRequestsBefore: idpRequests.length }),
      authorize: (req) => (browsers++, inner.authorize(req)),
    };
    const lines: string[] = [];
    let clock = Date.now();
    const source = oidcIdTokens({ store, driver, callbackPort: port, fetchFn, step: (l) => lines.push(l), now: () => clock });
    const settings: OAuthSettings = { grant: 'enterprise', idpIssuer: fx.issuer, idpClientId: clientId };
    assert.equal(source.describe(settings), `an OIDC sign-in at ${new URL(fx.issuer).host} as ${clientId}`);

    const token = await source.idToken({ server: 'finance', settings });
    const c = claims(token);
    assert.equal(c.iss, fx.issuer);
    assert.equal(c.aud, clientId);
    assert.equal(c.sub, 'test-user');
    assert.equal(asked.length, 1);
    assert.equal(asked[0].idpRequestsBefore, 0, 'nothing sent to the IdP before the person agreed');
    assert.equal(asked[0].request.origin.origin, new URL(fx.issuer).origin);
    assert.deepEqual(asked[0].request.scopes, ['openid', 'offline_access']);
    assert.ok(
      idpRequests.some((u) => u.endsWith('/.well-known/openid-configuration') || u.includes('/.well-known/oauth-authorization-server')),
    );
    assert.equal(browsers, 1);
    const key = `${ID_TOKEN_KEY_PREFIX}${fx.issuer}\n${clientId}`;
    const kept = JSON.parse((await store.get(key)) ?? '{}') as { idToken: string; refreshToken?: string; expiresAt: number };
    assert.equal(kept.idToken, token);
    assert.ok(kept.refreshToken, 'offline_access gave a refresh token');
    assert.equal(kept.expiresAt, jwtExpiry(token));

    // Still valid: the kept one, nobody asked.
    assert.equal(await source.idToken({ server: 'finance', settings }), token);
    assert.equal(browsers, 1);
    // Expired: refreshed at the IdP, no browser, no question.
    clock = kept.expiresAt + 1000;
    const before = (await fx.stats()).refreshes;
    const refreshed = await source.idToken({ server: 'finance', settings });
    // (Issued in the same second with the same claims, it may read as the first one: the IdP's count tells.)
    assert.equal(claims(refreshed).sub, 'test-user');
    assert.equal(claims(refreshed).aud, clientId);
    assert.equal((await fx.stats()).refreshes, before + 1);
    assert.equal(browsers, 1);
    assert.equal(asked.length, 1);
    for (const l of lines) {
      assert.ok(!l.includes(token) && !l.includes(refreshed) && !l.includes(kept.refreshToken), `no token in the log: ${l}`);
    }
    assert.ok(lines.some((l) => /signed in at 127\.0\.0\.1:\d+; ID token received/.test(l)));
    assert.ok(lines.some((l) => /refreshed the ID token at/.test(l)));
  });

  it('the person says no: nothing is sent to the IdP; nobody to sign in: authRequired saying to set idTokenFile', async () => {
    const store = new MemoryOAuthStore();
    const idpRequests: string[] = [];
    const fetchFn: typeof fetch = (input, init) => (idpRequests.push(String(input)), fetch(input, init));
    const settings: OAuthSettings = { grant: 'enterprise', idpIssuer: fx.issuer, idpClientId: 'any' };
    const refusing = oidcIdTokens({
      store,
      fetchFn,
      callbackPort: 0,
      driver: {
        interactive: true,
        approveSignIn: () => Promise.reject(new HostError('cancelled', 'the sign-in was declined')),
        authorize: () => assert.fail('no browser after a no'),
      },
    });
    await assert.rejects(refusing.idToken({ server: 'finance', settings }), (e) => isHostError(e) && e.kind === 'cancelled');
    assert.deepEqual(idpRequests, []);
    const headless = oidcIdTokens({
      store,
      fetchFn,
      callbackPort: 0,
      driver: {
        interactive: false,
        unavailable: 'no terminal',
        approveSignIn: () => assert.fail('no consent asked where nobody can sign in (a piped "y" is not a person)'),
        authorize: () => assert.fail(),
      },
    });
    await assert.rejects(
      headless.idToken({ server: 'finance', settings }),
      (e) =>
        isHostError(e) && e.kind === 'authRequired' && /no terminal; or set "idTokenFile" \(the CLI: --id-token-file\)/.test(e.message),
    );
    assert.deepEqual(idpRequests, []);
  });
  it('an IdP over plain http off this machine is refused before the consent and before any request', async () => {
    const idpRequests: string[] = [];
    const source = oidcIdTokens({
      store: new MemoryOAuthStore(),
      fetchFn: (input) => (idpRequests.push(String(input)), Promise.reject(new Error('no request expected'))),
      callbackPort: 0,
      driver: { interactive: true, approveSignIn: () => assert.fail('no consent for a refused IdP'), authorize: () => assert.fail() },
    });
    const settings: OAuthSettings = { grant: 'enterprise', idpIssuer: 'http://192.0.2.2:47811', idpClientId: 'corp' };
    await assert.rejects(
      source.idToken({ server: 'finance', settings }),
      (e) => isHostError(e) && e.kind === 'auth' && /is not https.*check "idpIssuer" \(the CLI: --idp-issuer\)/.test(e.message),
    );
    assert.deepEqual(idpRequests, []);
  });
  it("VS Code's composition: a server naming idToken.authenticationProvider is served by VS Code's provider, any other by the OIDC sign-in", async () => {
    const byProvider: string[] = [];
    const preferred = {
      describe: () => 'a VS Code sign-in with microsoft',
      idToken: async (r: { server: string }) => (byProvider.push(r.server), 'provider.id.token'),
    };
    const source = oidcIdTokens({
      store: new MemoryOAuthStore(),
      callbackPort: 0,
      preferred,
      driver: { interactive: false, unavailable: 'nobody here', authorize: () => assert.fail() },
    });
    const viaProvider: OAuthSettings = {
      grant: 'enterprise',
      idpIssuer: fx.issuer,
      idpClientId: 'c',
      idToken: { authenticationProvider: 'microsoft' },
    };
    assert.equal(await source.idToken({ server: 'a', settings: viaProvider }), 'provider.id.token');
    assert.equal(source.describe(viaProvider), 'a VS Code sign-in with microsoft');
    const own: OAuthSettings = { grant: 'enterprise', idpIssuer: fx.issuer, idpClientId: 'c' };
    assert.match(source.describe(own), /^an OIDC sign-in at 127\.0\.0\.1:\d+ as c$/);
    await assert.rejects(source.idToken({ server: 'b', settings: own }), /nobody here/);
    assert.deepEqual(byProvider, ['a']);
  });
});
