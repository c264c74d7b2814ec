/**
 * Connecting is bounded by the call's time limit and by cancellation like every other wait: a server
 * silent on the handshake (server/discover, initialize) cannot hold the CLI past --timeout-ms or a
 * Ctrl-C, and the error says what happened instead of blaming version negotiation.
 */
import assert from 'node:assert/strict';
import { startHostileHttp, type HostileHttp } from '../../fixtures/hostile/httpServer';
import { INTERNAL_ERROR_TEXT, hostileStdio, runHostCli } from '../../support/hostile';

describe('CLI: connecting to a server that never answers the handshake', function () {
  this.timeout(60_000);
  let http: HostileHttp | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });
  const target = async (transport: 'stdio' | 'http', mode: 'silent-discover' = 'silent-discover') => {
    if (transport === 'stdio') return ['--stdio', hostileStdio(mode)];
    http = await startHostileHttp({ kind: mode });
    return ['--http', http.url];
  };

  for (const transport of ['stdio', 'http'] as const) {
    for (const era of ['modern', 'auto'] as const) {
      it(`${transport}, --era ${era}: a 3 s --timeout-ms call ends at its limit (exit 4), saying it was connecting`, async () => {
        const r = await runHostCli([...(await target(transport)), '--era', era, 'call', 't', '--timeout-ms', '3000']);
        assert.equal(r.code, 4, r.err);
        assert.match(r.err, /tools\/call t on \S+ exceeded its time limit of 3000 ms .*, while connecting to \S+/);
        assert.doesNotMatch(r.err, /negotiation/i);
        // The handshake's own limit is 30 s (it was 60 s with the 2025 fallback): the call's 3 s applies,
        // with room for a loaded machine.
        assert.ok(r.ms < 20_000, `${r.ms} ms`);
      });

      it(`${transport}, --era ${era}: a Ctrl-C while connecting ends the call at once (exit 130)`, async () => {
        const r = await runHostCli([...(await target(transport)), '--era', era, '--verbose', 'call', 't'], { cancelWhen: /connecting…/ });
        assert.equal(r.code, 130, r.err);
        assert.match(r.err, /cancelled.*while connecting to \S+/);
        assert.ok(r.ms < 10_000, `${r.ms} ms`);
      });
    }
  }

  it('listing (tools) is bounded by --timeout-ms too', async () => {
    const r = await runHostCli([...(await target('stdio')), '--era', 'auto', 'tools', '--timeout-ms', '2000']);
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /tools\/list on stdioServer exceeded its time limit of 2000 ms, while connecting to stdioServer/);
  });

  it('a server refusing the handshake with HTTP 401 is named as such, not as a negotiation failure', async () => {
    http = await startHostileHttp({ kind: 'refuse-all', status: 401, text: 'token expired' });
    // With a credential of its own (no OAuth sign-in), the refusal is the error.
    const r = await runHostCli(['--http', http.url, '--header', 'Authorization=Bearer stale', 'call', 't']);
    assert.equal(r.code, 1, r.err);
    assert.match(
      r.err,
      /could not connect to 127\.0\.0\.1:\d+: HTTP 401 Unauthorized: the server needs credentials .*; the server said: token expired/,
    );
    assert.doesNotMatch(r.err, INTERNAL_ERROR_TEXT);
    // Without one, a 401 asks for a sign-in, which a CLI without a terminal cannot do: exit 5, saying what to do.
    const signIn = await runHostCli(['--http', http.url, '--oauth-store', 'memory', 'call', 't']);
    assert.equal(signIn.code, 5, signIn.err);
    assert.match(
      signIn.err,
      /needs a sign-in \(it answered 401\), and none can be done here: stdin is not a terminal\. Run the same command once in a terminal to sign in/,
    );
    assert.doesNotMatch(signIn.err, INTERNAL_ERROR_TEXT);
    assert.doesNotMatch(signIn.err, /negotiat/i);
  });
});
