/**
 * Sign-ins without a person: client credentials (secret by Basic or by post, private key JWT), the
 * workload's JWT (jwt_bearer), and enterprise-managed authorization (ID token → ID-JAG → token).
 * Each runs with a driver that cannot open a browser, against a fake authorization server that
 * records what reached its token endpoint; secrets never reach the log.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostEvent } from '../../../src/core/log/events';
import type { AuthChallenge } from '../../../src/core/oauth/challenge';
import type { AuthorizationDriver } from '../../../src/core/oauth/driver';
import type { IdTokenRequest, IdTokenSource } from '../../../src/core/oauth/idTokenSource';
import { JWT_BEARER_GRANT, signingAlgorithmOf } from '../../../src/core/oauth/machineGrant';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { parseOAuthSettings, type OAuthSettings } from '../../../src/core/oauth/oauthSettings';
import { ServerOAuth } from '../../../src/core/oauth/serverOAuth';
import { HostError } from '../../../src/core/util/errors';
import { startFakeAuthServer, type FakeAuthOptions, type FakeAuthServer } from '../../support/fakeAuthServer';

/** A host where no one can open a browser (CI). */
const noBrowser: AuthorizationDriver = {
  interactive: false,
  unavailable: 'no terminal',
  authorize: () => assert.fail('a browser was asked for'),
};

let fake: FakeAuthServer | undefined;
let idp: Server | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  idp?.closeAllConnections();
  await new Promise((r) => (idp ? idp.close(() => r(undefined)) : r(undefined)));
  idp = undefined;
});

function challenge(): AuthChallenge {
  return {
    status: 401,
    hadToken: false,
    operation: 'tools/call read_file',
    resourceMetadataUrl: new URL(`${fake!.url}/.well-known/oauth-protected-resource/mcp`),
  };
}

async function signIn(settings: OAuthSettings, options: FakeAuthOptions = {}, idTokens?: IdTokenSource) {
  fake ??= await startFakeAuthServer(options);
  const events: HostEvent[] = [];
  const oauth = new ServerOAuth('machine', fake.mcpUrl, settings, { store: new MemoryOAuthStore(), driver: noBrowser, idTokens }, (e) =>
    events.push(e),
  );
  const log = () => events.map((e) => (e as { message?: string }).message ?? '').join('\n');
  try {
    await oauth.signIn(challenge());
  } catch (e) {
    return { oauth, log: log(), error: e as Error };
  }
  return { oauth, log: log(), error: undefined };
}

/** A fake enterprise IdP: its OpenID configuration, and a token endpoint answering every exchange with `the.id.jag`. */
async function startIdp(exchanges: URLSearchParams[]): Promise<string> {
  idp = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const base = `http://127.0.0.1:${(idp!.address() as AddressInfo).port}`;
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/.well-known/openid-configuration')
        return res.end(JSON.stringify({ issuer: base, token_endpoint: `${base}/token` }));
      if (req.url === '/token') {
        exchanges.push(new URLSearchParams(body));
        return res.end(
          JSON.stringify({
            access_token: 'the.id.jag',
            issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
            token_type: 'N_A',
          }),
        );
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => idp!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
}

function tempFile(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'machine-grant-')), name);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}

/** The payload of an ES256 JWT whose signature `key` verifies. */
function verifiedEs256(jwt: string, key: KeyObject): Record<string, unknown> {
  const [h, p, sig] = jwt.split('.');
  assert.equal((JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string }).alg, 'ES256');
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
  assert.ok(ok, 'the client assertion is not signed by the key');
  return JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
}

