/**
 * Sign-ins that must fail, and fail clearly, with the call in progress ended and nothing sent that
 * should not be: metadata that is not JSON, an authorization server claiming another issuer, no S256,
 * a redirect carrying an error, a state that does not match, an `iss` from another server on an error
 * redirect, a sign-in that never completes, a sign-in cancelled midway, and a server that keeps
 * refusing (bounded re-authorizations).
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { HostEvent } from '../../../src/core/log/events';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import type { AuthorizationDriver } from '../../../src/core/oauth/driver';
import { headlessDriver } from '../../../src/core/oauth/headlessDriver';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { HostError } from '../../../src/core/util/errors';
import { startFakeAuthServer, type FakeAuthOptions, type FakeAuthServer } from '../../support/fakeAuthServer';
import { scriptedProvider } from '../../support/providers';

let fake: FakeAuthServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function conn(driver: AuthorizationDriver, extra: { signInTimeoutMs?: number; callbackPort?: number } = {}, events: HostEvent[] = []) {
  return new ServerConnection(
    { transport: 'http', name: 'hostile', url: fake!.mcpUrl, era: 'modern' },
    {
      provider: scriptedProvider({}),
      onEvent: (e) => events.push(e),
      oauth: { store: new MemoryOAuthStore(), driver, callbackPort: extra.callbackPort ?? 0, signInTimeoutMs: extra.signInTimeoutMs },
    },
  );
}

async function failsWith(options: FakeAuthOptions, re: RegExp, driver: AuthorizationDriver = headlessDriver()): Promise<HostError> {
  fake = await startFakeAuthServer(options);
  const c = conn(driver);
  try {
    const e = await callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }).then(
      () => assert.fail('the call succeeded'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof HostError, String(e));
    assert.match(e.message, re);
    return e;
  } finally {
    await c.close();
  }
}

const notCalled: AuthorizationDriver = { interactive: true, authorize: () => assert.fail('the browser was opened') };

describe('sign-in: hostile and broken authorization servers', function () {
  this.timeout(20_000);

  it('metadata that is not JSON: names the document, no registration', async () => {
    const e = await failsWith(
      { metadataBody: '<html>login here</html>' },
      /is not JSON.*\/\.well-known\/oauth-authorization-server answered 200 text\/html/,
      notCalled,
    );
    assert.equal(e.kind, 'auth');
    assert.equal(fake!.seen.registrations, 0);
  });

  it('an authorization server whose metadata claims another issuer: refused before its endpoints are used', async () => {
    await failsWith(
      { metadata: { issuer: 'https://attacker.example.com' } },
      /claims to be issued by https:\/\/attacker\.example\.com, another origin/,
      notCalled,
    );
    assert.equal(fake!.seen.registrations, 0);
    assert.equal(fake!.seen.authorizations.length, 0);
  });

  it('no code_challenge_methods_supported: refused before the browser opens', async () => {
    await failsWith(
      { metadata: { code_challenge_methods_supported: undefined } },
      /does not say it supports PKCE with S256 \(code_challenge_methods_supported is missing\)/,
      notCalled,
    );
    assert.equal(fake!.seen.registrations, 0, 'no registration with it either');
  });

  it('a redirect carrying an error: the error is named, no token request', async () => {
    await failsWith(
      { redirect: (q) => ({ error: 'access_denied', error_description: 'The user said no', state: q.get('state')!, iss: fake!.url }) },
      /refused the sign-in: access_denied \(access was denied\) — The user said no/,
    );
    assert.equal(fake!.seen.tokenRequests, 0);
  });

  it('a callback whose state does not match is ignored by the listener: the code is not sent, the sign-in waits for its own (here: its time limit)', async () => {
    fake = await startFakeAuthServer({ redirect: () => ({ code: 'stolen', state: 'someone-elses', iss: fake!.url }) });
    const c = conn(headlessDriver(), { signInTimeoutMs: 1500 });
    try {
      await assert.rejects(
        callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }),
        (e: unknown) => e instanceof HostError && e.kind === 'auth' && /did not complete within 1\.5 s/.test(e.message),
      );
      assert.equal(fake.seen.authorizations.length, 1, 'the browser went to the authorization server');
      assert.equal(fake.seen.tokenRequests, 0);
    } finally {
      await c.close();
    }
  });

  it('an error redirect from another issuer: its texts are not shown', async () => {
    const e = await failsWith(
      {
        redirect: (q) => ({
          error: 'server_error',
          error_description: 'call +1-555-SCAM',
          state: q.get('state')!,
          iss: 'https://evil.example.com',
        }),
      },
      /did not come from the expected authorization server/,
    );
    assert.doesNotMatch(e.message, /SCAM|server_error/);
  });

  it('a sign-in that never completes: times out with a clear error, and the call ends', async () => {
    fake = await startFakeAuthServer();
    let seenSignal: AbortSignal | undefined;
    const c = conn(
      { interactive: true, authorize: (req) => ((seenSignal = req.signal), new Promise<never>(() => {})) },
      { signInTimeoutMs: 300 },
    );
    try {
      await assert.rejects(
        callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }),
        (e: unknown) => e instanceof HostError && e.kind === 'auth' && /did not complete within 300 ms/.test(e.message),
      );
      assert.equal(seenSignal?.aborted, true, 'the driver was told to stop');
    } finally {
      await c.close();
    }
  });

  it('cancel mid-sign-in: the call is cancelled and the callback port is free again', async () => {
    fake = await startFakeAuthServer();
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const ac = new AbortController();
    const c = conn({ interactive: true, authorize: () => (ac.abort(), new Promise<never>(() => {})) }, { callbackPort: port });
    try {
      await assert.rejects(
        callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }, { signal: ac.signal }),
        (e: unknown) => e instanceof HostError && e.kind === 'cancelled',
      );
      // The listener is gone: the port can be bound again.
      await new Promise<void>((resolve, reject) => {
        const s = createServer()
          .once('error', reject)
          .listen(port, '127.0.0.1', () => s.close(() => resolve()));
      });
      assert.equal(fake.seen.tokenRequests, 0);
    } finally {
      await c.close();
    }
  });

  it('a server that keeps refusing after sign-ins: the host stops after a bounded number', async () => {
    fake = await startFakeAuthServer();
    const events: HostEvent[] = [];
    const c = conn(headlessDriver(), {}, events);
    try {
      await assert.rejects(
        callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }),
        (e: unknown) => e instanceof HostError && e.kind === 'auth' && /even after 2 sign-in\(s\); the host stopped asking/.test(e.message),
      );
      assert.equal(fake.seen.authorizations.length, 2);
      assert.ok(
        !events
          .map((e) => JSON.stringify(e))
          .join('\n')
          .includes('fake-access-token'),
        'no token in any event',
      );
    } finally {
      await c.close();
    }
  });
});
