/**
 * Where a sign-in sends requests (src/core/oauth/authTargets.ts): https only off loopback, for the
 * authorization server's metadata and registration too (through the real sign-in against the fake
 * authorization server: nothing registered, nobody asked), and no loopback or private address named
 * for a server on a public one.
 */
import assert from 'node:assert/strict';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { authTargetProblem, isPrivateHost } from '../../../src/core/oauth/authTargets';
import type { AuthorizationDriver } from '../../../src/core/oauth/driver';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { HostError } from '../../../src/core/util/errors';
import { startFakeAuthServer, type FakeAuthOptions, type FakeAuthServer } from '../../support/fakeAuthServer';
import { scriptedProvider } from '../../support/providers';

let fake: FakeAuthServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const notCalled: AuthorizationDriver = { interactive: true, authorize: () => assert.fail('the person was asked') };

async function refused(options: FakeAuthOptions, re: RegExp): Promise<void> {
  fake = await startFakeAuthServer(options);
  const c = new ServerConnection(
    { transport: 'http', name: 'hostile', url: fake.mcpUrl, era: 'modern' },
    { provider: scriptedProvider({}), oauth: { store: new MemoryOAuthStore(), driver: notCalled, callbackPort: 0 } },
  );
  try {
    await assert.rejects(
      callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }),
      (e: unknown) => e instanceof HostError && e.kind === 'auth' && re.test(e.message),
    );
    assert.equal(fake.seen.registrations, 0);
  } finally {
    await c.close();
  }
}

describe('sign-in: where requests may go', function () {
  this.timeout(20_000);

  it('an authorization server over plain http off loopback: its metadata is not requested', () =>
    refused(
      { resourceMetadata: { authorization_servers: ['http://login.example.com'] } },
      /does not request http:\/\/login\.example\.com\/\.well-known\/oauth-authorization-server: http:\/\/login\.example\.com is not https/,
    ));

  it('a registration endpoint over plain http off loopback: nothing is registered', () =>
    refused(
      { metadata: { registration_endpoint: 'http://10.0.0.1/register' } },
      /does not request http:\/\/10\.0\.0\.1\/register: http:\/\/10\.0\.0\.1 is not https/,
    ));

  it('a server on a public address may not name a loopback, private or link-local one', () => {
    const server = 'https://mcp.example.com/mcp';
    for (const target of [
      'https://127.0.0.1/.well-known/oauth-authorization-server',
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/register',
      'https://192.168.0.1/token',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://localhost/x',
    ])
      assert.match(
        authTargetProblem(new URL(target), server) ?? '',
        /loopback or private address, named for a server on a public one/,
        target,
      );
    assert.equal(authTargetProblem(new URL('https://login.example.com/authorize'), server), undefined);
    assert.equal(
      authTargetProblem(new URL('http://127.0.0.1:8080/register'), 'http://127.0.0.1:3000/mcp'),
      undefined,
      'a local server, a local AS',
    );
    assert.equal(authTargetProblem(new URL('https://10.0.0.5/token'), 'https://10.0.0.4/mcp'), undefined, 'a private server, a private AS');
    assert.equal(isPrivateHost('8.8.8.8'), false);
    assert.equal(isPrivateHost('[2001:db8::1]'), false);
  });
});
