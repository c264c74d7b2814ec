/**
 * The VS Code ID token source of the enterprise sign-in: a session of the configured authentication
 * provider, asked with `openid`; a provider without an ID token, or none configured, is named.
 */
import assert from 'node:assert/strict';
import { HostError } from '../../../src/core/util/errors';
import { useVscodeStub } from '../../support/vscodeStub';

describe('vscodeIdTokens', () => {
  useVscodeStub();
  let calls: { provider: string; scopes: readonly string[]; options: unknown }[];
  let session: Record<string, unknown> | undefined;
  let saved: unknown;
  let api: Record<string, unknown>;
  before(() => {
    api = require('vscode') as Record<string, unknown>;
    saved = api.authentication;
  });
  beforeEach(() => {
    calls = [];
    session = undefined;
    api.authentication = {
      getSession: (provider: string, scopes: readonly string[], options: unknown) => {
        calls.push({ provider, scopes, options });
        return Promise.resolve(session);
      },
    };
  });
  after(() => (api.authentication = saved));

  function source(trusted = true) {
    const m = require('../../../src/vscode/oauth/vscodeIdTokens') as typeof import('../../../src/vscode/oauth/vscodeIdTokens');
    return m.vscodeIdTokens((server) => {
      if (!trusted) throw new HostError('auth', `not signing in to ${server}: untrusted`);
    });
  }

  it("takes the session's idToken of the named provider, asked with openid and the configured scopes, creating the session", async () => {
    session = { id: 's', accessToken: 'graph.access.token', idToken: 'the.ms.id.token', account: { id: 'a', label: 'a@corp' }, scopes: [] };
    const token = await source().idToken({
      server: 'corp',
      settings: { grant: 'enterprise', idToken: { authenticationProvider: 'microsoft', scopes: ['email', 'api://corp/.default'] } },
    });
    assert.equal(token, 'the.ms.id.token');
    assert.deepEqual(calls, [
      { provider: 'microsoft', scopes: ['openid', 'email', 'api://corp/.default'], options: { createIfNone: true } },
    ]);
  });

  it('a provider whose session has no ID token is named, with what to configure', async () => {
    session = { id: 's', accessToken: 'gh.token', account: { id: 'a', label: 'a' }, scopes: [] };
    await assert.rejects(
      source().idToken({ server: 'corp', settings: { grant: 'enterprise', idToken: { authenticationProvider: 'github' } } }),
      /provider "github" gives no ID token with its session; use "microsoft", or set "oauth.idTokenFile"/,
    );
    assert.deepEqual(calls[0].scopes, ['openid', 'profile', 'email']);
  });

  it('no provider configured, or an untrusted workspace: refused before VS Code is asked', async () => {
    await assert.rejects(
      source().idToken({ server: 'corp', settings: { grant: 'enterprise' } }),
      /set "oauth.idTokenFile", or "oauth.idToken"/,
    );
    await assert.rejects(
      source(false).idToken({ server: 'corp', settings: { grant: 'enterprise', idToken: { authenticationProvider: 'microsoft' } } }),
      /untrusted/,
    );
    assert.equal(calls.length, 0);
  });
});
