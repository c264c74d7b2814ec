/** The one line describing a server in the pickers and the view (src/vscode/servers/serverDetail.ts). */
import assert from 'node:assert/strict';
import type { ConnectionStatus } from '../../../src/core/connection/connectionState';
import { useVscodeStub } from '../../support/vscodeStub';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

const def = { name: 'demo', source: { kind: 'settings' as const, location: 'user setting mcpRoundtrip.servers' } };
const entry = (over: Partial<ServerEntry> = {}): ServerEntry => ({ name: 'demo', def, ...over });
const connection = (status: ConnectionStatus, era?: 'modern' | 'legacy', protocolVersion?: string) =>
  ({ status, state: status.kind, era, protocolVersion }) as unknown as ServerEntry['connection'];

describe('server detail line', () => {
  // Its texts go through vscode.l10n.t (English under the stub).
  useVscodeStub();
  let serverDetail: typeof import('../../../src/vscode/servers/serverDetail').serverDetail;
  before(() => {
    serverDetail = (require('../../../src/vscode/servers/serverDetail') as typeof import('../../../src/vscode/servers/serverDetail'))
      .serverDetail;
  });

  it('held back, misconfigured, or not started (with where it is defined)', () => {
    assert.equal(serverDetail(entry({ heldBack: 'untrusted' })), 'held back (untrusted workspace)');
    assert.equal(serverDetail(entry({ error: 'unknown variable ${foo}' })), 'configuration problem: unknown variable ${foo}');
    assert.equal(serverDetail(entry()), 'not started · user setting mcpRoundtrip.servers');
    assert.equal(
      serverDetail(entry({ connection: connection({ kind: 'idle', message: 'server demo closed the connection' }) })),
      'not started · user setting mcpRoundtrip.servers',
    );
  });

  it("the state, the era and protocol version, and the state's message", () => {
    assert.equal(serverDetail(entry({ connection: connection({ kind: 'connected' }, 'modern', '2026-07-28') })), 'connected · 2026-07-28');
    assert.equal(
      serverDetail(entry({ connection: connection({ kind: 'connected' }, 'legacy', '2025-11-25') })),
      'connected · 2025-11-25 (legacy)',
    );
    assert.equal(
      serverDetail(
        entry({ connection: connection({ kind: 'closed', message: 'server demo closed the connection' }, 'modern', '2026-07-28') }),
      ),
      'closed · 2026-07-28 · server demo closed the connection',
    );
    assert.equal(
      serverDetail(entry({ connection: connection({ kind: 'error', message: 'could not connect to demo: ENOENT' }) })),
      'error · could not connect to demo: ENOENT',
    );
  });
});
