/**
 * Nothing goes to another origin than the MCP server's before the person agrees (issue 44): a server
 * whose protected resource metadata names an authorization server on another origin (here a second
 * loopback port standing in for a hostile one). The driver records what that origin had received when
 * it was asked: nothing. Said no, it never hears from the host (no metadata request, no registration);
 * said yes, the sign-in goes on there, and the browser opens without a second question when it goes
 * to the host agreed to for the scopes shown.
 */
import assert from 'node:assert/strict';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { HostEvent } from '../../../src/core/log/events';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import type { AuthorizationDriver, AuthorizationRequest, SignInStartRequest } from '../../../src/core/oauth/driver';
import { headlessDriver } from '../../../src/core/oauth/headlessDriver';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { alreadyAgreed } from '../../../src/core/oauth/signInPrompt';
import { HostError } from '../../../src/core/util/errors';
import { startFakeAuthServer, type FakeAuthServer } from '../../support/fakeAuthServer';
import { scriptedProvider } from '../../support/providers';

describe('sign-in: the person agrees before another origin is reached', function () {
  this.timeout(20_000);
  let mcp: FakeAuthServer;
  let other: FakeAuthServer;
  beforeEach(async () => {
    other = await startFakeAuthServer();
    mcp = await startFakeAuthServer({ resourceMetadata: { authorization_servers: [other.url], scopes_supported: ['files:read'] } });
  });
  afterEach(async () => {
    await mcp.close();
    await other.close();
  });

  function conn(driver: AuthorizationDriver, events: HostEvent[]) {
    return new ServerConnection(
      { transport: 'http', name: 'consent', url: mcp.mcpUrl, era: 'modern' },
      {
        provider: scriptedProvider({}),
        onEvent: (e) => events.push(e),
        oauth: { store: new MemoryOAuthStore(), driver, callbackPort: 0, signInTimeoutMs: 5000 },
      },
    );
  }

  it('said no: the other origin receives nothing at all, and the call ends saying it was declined', async () => {
    const asked: { req: SignInStartRequest; otherSawBefore: string[]; mcpSawBefore: string[] }[] = [];
    const driver: AuthorizationDriver = {
      interactive: true,
      approveSignIn: async (req) => {
        asked.push({ req, otherSawBefore: [...other.seen.requests], mcpSawBefore: [...mcp.seen.requests] });
        throw new HostError('cancelled', `signing in to ${req.server} was declined`);
      },
      authorize: () => assert.fail('the browser was opened'),
    };
    const events: HostEvent[] = [];
    const c = conn(driver, events);
    try {
      await assert.rejects(
        callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }),
        (e: unknown) => e instanceof HostError && e.kind === 'cancelled' && /declined/.test(e.message),
      );
    } finally {
      await c.close();
    }
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(asked[0].req.origin.origin, other.url);
    assert.deepEqual(asked[0].req.scopes, ['files:read', 'offline_access']);
    assert.deepEqual(asked[0].otherSawBefore, []);
    assert.ok(asked[0].mcpSawBefore.includes('GET /.well-known/oauth-protected-resource/mcp'), 'the server’s own metadata was read first');
    assert.deepEqual(other.seen.requests, [], 'nothing was ever sent to the other origin');
    assert.equal(other.seen.registrations, 0);
  });

  it('said yes: the sign-in goes on at the other origin only then; the browser opens without asking twice', async () => {
    let otherSawWhenAsked: string[] | undefined;
    const browser = headlessDriver();
    const seen: AuthorizationRequest[] = [];
    const driver: AuthorizationDriver = {
      interactive: true,
      approveSignIn: async () => {
        otherSawWhenAsked ??= [...other.seen.requests];
      },
      authorize: (req) => {
        seen.push(req);
        return browser.authorize(req);
      },
    };
    const events: HostEvent[] = [];
    const c = conn(driver, events);
    try {
      // The fake MCP endpoint never takes a token: the call fails after the sign-in; what matters is its order.
      await callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }).catch(() => {});
    } finally {
      await c.close();
    }
    assert.deepEqual(otherSawWhenAsked, []);
    assert.ok(other.seen.requests.includes('GET /.well-known/oauth-authorization-server'));
    assert.ok(other.seen.registrations >= 1 && other.seen.tokenRequests >= 1, 'registered and exchanged the code after the yes');
    assert.ok(seen.length >= 1);
    assert.deepEqual(seen[0].agreed, { host: new URL(other.url).host, scopes: ['files:read', 'offline_access'] });
    assert.equal(alreadyAgreed(seen[0]), true, 'same host, no other scope: no second question');
  });

  it('a second question when the browser goes elsewhere than agreed, or for a scope not shown', () => {
    const base = {
      server: 's',
      issuer: 'https://as.example',
      scopes: ['files:read'],
      reason: 'signIn' as const,
      operation: 'request',
      authorizationUrl: new URL('https://as.example/authorize'),
    };
    assert.equal(alreadyAgreed({ ...base, agreed: { host: 'as.example', scopes: ['files:read'] } }), true);
    assert.equal(alreadyAgreed({ ...base, agreed: { host: 'as.example', scopes: [] } }), false);
    assert.equal(
      alreadyAgreed({
        ...base,
        authorizationUrl: new URL('https://login.phish.example/authorize'),
        agreed: { host: 'as.example', scopes: ['files:read'] },
      }),
      false,
    );
    assert.equal(alreadyAgreed(base), false);
  });
});
