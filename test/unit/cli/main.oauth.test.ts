/**
 * The CLI's sign-in contract, as a real process against a real authorization server (the oidc-provider
 * fixture): without a terminal it exits 5 naming what to do; the sign-ins file is 0600 and holds the
 * token, which appears on neither stdout nor stderr; `auth logout <url>` forgets it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Credentials } from '../../../src/core/oauth/credentials';
import { headlessDriver } from '../../../src/core/oauth/headlessDriver';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { FileOAuthStore } from '../../../src/cli/oauthFileStore';
import { DIST, ensureBuilt } from '../../support/build';
import { startOAuthFixture, type OAuthFixture } from '../../support/oauthFixture';
import { scriptedProvider } from '../../support/providers';

const CLI = join(DIST, 'cli.js');

describe('CLI sign-in', function () {
  this.timeout(60_000);
  let fx: OAuthFixture;
  const config = mkdtempSync(join(tmpdir(), 'mcp-rt-cli-oauth-'));
  const run = (args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, MCP_ROUNDTRIP_CONFIG_DIR: config },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  before(async () => {
    ensureBuilt();
    fx = await startOAuthFixture();
  });
  after(() => fx?.stop());

  it('without a terminal and without a token: exit 5, saying how to sign in; nothing registered', async () => {
    const r = run(['--http', fx.mcpUrl, 'tools']);
    assert.equal(r.status, 5, r.stderr);
    assert.match(r.stderr, /needs a sign-in .*stdin is not a terminal\. Run the same command once in a terminal/);
    assert.equal((await fx.stats()).registrations, 0);
  });

  it('with --oauth-store memory: exit 5 says a sign-in lasts one run (none is kept from an earlier one), said once', async () => {
    const r = run(['--http', fx.mcpUrl, '--oauth-store', 'memory', 'tools']);
    assert.equal(r.status, 5, r.stderr);
    assert.match(r.stderr, /with --oauth-store memory, a sign-in lasts that one run: none is kept from an earlier one/);
    assert.doesNotMatch(r.stderr, /the sign-in is kept in/);
    assert.equal(r.stderr.match(/needs a sign-in/g)?.length, 1, r.stderr);
  });

  it('a kept sign-in (0600 file) is used without a terminal; auth logout forgets it and exit 5 comes back', async () => {
    // Sign in once through the same store file, as an earlier run in a terminal would have.
    const file = join(config, 'oauth.json');
    const conn = new ServerConnection(
      { transport: 'http', name: 'p', url: fx.mcpUrl },
      { provider: scriptedProvider({}), oauth: { store: new FileOAuthStore(file), driver: headlessDriver(), callbackPort: 0 } },
    );
    await conn.list('tools');
    await conn.close();
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(config).mode & 0o077, 0, "the folder is the user's only");
    const token = (await new Credentials(new FileOAuthStore(file)).tokens(fx.mcpUrl))!.tokens.access_token;
    assert.ok(readFileSync(file, 'utf8').includes(token));

    const r = run(['--http', fx.mcpUrl, 'call', 'where_am_i', '--roots', config, '--verbose']);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!r.stdout.includes(token) && !r.stderr.includes(token), 'the token is in no output');

    const out = run(['auth', 'logout', fx.mcpUrl]);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /^signed out of http:\/\/127\.0\.0\.1:\d+\/mcp/);
    assert.ok(!readFileSync(file, 'utf8').includes(token));
    assert.equal(run(['--http', fx.mcpUrl, 'tools']).status, 5);
    assert.match(run(['auth', 'logout', fx.mcpUrl]).stdout, /^not signed in to /);
  });

  /** The CLI in CI: no terminal, the fixture's CI client with its secret from CI_BOT_SECRET, `where_am_i` called. */
  const callWithClientCredentials = (f: { mcpUrl: string; ciClient: { id: string; secret: string } }) =>
    spawnSync(
      process.execPath,
      [
        CLI,
        '--http',
        f.mcpUrl,
        '--client-id',
        f.ciClient.id,
        '--client-secret-env',
        'CI_BOT_SECRET',
        '--oauth-store',
        'memory',
        'call',
        'where_am_i',
        '--roots',
        config,
        '--verbose',
      ],
      {
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, MCP_ROUNDTRIP_CONFIG_DIR: config, CI_BOT_SECRET: f.ciClient.secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );

  it('client credentials from CI: no terminal, the secret from an environment variable, a tool called; the secret in no output', async () => {
    const before = await fx.stats();
    const r = callWithClientCredentials(fx);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /client credentials/);
    const stats = await fx.stats();
    assert.equal(stats.tokenRequests, before.tokenRequests + 1);
    assert.equal(stats.authorizations, before.authorizations, 'no browser sign-in');
    assert.equal(stats.registrations, before.registrations);
    const [token] = (await fx.tokens()).slice(-1);
    for (const secret of [fx.ciClient.secret, token])
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'a secret in the output');
  });

  it('client credentials with DPoP: the resource server takes the token only with a proof it checks (jkt, htm/htu, ath); nothing secret in the output', async () => {
    const dfx = await startOAuthFixture({ dpop: true });
    try {
      const r = callWithClientCredentials(dfx);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /where_am_i|file:\/\//);
      const stats = await dfx.stats();
      assert.equal(stats.tokenRequests, 1);
      assert.equal(stats.authorizations, 0, 'no browser sign-in');
      assert.ok(stats.dpopProofs >= 1, 'the resource server checked a DPoP proof');
      assert.equal(stats.dpopProofs, stats.accepted, 'every accepted request carried a good proof');
      const [token] = await dfx.tokens();
      assert.ok(token);
      for (const secret of [dfx.ciClient.secret, token])
        assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'a secret in the output');
      assert.doesNotMatch(r.stderr, /eyJ[\w-]+\.eyJ/, 'no proof or JWT in the output');
    } finally {
      await dfx.stop();
    }
  });

  it('sign-in flags: no secret on the command line; an unset variable and a missing part named', () => {
    assert.match(
      run(['--http', fx.mcpUrl, '--client-id', 'a', '--client-secret', 'x', 'tools']).stderr,
      /--client-secret is not taken.*--client-secret-env/,
    );
    assert.match(
      run(['--http', fx.mcpUrl, '--client-id', 'a', '--client-secret-env', 'MCP_RT_UNSET_SECRET', 'tools']).stderr,
      /MCP_RT_UNSET_SECRET is not set/,
    );
    assert.match(run(['--http', fx.mcpUrl, '--grant', 'jwt_bearer', 'tools']).stderr, /needs either --assertion-file or --assertion-env/);
    assert.match(run(['--stdio', 'node x.js', '--client-id', 'a', 'tools']).stderr, /apply to --http only/);
  });

  it('usage errors: auth without logout, logout without a URL, a bad --oauth-store', () => {
    assert.equal(run(['auth']).status, 2);
    assert.match(run(['auth', 'logout']).stderr, /needs the server URL/);
    assert.match(run(['--http', fx.mcpUrl, '--oauth-store', 'keychain', 'tools']).stderr, /--oauth-store must be file or memory/);
  });
});
