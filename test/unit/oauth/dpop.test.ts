/**
 * DPoP (RFC 9449): when the server challenges with the `DPoP` scheme and its authorization server
 * lists DPoP signing algorithms, the token request carries a proof, and a `token_type: DPoP` token goes to the server as `Authorization: DPoP` with a
 * fresh proof per request (bound to its method, URL and token); a server that does not ask is sent
 * no proof, its token as `Bearer`.
 */
import assert from 'node:assert/strict';
import { SignInNeeded, type AuthChallenge } from '../../../src/core/oauth/challenge';
import { Credentials } from '../../../src/core/oauth/credentials';
import { keptDpopSession } from '../../../src/core/oauth/dpopKey';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { ServerOAuth } from '../../../src/core/oauth/serverOAuth';
import { startFakeAuthServer, type FakeAuthOptions, type FakeAuthServer } from '../../support/fakeAuthServer';

let fake: FakeAuthServer | undefined;
/** Where the fake's MCP endpoint records what reached it (the current run's list). */
let sawAtMcp: { authorization?: string; dpop?: string }[] = [];
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
async function run(options: FakeAuthOptions, dpopChallenge: boolean, store = new MemoryOAuthStore()) {
  const seen: { authorization?: string; dpop?: string }[] = [];
  const tokenDpop: (string | undefined)[] = [];
  sawAtMcp = seen;
  // A second run in one test is the same server (its URL keys the kept key) seen by a new process.
  fake ??= await startFakeAuthServer({
    ...options,
    mcp: (authorization, dpop) => {
      sawAtMcp.push({ authorization, dpop });
      return { status: 200 };
    },
  });
  const oauth = new ServerOAuth(
    'd',
    fake.mcpUrl,
    { grant: 'client_credentials', clientId: 'c', clientSecret: 's' },
    { store, driver: { interactive: false, authorize: () => assert.fail('browser') } },
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

  it('the proof key is kept in the store per server: a later process (a new ServerOAuth on the same store) signs with the same key', async () => {
    const store = new MemoryOAuthStore();
    const dpopServer = { metadata: { dpop_signing_alg_values_supported: ['ES256'] }, tokenExtra: { token_type: 'DPoP' } };
    const first = await run(dpopServer, true, store);
    const keys = (await store.keys()).filter((k) => k.startsWith('dpop:'));
    assert.equal(keys.length, 1, 'one key kept for the server');
    const kept = JSON.parse((await store.get(keys[0]))!) as { alg: string; jwk: Record<string, string> };
    assert.equal(kept.alg, 'ES256');
    const firstJwk = claims(first.seen[0].dpop!).header.jwk as Record<string, string>;
    assert.equal(kept.jwk.x, firstJwk.x, 'the kept key is the one the proofs carry');
    assert.ok(!('d' in firstJwk), 'no private part in a proof');
    const second = await run(dpopServer, true, store);
    assert.deepEqual(claims(second.seen[0].dpop!).header.jwk, firstJwk, 'the same key after a restart');
    assert.equal((await store.keys()).length, 2, 'the token and the DPoP key');
    assert.equal(await new Credentials(store).clear(), 2);
    assert.deepEqual(await store.keys(), [], 'Clear forgets the DPoP key too');
  });

  it('a server that does not ask for DPoP gets no key in the store', async () => {
    const store = new MemoryOAuthStore();
    await run({ metadata: { dpop_signing_alg_values_supported: ['ES256'] } }, false, store);
    assert.deepEqual(
      (await store.keys()).filter((k) => k.startsWith('dpop:')),
      [],
    );
  });

  it('the kept key signs non-extractable, one per server; an unusable kept value is replaced', async () => {
    const store = new MemoryOAuthStore();
    const a = await keptDpopSession(store, 'https://a.example/mcp');
    const privateKey = (a as unknown as { keyPair: { privateKey: CryptoKey } }).keyPair.privateKey;
    assert.equal(privateKey.extractable, false);
    assert.equal((await keptDpopSession(store, 'https://a.example/mcp')).thumbprint, a.thumbprint);
    assert.notEqual((await keptDpopSession(store, 'https://b.example/mcp')).thumbprint, a.thumbprint, 'a key per server');
    await store.set('dpop:https://a.example/mcp', '{"alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"AA","y":"AA","d":"AA"}}');
    const replaced = await keptDpopSession(store, 'https://a.example/mcp');
    assert.notEqual(replaced.thumbprint, a.thumbprint);
    assert.match((await store.get('dpop:https://a.example/mcp'))!, new RegExp(replaced.publicJwk.x as string));
  });
});