describe('sign-in without a person', function () {
  this.timeout(20_000);

  it('client credentials with a secret: one client_credentials request with Basic auth and the resource, no browser', async () => {
    const { oauth, log, error } = await signIn({ grant: 'client_credentials', clientId: 'ci-bot', clientSecret: 's3cret-value' });
    assert.equal(error, undefined);
    const [req] = fake!.seen.tokenBodies;
    assert.equal(fake!.seen.tokenRequests, 1);
    assert.equal(req.body.get('grant_type'), 'client_credentials');
    assert.equal(req.body.get('resource'), fake!.mcpUrl);
    assert.equal(req.authorization, `Basic ${Buffer.from('ci-bot:s3cret-value').toString('base64')}`);
    assert.equal(fake!.seen.authorizations.length, 0);
    assert.equal(fake!.seen.registrations, 0);
    assert.equal((await oauth.credentials.tokens(fake!.mcpUrl))?.tokens.access_token, 'fake-access-token');
    assert.match(log, /client credentials/);
    assert.doesNotMatch(log, /s3cret-value|fake-access-token/);
  });

  it('client credentials with a secret, where the server takes only client_secret_post: the secret in the body', async () => {
    const { error } = await signIn(
      { grant: 'client_credentials', clientId: 'ci-bot', clientSecret: 's3cret-value' },
      { metadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] } },
    );
    assert.equal(error, undefined);
    const [req] = fake!.seen.tokenBodies;
    assert.equal(req.authorization, undefined);
    assert.equal(req.body.get('client_id'), 'ci-bot');
    assert.equal(req.body.get('client_secret'), 's3cret-value');
  });

  it('client credentials with a private key: a client assertion signed by it, iss and sub the client id, aud the issuer', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { error } = await signIn({ grant: 'client_credentials', clientId: 'ci-bot', privateKeyFile: tempFile('key.pem', pem) });
    assert.equal(error, undefined);
    const [req] = fake!.seen.tokenBodies;
    assert.equal(req.body.get('client_assertion_type'), 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
    const payload = verifiedEs256(req.body.get('client_assertion')!, publicKey);
    assert.equal(payload.iss, 'ci-bot');
    assert.equal(payload.sub, 'ci-bot');
    assert.equal(payload.aud, fake!.url);
    assert.equal(req.authorization, undefined);
  });

  it('the signing algorithm follows the key; an unknown kind of key asks for "signingAlgorithm"', () => {
    const pem = (type: 'rsa' | 'ec' | 'ed25519', o: object = {}) =>
      (generateKeyPairSync as (t: string, o: object) => { privateKey: import('node:crypto').KeyObject })(type, o)
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
    assert.equal(signingAlgorithmOf(pem('ec', { namedCurve: 'P-384' }), 'k'), 'ES384');
    assert.equal(signingAlgorithmOf(pem('rsa', { modulusLength: 2048 }), 'k'), 'RS256');
    assert.equal(signingAlgorithmOf(pem('ed25519'), 'k'), 'EdDSA');
    assert.throws(() => signingAlgorithmOf('not a key', 'k.pem'), /k\.pem is not a PEM private key/);
  });

  it("jwt_bearer: the workload's token from its file as the assertion, read anew each time", async () => {
    const file = tempFile('token.jwt', 'workload.jwt.one\n');
    const { oauth, error } = await signIn({ grant: 'jwt_bearer', assertionFile: file });
    assert.equal(error, undefined);
    writeFileSync(file, 'workload.jwt.two');
    await oauth.signIn(challenge());
    const bodies = fake!.seen.tokenBodies.map((r) => r.body);
    assert.deepEqual(
      bodies.map((b) => [b.get('grant_type'), b.get('assertion')]),
      [
        [JWT_BEARER_GRANT, 'workload.jwt.one'],
        [JWT_BEARER_GRANT, 'workload.jwt.two'],
      ],
    );
  });

  it('jwt_bearer: a refused assertion fails once, named, with no retry and no other grant', async () => {
    process.env.MACHINE_GRANT_TEST_TOKEN = 'expired.workload.jwt';
    const { error, log } = await signIn(
      { grant: 'jwt_bearer', assertionEnv: 'MACHINE_GRANT_TEST_TOKEN' },
      { token: () => ({ status: 400, body: { error: 'invalid_grant', error_description: 'assertion expired' } }) },
    );
    delete process.env.MACHINE_GRANT_TEST_TOKEN;
    assert.ok(error instanceof HostError && error.kind === 'auth', String(error));
    assert.match(error.message, /invalid_grant: assertion expired/);
    assert.equal(fake!.seen.tokenRequests, 1);
    assert.doesNotMatch(log, /expired\.workload\.jwt/);
  });

  it('jwt_bearer: an unset variable is named before anything is sent', async () => {
    const { error } = await signIn({ grant: 'jwt_bearer', assertionEnv: 'MACHINE_GRANT_TEST_UNSET' });
    assert.match(String(error), /environment variable MACHINE_GRANT_TEST_UNSET is not set/);
    assert.equal(fake!.seen.tokenRequests, 0);
  });

  it('enterprise: the ID token exchanged at the IdP for an ID-JAG (audience the issuer, resource the server), then the jwt-bearer grant with the client secret', async () => {
    fake = await startFakeAuthServer();
    const exchanges: URLSearchParams[] = [];
    const idpIssuer = await startIdp(exchanges);
    const { error, log } = await signIn({
      grant: 'enterprise',
      clientId: 'mcp-client',
      clientSecret: 'mcp-secret',
      idpIssuer,
      idpClientId: 'idp-client',
      idTokenFile: tempFile('id.jwt', 'the.id.token'),
    });
    assert.equal(error, undefined);
    assert.equal(exchanges.length, 1);
    const x = exchanges[0];
    assert.equal(x.get('grant_type'), 'urn:ietf:params:oauth:grant-type:token-exchange');
    assert.equal(x.get('subject_token'), 'the.id.token');
    assert.equal(x.get('subject_token_type'), 'urn:ietf:params:oauth:token-type:id_token');
    assert.equal(x.get('requested_token_type'), 'urn:ietf:params:oauth:token-type:id-jag');
    assert.equal(x.get('audience'), fake.url);
    assert.equal(x.get('resource'), fake.mcpUrl);
    assert.equal(x.get('client_id'), 'idp-client');
    const [req] = fake.seen.tokenBodies;
    assert.equal(req.body.get('grant_type'), JWT_BEARER_GRANT);
    assert.equal(req.body.get('assertion'), 'the.id.jag');
    assert.equal(req.authorization, `Basic ${Buffer.from('mcp-client:mcp-secret').toString('base64')}`);
    assert.doesNotMatch(log, /the\.id\.(token|jag)|mcp-secret/);
  });

  it("enterprise: without idTokenFile, the ID token comes from the host's IdTokenSource and reaches the ID-JAG exchange; never the log", async () => {
    fake = await startFakeAuthServer();
    const exchanges: URLSearchParams[] = [];
    const idpIssuer = await startIdp(exchanges);
    const asked: IdTokenRequest[] = [];
    const source: IdTokenSource = {
      idToken: (r) => {
        asked.push(r);
        return Promise.resolve('the.signed-in.id.token');
      },
      describe: () => 'a test sign-in',
    };
    const settings = parseOAuthSettings(
      {
        grant: 'enterprise',
        clientId: 'mcp-client',
        clientSecret: 'mcp-secret',
        idpIssuer,
        idpClientId: 'idp-client',
        idToken: { authenticationProvider: 'microsoft', scopes: ['email'] },
      },
      'mcp.json: server "m"',
    ) as OAuthSettings;
    const { error, log } = await signIn(settings, {}, source);
    assert.equal(error, undefined);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].server, 'machine');
    assert.deepEqual(asked[0].settings.idToken, { authenticationProvider: 'microsoft', scopes: ['email'] });
    assert.equal(exchanges.length, 1);
    assert.equal(exchanges[0].get('subject_token'), 'the.signed-in.id.token');
    assert.equal(fake.seen.tokenBodies[0].body.get('assertion'), 'the.id.jag');
    assert.doesNotMatch(log, /the\.signed-in\.id\.token|the\.id\.jag|mcp-secret/);
  });

  it('enterprise: with neither idTokenFile nor a host sign-in, the error says what to set and nothing is sent', async () => {
    fake = await startFakeAuthServer();
    const exchanges: URLSearchParams[] = [];
    const idpIssuer = await startIdp(exchanges);
    const { error } = await signIn({ grant: 'enterprise', clientId: 'c', clientSecret: 's', idpIssuer, idpClientId: 'i' });
    assert.match(String(error), /set "idTokenFile" \(the CLI: --id-token-file\)/);
    assert.equal(exchanges.length, 0);
    assert.equal(fake.seen.tokenRequests, 0);
  });

  it('settings: each grant names what it needs, and refuses what belongs to another', () => {
    const where = 'mcp.json: server "m"';
    assert.deepEqual(parseOAuthSettings({ grant: 'client_credentials', clientId: 'a', clientSecret: 'b' }, where), {
      grant: 'client_credentials',
      clientId: 'a',
      clientSecret: 'b',
    });
    assert.throws(
      () => parseOAuthSettings({ grant: 'password' }, where),
      /"oauth.grant" must be one of authorization_code, client_credentials/,
    );
    assert.throws(
      () => parseOAuthSettings({ grant: 'client_credentials', clientId: 'a' }, where),
      /needs either "clientSecret" or "privateKeyFile"/,
    );
    assert.throws(() => parseOAuthSettings({ grant: 'jwt_bearer' }, where), /needs either "assertionFile" or "assertionEnv"/);
    assert.throws(
      () => parseOAuthSettings({ grant: 'enterprise', clientId: 'a', clientSecret: 'b', idpIssuer: 'https://idp' }, where),
      /needs "idpClientId"/,
    );
    assert.throws(
      () => parseOAuthSettings({ clientId: 'a', assertionFile: '/x' }, where),
      /"assertionFile" does not apply to the authorization_code grant/,
    );
  });
});
