// A HeaderMismatch (-32020) on a 2026-07-28 HTTP connection: the host lists the tools again and
// sends the request once more (spec: Streamable HTTP, custom headers from tool parameters: the
// client SHOULD re-list and retry once), then reports a second mismatch.
import assert from 'node:assert/strict';
import { HEADER_MISMATCH } from '../../../src/core/connection/mirroredLeg';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { HostEvent } from '../../../src/core/log/events';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { HostError } from '../../../src/core/util/errors';
import { startHostileHttp, type HostileHttp } from '../../fixtures/hostile/httpServer';
import { scriptedProvider } from '../../support/providers';

describe('a HeaderMismatch answer (HTTP, 2026-07-28)', function () {
  this.timeout(20_000);
  let server: HostileHttp;
  let conn: ServerConnection;
  const events: HostEvent[] = [];
  const open = async (times: number, delays: { mismatchMs?: number; relistMs?: number } = {}) => {
    server = await startHostileHttp({ kind: 'header-mismatch', times, ...delays });
    conn = new ServerConnection(
      { transport: 'http', name: 'hm', url: server.url, era: 'modern' },
      { provider: scriptedProvider({}), onEvent: (e) => events.push(e) },
    );
  };
  afterEach(async () => {
    await conn.close();
    await server.close();
    events.length = 0;
  });

  it('is answered by listing the tools again and sending the call once more', async () => {
    await open(1);
    const r = await callWithRoundTrips(conn, 'tools/call', { name: 't', arguments: { region: 'eu' } });
    assert.deepEqual(r.result.content, [{ type: 'text', text: 'answered after 2 call(s)' }]);
    assert.deepEqual(server.methods, ['server/discover', 'tools/list', 'tools/call', 'tools/list', 'tools/call']);
    assert.ok(events.some((e) => e.kind === 'serverWarning' && /HeaderMismatch \(-32020\): tools listed again/.test(e.message)));
  });

  it('a second HeaderMismatch is reported, with its code; there is no third try', async () => {
    await open(5);
    await assert.rejects(
      callWithRoundTrips(conn, 'tools/call', { name: 't', arguments: { region: 'eu' } }),
      (e: unknown) => e instanceof HostError && e.kind === 'server' && e.code === HEADER_MISMATCH && /HeaderMismatch/.test(e.message),
    );
    assert.equal(server.methods.filter((m) => m === 'tools/call').length, 2);
  });

  describe('on a call whose tool headers are known already (the tools listed before: the leg sent at once)', () => {
    it('is answered the same: the tools listed again, the call sent once more', async () => {
      await open(1);
      await conn.list('tools');
      const r = await callWithRoundTrips(conn, 'tools/call', { name: 't', arguments: { region: 'eu' } });
      assert.deepEqual(r.result.content, [{ type: 'text', text: 'answered after 2 call(s)' }]);
      assert.deepEqual(server.methods, ['server/discover', 'tools/list', 'tools/call', 'tools/list', 'tools/call']);
    });

    it('a second HeaderMismatch is reported; there is no third try', async () => {
      await open(5);
      await conn.list('tools');
      await assert.rejects(
        callWithRoundTrips(conn, 'tools/call', { name: 't', arguments: { region: 'eu' } }),
        (e: unknown) => e instanceof HostError && e.kind === 'server' && e.code === HEADER_MISMATCH,
      );
      assert.deepEqual(server.methods, ['server/discover', 'tools/list', 'tools/call', 'tools/list', 'tools/call']);
    });

    it('is written before sendLeg returns: no wait on that path', async () => {
      await open(0);
      await conn.list('tools');
      let sent = false;
      const leg = conn.sendLeg('tools/call', { name: 't', arguments: { region: 'eu' } }, { timeoutMs: 5000, onSent: () => (sent = true) });
      assert.equal(sent, true);
      await leg;
    });

    it("after a mismatch the listing again is bounded by what is left of the leg's limit, and the limit named is the leg's", async () => {
      await open(1, { mismatchMs: 300, relistMs: 5000 });
      await conn.list('tools');
      // Unbounded, the listing (5 s) would end and the call go through: it fails at the leg's limit instead.
      await assert.rejects(
        conn.sendLeg('tools/call', { name: 't', arguments: { region: 'eu' } }, { timeoutMs: 600 }),
        (e: unknown) => e instanceof HostError && e.kind === 'timeLimit' && /time limit of 600 ms/.test(e.message),
      );
    });
  });
});
