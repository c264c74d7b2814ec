/**
 * Whether a 2026-07-28 server also speaks 2025 is learnt from the 2025 handshake itself:
 * `server/discover` does not say (the SDK's servers list only 2026-07-28 there). The demo server
 * (the SDK's serveStdio) answers `initialize`; a server that speaks only 2026-07-28 refuses it.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { answersLegacyHandshake } from '../../../src/core/chat/eraProbe';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { NO_INPUTS } from '../../../src/core/inputs/inputProvider';
import { DIST, ensureBuilt, ROOT } from '../../support/build';

const stdio = (name: string, script: string) => ({ transport: 'stdio' as const, name, command: process.execPath, args: [script] });

describe('chat era probe (the 2025 handshake)', function () {
  this.timeout(30_000);
  before(() => ensureBuilt());

  it('the demo lists only 2026-07-28 in server/discover, yet answers the 2025 initialize', async () => {
    const spec = stdio('demo', path.join(DIST, 'demo-server.js'));
    const modern = new ServerConnection({ ...spec, era: 'modern' }, { provider: NO_INPUTS });
    try {
      await modern.ensureConnected();
      assert.deepEqual(modern.supportedVersions, ['2026-07-28']);
    } finally {
      await modern.close();
    }
    assert.equal(await answersLegacyHandshake(spec), true);
  });

  it('a server that speaks only 2026-07-28 refuses it', async () => {
    assert.equal(await answersLegacyHandshake(stdio('probe', path.join(ROOT, 'test', 'fixtures', 'samplingProbeServer.mjs'))), false);
  });

  it('a server that never answers counts as not speaking it, within the time given', async () => {
    const started = Date.now();
    const mute = { ...stdio('mute', '-e'), args: ['-e', 'setInterval(() => {}, 1 << 30)'] };
    assert.equal(await answersLegacyHandshake(mute, 300).catch(() => 'threw'), false);
    assert.ok(Date.now() - started < 10_000);
  });
});
