/**
 * The HTTP transport's fetch with a server's OAuth (src/core/oauth/authorizedFetch.ts) and the
 * sign-ins counted per operation (signInAttempts.ts): the token on every request (a request without
 * one goes as it came), a token about to expire refreshed first, a refusal turned into the host's
 * error naming the operation, and a request that goes through starting its operation's count over —
 * the request being named (its body parsed) only when that is needed.
 */
import assert from 'node:assert/strict';
import type { FetchLike } from '@modelcontextprotocol/client';
import { authorizedFetch, type FetchAuthorization } from '../../../src/core/oauth/authorizedFetch';
import type { AuthChallenge } from '../../../src/core/oauth/challenge';
import type { TokenRecord } from '../../../src/core/oauth/credentials';
import { SignInAttempts } from '../../../src/core/oauth/signInAttempts';

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_file', arguments: {} } });

function record(access: string, extra: Partial<TokenRecord['tokens']> = {}, savedAt = Date.now()): TokenRecord {
  return { tokens: { access_token: access, token_type: 'Bearer', ...extra }, savedAt, issuer: 'https://as.test' };
}

/** An authorization whose calls are recorded; `tokens` is what it holds (a refresh swaps in `refreshed`). */
function authorization(tokens: TokenRecord | undefined, refreshed?: TokenRecord, signingIn = false) {
  const seen = { refreshes: 0, succeeded: [] as (() => string)[], challenged: [] as AuthChallenge[] };
  let held = tokens;
  const auth: FetchAuthorization = {
    tokens: async () => held,
    signingIn: () => signingIn,
    refresh: async () => {
      seen.refreshes++;
      held = refreshed;
    },
    succeeded: (operation) => void seen.succeeded.push(operation),
    challenged: (challenge) => {
      seen.challenged.push(challenge);
      return new Error(`refused: ${challenge.status}`);
    },
  };
  return { auth, seen };
}

/** An inner fetch answering `status`, keeping what it was given. */
function inner(status: number, headers: Record<string, string> = {}) {
  const calls: { init?: RequestInit }[] = [];
  const fetch: FetchLike = async (_url, init) => {
    calls.push({ init });
    return new Response(status === 204 ? null : '{}', { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  return { fetch, calls };
}

describe('authorizedFetch (a server with OAuth)', () => {
  it('sends the token as a Bearer Authorization header', async () => {
    const { auth } = authorization(record('tok-1'));
    const net = inner(200);
    await authorizedFetch(net.fetch, auth)('https://mcp.test/mcp', {
      method: 'POST',
      body: BODY,
      headers: new Headers({ accept: 'application/json' }),
    });
    const sent = new Headers(net.calls[0].init?.headers);
    assert.equal(sent.get('authorization'), 'Bearer tok-1');
    assert.equal(sent.get('accept'), 'application/json');
  });

  it('hands a request on as it came when there is no token', async () => {
    const { auth } = authorization(undefined);
    const net = inner(200);
    const init = { method: 'POST', body: BODY, headers: new Headers() };
    await authorizedFetch(net.fetch, auth)('https://mcp.test/mcp', init);
    assert.equal(net.calls[0].init, init);
  });

  it('refreshes a token that expires within a minute before sending, and sends the new one', async () => {
    const { auth, seen } = authorization(record('old', { refresh_token: 'r', expires_in: 30 }), record('new', { expires_in: 3600 }));
    const net = inner(200);
    await authorizedFetch(net.fetch, auth)('https://mcp.test/mcp', { method: 'POST', body: BODY });
    assert.equal(seen.refreshes, 1);
    assert.equal(new Headers(net.calls[0].init?.headers).get('authorization'), 'Bearer new');
  });

  it('does not refresh while a sign-in runs: the token held is sent', async () => {
    const { auth, seen } = authorization(record('old', { refresh_token: 'r', expires_in: 30 }), record('new'), true);
    const net = inner(200);
    await authorizedFetch(net.fetch, auth)('https://mcp.test/mcp', { method: 'POST', body: BODY });
    assert.equal(seen.refreshes, 0);
    assert.equal(new Headers(net.calls[0].init?.headers).get('authorization'), 'Bearer old');
  });

  it('turns a 401 into the host error, with the challenge and the operation it refused', async () => {
    const { auth, seen } = authorization(record('tok'));
    const net = inner(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
    await assert.rejects(authorizedFetch(net.fetch, auth)('https://mcp.test/mcp', { method: 'POST', body: BODY }), /refused: 401/);
    assert.equal(seen.challenged.length, 1);
    assert.equal(seen.challenged[0].status, 401);
    assert.equal(seen.challenged[0].operation, 'tools/call write_file');
    assert.equal(seen.challenged[0].hadToken, true);
    assert.equal(seen.challenged[0].error, 'invalid_token');
    assert.equal(seen.succeeded.length, 0);
  });

  it('passes an ordinary 403 (no insufficient_scope) through as the response', async () => {
    const { auth, seen } = authorization(record('tok'));
    const net = inner(403);
    const res = await authorizedFetch(net.fetch, auth)('https://mcp.test/mcp', { method: 'POST', body: BODY });
    assert.equal(res.status, 403);
    assert.equal(seen.challenged.length, 0);
  });

  it('tells a request that went through by its operation, named from the body only when asked', async () => {
    const { auth, seen } = authorization(record('tok'));
    await authorizedFetch(inner(200).fetch, auth)('https://mcp.test/mcp', { method: 'POST', body: BODY });
    assert.equal(seen.succeeded.length, 1);
    assert.equal(seen.succeeded[0](), 'tools/call write_file');
  });
});

describe('sign-ins counted per operation', () => {
  it('a request that goes through starts its own operation over, not another one', () => {
    const attempts = new SignInAttempts();
    attempts.count('tools/call write_file');
    attempts.count('tools/call write_file');
    attempts.count('tools/call read_file');
    attempts.succeeded(() => 'tools/call write_file');
    assert.equal(attempts.recent('tools/call write_file'), 0);
    assert.equal(attempts.recent('tools/call read_file'), 1);
  });

  it('does not name the request when no operation is counted', () => {
    const attempts = new SignInAttempts();
    let named = 0;
    attempts.succeeded(() => {
      named++;
      return 'tools/call write_file';
    });
    assert.equal(named, 0);
  });
});
