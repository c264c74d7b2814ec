/**
 * A 2025-03-26 server (no protected resource metadata, no authorization server metadata): with its
 * era set to `legacy`, the sign-in uses `/register`, `/authorize` (PKCE S256) and `/token` at the
 * server's root; any other era refuses before anything is registered, saying how to sign in to one.
 */
import assert from 'node:assert/strict';
import type { AuthChallenge } from '../../../src/core/oauth/challenge';
import { headlessDriver } from '../../../src/core/oauth/headlessDriver';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { ServerOAuth } from '../../../src/core/oauth/serverOAuth';
import { HostError } from '../../../src/core/util/errors';
import { startFakeAuthServer, type FakeAuthServer } from '../../support/fakeAuthServer';

let fake: FakeAuthServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const challenge: AuthChallenge = { status: 401, hadToken: false, operation: 'initialize' };

function oauth(era: 'auto' | 'legacy') {
  return new ServerOAuth(
    'old',
    fake!.mcpUrl,
    {},
    { store: new MemoryOAuthStore(), driver: headlessDriver(), callbackPort: 0, signInTimeoutMs: 10_000 },
    () => {},
    era,
  );
}

describe('sign-in to a 2025-03-26 server without metadata', function () {
  this.timeout(20_000);

  it('era legacy: registers at /register, authorizes at /authorize with S256, gets the token at /token', async () => {
    fake = await startFakeAuthServer({ noMetadata: true });
    const o = oauth('legacy');
    await o.signIn(challenge);
    assert.equal(fake.seen.registrations, 1);
    assert.equal(fake.seen.authorizations.length, 1);
    assert.equal(fake.seen.authorizations[0].get('code_challenge_method'), 'S256');
    assert.equal(fake.seen.tokenRequests, 1);
    assert.equal(fake.seen.tokenBodies[0].body.get('grant_type'), 'authorization_code');
    assert.equal((await o.credentials.tokens(fake.mcpUrl))?.tokens.access_token, 'fake-access-token');
  });

  it('any other era: refused before registering, naming the era setting', async () => {
    fake = await startFakeAuthServer({ noMetadata: true });
    const e = await oauth('auto')
      .signIn(challenge)
      .then(
        () => assert.fail('signed in'),
        (err: unknown) => err,
      );
    assert.ok(e instanceof HostError && e.kind === 'auth', String(e));
    assert.match(e.message, /set its "era" to "legacy"/);
    assert.equal(fake.seen.registrations, 0);
    assert.equal(fake.seen.authorizations.length, 0);
  });
});
