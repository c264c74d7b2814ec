/**
 * Sign-ins against a real authorization server on loopback (oidc-provider: PKCE, dynamic registration,
 * resource indicators) in front of the demo server's tools: the host's own connection, MRTR driver and
 * OAuth, with the headless browser stand-in. A call with a roots round completes after the sign-in;
 * the token is kept in the store and in no log line; a refresh is used and rotated; signing out makes
 * the next call ask again; without anyone to sign in, nothing is registered and the error says so.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { HostEvent } from '../../../src/core/log/events';
import { formatEvent } from '../../../src/core/log/traceLog';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { Credentials } from '../../../src/core/oauth/credentials';
import type { AuthorizationDriver } from '../../../src/core/oauth/driver';
import { headlessDriver } from '../../../src/core/oauth/headlessDriver';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { HostError } from '../../../src/core/util/errors';
import { ensureBuilt } from '../../support/build';
import { startOAuthFixture, type OAuthFixture } from '../../support/oauthFixture';
import { scriptedProvider } from '../../support/providers';

const ROOTS = { roots: { roots: [{ uri: 'file:///work/project', name: 'project' }] } };

/** The headless stand-in, counting the authorizations it was asked to complete. */
function countingDriver(): AuthorizationDriver & { count: number } {
  const inner = headlessDriver();
  const d = {
    interactive: true,
    count: 0,
    authorize: (req: Parameters<AuthorizationDriver['authorize']>[0]) => (d.count++, inner.authorize(req)),
  };
  return d;
}

/** A port free right now (the callback's, fixed for the test like the default 33419 is for users). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function connect(fx: OAuthFixture, store: MemoryOAuthStore, driver: AuthorizationDriver, events: HostEvent[]) {
  return new ServerConnection(
    { transport: 'http', name: 'protected', url: fx.mcpUrl },
    { provider: scriptedProvider(ROOTS), onEvent: (e) => events.push(e), oauth: { store, driver, callbackPort: await freePort() } },
  );
}

describe('sign-in against a real authorization server (oidc-provider)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('signs in, completes a call with an MRTR round, keeps the token in the store only, and asks again after sign-out', async () => {
    const fx = await startOAuthFixture();
    const store = new MemoryOAuthStore();
    const driver = countingDriver();
    const events: HostEvent[] = [];
    const conn = await connect(fx, store, driver, events);
    try {
      const r = await callWithRoundTrips(conn, 'tools/call', { name: 'where_am_i', arguments: {} }, { onEvent: (e) => events.push(e) });
      assert.equal(r.rounds, 1, 'one roots round after the sign-in');
      assert.match(JSON.stringify(r.result), /file:\/\/\/work\/project/);
      assert.equal(driver.count, 1);
      const [token] = await fx.tokens();
      assert.ok(token, 'the resource server accepted a token');
      const record = await new Credentials(store).tokens(fx.mcpUrl);
      assert.equal(record?.tokens.access_token, token, 'the store holds the token the server accepted');
      assert.equal(record?.issuer, fx.issuer);
      const lines = events.map((e) => formatEvent(e)?.text ?? '').join('\n');
      assert.match(lines, /sign-in: discovery: GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp → 200/);
      assert.match(lines, /sign-in: client: dynamic registration; asking for scopes mcp:tools offline_access/);
      assert.match(lines, /sign-in: signed in with 127\.0\.0\.1:\d+; scopes granted: mcp:tools; expires in/);
      for (const secret of [token, record.tokens.refresh_token!]) assert.ok(!lines.includes(secret), 'no token in the log');
      assert.equal(conn.era, 'modern', 'the era negotiated after the sign-in');

      assert.equal(await conn.signOut(), true);
      assert.equal(await new Credentials(store).tokens(fx.mcpUrl), undefined);
      await callWithRoundTrips(conn, 'tools/call', { name: 'where_am_i', arguments: {} });
      assert.equal(driver.count, 2, 'after sign-out the next call asks again');
      assert.equal((await fx.stats()).registrations, 1, 'the client registration is kept across the sign-out');
    } finally {
      await conn.close();
      await fx.stop();
    }
  });

  it('uses the refresh token when the access token is about to expire, and keeps the rotated one', async () => {
    const fx = await startOAuthFixture({ tokenTtl: 30 });
    const store = new MemoryOAuthStore();
    const driver = countingDriver();
    const events: HostEvent[] = [];
    const conn = await connect(fx, store, driver, events);
    try {
      await conn.list('tools');
      const first = await new Credentials(store).tokens(fx.mcpUrl);
      assert.ok(first?.tokens.refresh_token, 'offline_access gave a refresh token');
      // 30 s left is inside the refresh margin: the next request refreshes first.
      await callWithRoundTrips(conn, 'tools/call', { name: 'where_am_i', arguments: {} });
      const second = await new Credentials(store).tokens(fx.mcpUrl);
      assert.equal(driver.count, 1, 'no second browser sign-in');
      assert.ok((await fx.stats()).refreshes >= 1, 'the authorization server saw a refresh');
      assert.notEqual(second?.tokens.access_token, first.tokens.access_token);
      assert.notEqual(second?.tokens.refresh_token, first.tokens.refresh_token, 'the rotated refresh token is kept');
      assert.ok(events.some((e) => e.kind === 'auth' && /refreshed the sign-in/.test(e.message)));
    } finally {
      await conn.close();
      await fx.stop();
    }
  });

  it('without anyone to sign in: authRequired naming what to do, and nothing registered', async () => {
    const fx = await startOAuthFixture();
    const conn = await connect(
      fx,
      new MemoryOAuthStore(),
      { interactive: false, unavailable: 'run it in a terminal', authorize: () => Promise.reject(new Error('not called')) },
      [],
    );
    try {
      await assert.rejects(
        conn.list('tools'),
        (e: unknown) => e instanceof HostError && e.kind === 'authRequired' && /needs a sign-in .*run it in a terminal/.test(e.message),
      );
      assert.equal((await fx.stats()).registrations, 0);
    } finally {
      await conn.close();
      await fx.stop();
    }
  });
});
