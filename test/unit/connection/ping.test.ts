/**
 * Ping (src/core/connection/ping.ts), shared by the CLI's `ping` and VS Code's Ping Server: a 2025-era
 * server is sent `ping` and its time said; a 2026-07-28 server (no ping) is sent nothing and is said to
 * have answered server/discover; a ping past its time limit fails naming it.
 */
import assert from 'node:assert/strict';
import { pingLine, pingServer } from '../../../src/core/connection/ping';
import { NO_INPUTS } from '../../../src/core/inputs/inputProvider';
import { scriptedConnection } from '../../support/inMemory';

describe('ping: core logic and its line', function () {
  this.timeout(20_000);

  it('a 2025-era server is sent ping, and the line gives its round-trip time', async () => {
    const s = scriptedConnection(() => ({ result: {} }), { provider: NO_INPUTS }, { legacy: true });
    try {
      const answer = await pingServer(s.conn, { timeoutMs: 5_000 });
      assert.equal(answer.era, 'legacy');
      assert.equal(s.requests('ping').length, 1);
      assert.match(pingLine('everything', answer), /^pong from everything in \d+ ms$/);
    } finally {
      await s.conn.close();
    }
  });

  it('a 2026-07-28 server is sent no ping: it answered server/discover', async () => {
    const s = scriptedConnection(() => ({ result: {} }), { provider: NO_INPUTS });
    try {
      const answer = await pingServer(s.conn, { timeoutMs: 5_000 });
      assert.deepEqual(answer, { era: 'modern' });
      assert.equal(s.requests('ping').length, 0, 'no request the server does not know');
      assert.equal(pingLine('demo', answer), 'demo speaks 2026-07-28, which has no ping: it answered server/discover when connecting');
    } finally {
      await s.conn.close();
    }
  });

  it('a 2025-era server that never answers the ping fails at the time limit', async () => {
    const s = scriptedConnection(() => new Promise(() => {}), { provider: NO_INPUTS }, { legacy: true });
    try {
      await assert.rejects(pingServer(s.conn, { timeoutMs: 300 }), /time limit|timed out|300 ms/i);
    } finally {
      await s.conn.close();
    }
  });
});
