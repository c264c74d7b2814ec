/**
 * DPoP (RFC 9449): when the server challenges with the `DPoP` scheme and its authorization server
 * lists DPoP signing algorithms, the token request carries a proof, and a `token_type: DPoP` token goes to the server as `Authorization: DPoP` with a
 * fresh proof per request (bound to its method, URL and token); a server that does not ask is sent
 * no proof, its token as `Bearer`.
 */
import assert from 'node:assert/strict';
import { SignInNeeded, type AuthChallenge } from '../../../src/core/oauth/challenge';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { ServerOAuth } from '../../../src/core/oauth/serverOAuth';
import { startFakeAuthServer, type FakeAuthOptions, type FakeAuthServer } from '../../support/fakeAuthServer';

let fake: FakeAuthServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function claims(jwt: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>,
  };
}

/** Sign in with client credentials, then send two requests; what reached the token endpoint and the server. */
async function run(options: FakeAuthOptions, dpopChallenge: boolean) {
  const seen: { authorization?: string; dpop?: string }[] = [];
  const tokenDpop: (string | undefined)[] = [];
  fake = await startFakeAuthServer({
    ...options,
    mcp: (authorization, dpop) => {
      seen.push({ authorization, dpop });
      return { status: 200 };
    },
  });
  const oauth = new ServerOAuth(
    'd',
    fake.mcpUrl,
    { grant: 'client_credentials', clientId: 'c', clientSecret: 's' },
    { store: new MemoryOAuthStore(), driver: { interactive: false, authorize: () => assert.fail('browser') } },
    () => {},
  );
  const challenge: AuthChallenge = {
    status: 401,
    hadToken: false,
    operation: 'tools/list',
    resourceMetadataUrl: new URL(`${fake.url}/.well-known/oauth-protected-resource/mcp`),
  };
  const originalFetch = globalThis.fetch;
  // The token request's DPoP header, as the authorization server receives it.
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/token'))
      tokenDpop.push(new Headers(init?.headers).get('dpop') ?? undefined);
    return originalFetch(input, init);
  };
  try {
    const need = oauth.challenged({ ...challenge, ...(dpopChallenge ? { dpop: true } : {}) });
    assert.ok(need instanceof SignInNeeded);
    await need.signIn();
  } finally {
    globalThis.fetch = originalFetch;
  }
  const send = oauth.wrapFetch(fetch);
  for (let i = 0; i < 2; i++) await send(fake.mcpUrl, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' });
  return { seen, tokenDpop };
}

describe('DPoP', function () {
  this.timeout(20_000);

  it('a server that challenges with DPoP, its authorization server able to: a proof at the token endpoint, then DPoP with a fresh proof per request', async () => {
    const { seen, tokenDpop } = await run(
      {
        metadata: { dpop_signing_alg_values_supported: ['ES256'] },
        tokenExtra: { token_type: 'DPoP' },
      },
      true,
    );
    assert.equal(tokenDpop.length, 1);
    assert.ok(tokenDpop[0], 'no proof on the token request');
    assert.equal(claims(tokenDpop[0]).header.typ, 'dpop+jwt');
    assert.deepEqual(
      seen.map((s) => s.authorization),
      ['DPoP fake-access-token', 'DPoP fake-access-token'],
    );
    const proofs = seen.map((s) => claims(s.dpop!));
    assert.equal(proofs[0].payload.htm, 'POST');
    assert.equal(proofs[0].payload.htu, fake!.mcpUrl);
    assert.equal(typeof proofs[0].payload.ath, 'string');
    assert.notEqual(proofs[0].payload.jti, proofs[1].payload.jti, 'a proof was reused');
    assert.deepEqual(proofs[0].header.jwk, proofs[1].header.jwk, 'one key per server');
  });

  it('a server that challenges with Bearer, even with an authorization server able to do DPoP: no proof anywhere, the token as Bearer', async () => {
    const { seen, tokenDpop } = await run({ metadata: { dpop_signing_alg_values_supported: ['ES256'] } }, false);
    assert.deepEqual(tokenDpop, [undefined]);
    assert.deepEqual(
      seen.map((s) => [s.authorization, s.dpop]),
      [
        ['Bearer fake-access-token', undefined],
        ['Bearer fake-access-token', undefined],
      ],
    );
  });
});
