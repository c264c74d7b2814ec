/**
 * The CLI's sign-in flags (src/cli/oauthFlags.ts): the settings each combination gives, the grant
 * implied when `--grant` is not given, secrets read from the environment only, errors in the flags'
 * words.
 */
import assert from 'node:assert/strict';
import { parseCli, UsageError } from '../../../src/cli/args';
import { oauthSettingsFromFlags } from '../../../src/cli/oauthFlags';

const usage = (m: string) => new UsageError(m);

describe('CLI sign-in flags', () => {
  it('give the oauth settings of the --http server, the secret read from the variable named', () => {
    process.env.OAUTH_FLAGS_TEST_SECRET = 'shh';
    try {
      const opts = parseCli([
        '--http',
        'https://mcp.example/mcp',
        '--client-id',
        'bot',
        '--client-secret-env',
        'OAUTH_FLAGS_TEST_SECRET',
        'tools',
      ]);
      assert.deepEqual(opts.server?.transport === 'http' && opts.server.oauth, {
        grant: 'client_credentials',
        clientId: 'bot',
        clientSecret: 'shh',
      });
    } finally {
      delete process.env.OAUTH_FLAGS_TEST_SECRET;
    }
  });

  it('imply the grant from what is given; --grant authorization_code keeps a browser sign-in with a registered client', () => {
    const env = { S: 'x' };
    assert.equal(oauthSettingsFromFlags({ 'assertion-file': '/t' }, env, usage)?.grant, 'jwt_bearer');
    assert.equal(oauthSettingsFromFlags({ 'client-id': 'c', 'private-key-file': '/k' }, env, usage)?.grant, 'client_credentials');
    assert.deepEqual(
      oauthSettingsFromFlags(
        { 'client-id': 'c', 'client-secret-env': 'S', 'id-token-file': '/i', 'idp-issuer': 'https://idp', 'idp-client-id': 'i' },
        env,
        usage,
      ),
      { grant: 'enterprise', clientId: 'c', clientSecret: 'x', idTokenFile: '/i', idpIssuer: 'https://idp', idpClientId: 'i' },
    );
    assert.deepEqual(oauthSettingsFromFlags({ grant: 'authorization_code', 'client-id': 'c', 'client-secret-env': 'S' }, env, usage), {
      clientId: 'c',
      clientSecret: 'x',
    });
    assert.equal(oauthSettingsFromFlags({}, env, usage), undefined);
  });

  it('refuse a secret on the command line and speak of flags, not settings', () => {
    assert.throws(() => oauthSettingsFromFlags({ 'idp-client-secret': 'x' }, {}, usage), /--idp-client-secret is not taken/);
    assert.throws(() => oauthSettingsFromFlags({ grant: 'password' }, {}, usage), /--grant must be one of/);
    assert.throws(
      () => oauthSettingsFromFlags({ grant: 'enterprise', 'client-id': 'c', 'client-secret-env': 'S' }, { S: 'x' }, usage),
      /the enterprise grant needs --idp-issuer/,
    );
  });
});
