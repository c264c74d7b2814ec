/**
 * The server log level the host asks for (MCP 2026-07-28 "Logging"): with each leg's
 * `_meta["io.modelcontextprotocol/logLevel"]` on a 2026-07-28 connection, never on a 2025-era one
 * (it is asked with logging/setLevel there); the setting's values.
 */
import assert from 'node:assert/strict';
import { serverLogLevel } from '../../../src/core/log/serverLogLevel';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { scriptedConnection } from '../../support/inMemory';
import { askName, done } from '../../support/scripted';
import { scriptedProvider } from '../../support/providers';

const KEY = 'io.modelcontextprotocol/logLevel';

async function metasOf(opts: { legacy?: boolean; logLevel?: 'debug' }): Promise<unknown[]> {
  const s = scriptedConnection(
    (m, n) => (n === 1 ? askName('who') : done()),
    {
      provider: scriptedProvider({ who: { action: 'accept', content: { name: 'Ada' } } }),
      ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
    },
    { legacy: opts.legacy },
  );
  try {
    await callWithRoundTrips(s.conn, 'tools/call', { name: 't', arguments: {} });
    return s.requests('tools/call').map((r) => r.params._meta?.[KEY]);
  } finally {
    await s.conn.close();
  }
}

describe('server log level in _meta (2026-07-28)', () => {
  it('goes with every leg of a 2026-07-28 call', async () => {
    assert.deepEqual(await metasOf({ logLevel: 'debug' }), ['debug', 'debug']);
  });

  it('is not sent when none is asked, nor to a 2025-era server', async () => {
    assert.deepEqual(await metasOf({}), [undefined, undefined]);
    const legacy = await metasOf({ legacy: true, logLevel: 'debug' });
    assert.ok(legacy.length > 0 && legacy.every((m) => m === undefined), String(legacy));
  });

  it('the setting: a level, "off" for none, anything else the default (info)', () => {
    assert.equal(serverLogLevel('warning'), 'warning');
    assert.equal(serverLogLevel('off'), undefined);
    assert.equal(serverLogLevel('loud'), 'info');
    assert.equal(serverLogLevel(undefined), 'info');
  });
});
