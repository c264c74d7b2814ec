/**
 * A refused client (`invalid_client`) names the settings and flags that hold the client's credentials,
 * so the person knows what to fix; other OAuth errors are said as the server answered them.
 */
import assert from 'node:assert/strict';
import { OAuthError } from '@modelcontextprotocol/client';
import { signInError } from '../../../src/core/oauth/authErrors';

describe('sign-in errors', () => {
  const ctx = { server: 'ci-server', asName: 'auth.example.com', notJson: [] };

  it('invalid_client says which settings and flags hold the client id and secret', () => {
    const e = signInError(new OAuthError('invalid_client', 'client authentication failed'), ctx);
    assert.equal(e.kind, 'auth');
    assert.match(
      e.message,
      /^signing in to ci-server failed: auth\.example\.com answered invalid_client: client authentication failed; check the client's id and its secret or key \("clientId", "clientSecret" or "privateKeyFile"; the CLI: --client-id, --client-secret-env, --private-key-file\)$/,
    );
  });

  it('another OAuth error is said as answered, with no advice about the client', () => {
    const e = signInError(new OAuthError('invalid_scope', 'unknown scope'), ctx);
    assert.equal(e.message, 'signing in to ci-server failed: auth.example.com answered invalid_scope: unknown scope');
  });
});
