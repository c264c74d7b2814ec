/**
 * What the Servers view says of a server's sign-in: which grant without a person it uses and where
 * its credential comes from; nothing for the browser sign-in; never a secret.
 */
import assert from 'node:assert/strict';
import { grantText } from '../../../src/core/oauth/signedInText';

describe('grantText (the Servers view: which sign-in a server uses)', () => {
  it('enterprise: the ID token source, the IdP host and its client', () => {
    assert.equal(
      grantText({
        grant: 'enterprise',
        clientId: 'mcp-client',
        clientSecret: 'mcp-secret-value',
        idpIssuer: 'https://login.corp.example/tenant',
        idpClientId: 'corp-mcp',
        idpClientSecret: 'idp-secret-value',
        idTokenFile: '/run/idp/token',
      }),
      'enterprise sign-in: ID token from /run/idp/token at login.corp.example, via the IdP client corp-mcp as mcp-client',
    );
  });

  it('client credentials, workload identity; nothing for the browser sign-in or no oauth entry', () => {
    const secret = grantText({ grant: 'client_credentials', clientId: 'ci-bot', clientSecret: 's3cret-value' })!;
    assert.equal(secret, 'client credentials sign-in: a client secret as ci-bot');
    assert.ok(!secret.includes('s3cret-value'));
    assert.equal(
      grantText({ grant: 'client_credentials', clientId: 'ci-bot', privateKeyFile: '/k.pem' }),
      'client credentials sign-in: a private key JWT as ci-bot',
    );
    assert.equal(
      grantText({ grant: 'jwt_bearer', assertionEnv: 'WORKLOAD_TOKEN' }),
      "workload identity sign-in: the workload's token from $WORKLOAD_TOKEN",
    );
    assert.equal(grantText({ clientId: 'x' }), undefined);
    assert.equal(grantText(false), undefined);
    assert.equal(grantText(undefined), undefined);
  });
});
