/**
 * The output channel under a stdio server flooding its stderr: the channel gets a bounded number of
 * lines and one line counting what was dropped (runs RoundTripLog under plain Node with the bench's
 * `vscode` stub, whose channels record their lines).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { STDERR_LOG_LINES_PER_WINDOW } from '../../../src/core/limits';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { scriptedProvider } from '../../support/providers';
import { useVscodeStub } from '../../support/vscodeStub';

const SERVER = path.resolve(__dirname, '..', '..', 'fixtures', 'hostile', 'stdioServer.mjs');

describe('the MCP Roundtrip output channel: a stderr flood', function () {
  this.timeout(30_000);
  useVscodeStub();

  it('50 000 stderr lines: the channel logs at most the rate, and says how many it dropped', async () => {
    const { RoundTripLog } = require('../../../src/vscode/shared/roundTripLog') as typeof import('../../../src/vscode/shared/roundTripLog');
    const log = new RoundTripLog();
    const conn = new ServerConnection(
      { transport: 'stdio', name: 'flood', command: process.execPath, args: [SERVER, 'stderr-flood', '50000'], era: 'modern' },
      { provider: scriptedProvider({}), onEvent: log.event },
    );
    const started = Date.now();
    await callWithRoundTrips(conn, 'tools/call', { name: 't', arguments: {} });
    await conn.close();
    const seconds = Math.ceil((Date.now() - started) / 1000) + 1;
    const lines = (log.channel as unknown as { lines: string[] }).lines;
    const stderr = lines.filter((l) => l.includes('] stderr: flood line')).length;
    const dropped = lines
      .map((l) => /\[flood\] (\d+) more stderr lines not logged/.exec(l))
      .reduce((n, m) => n + (m ? Number(m[1]) : 0), 0);
    assert.ok(stderr <= STDERR_LOG_LINES_PER_WINDOW * seconds, `${stderr} stderr lines in ${seconds} s`);
    assert.equal(stderr + dropped, 50_000, 'every line is logged or counted');
  });
});
