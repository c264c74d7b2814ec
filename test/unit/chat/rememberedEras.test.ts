/** The eras remembered across windows (src/vscode/chat/rememberedEras.ts): keyed by how a server is reached, merged, written only on a change. */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { RememberedEras } from '../../../src/vscode/chat/rememberedEras';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

/** A memento that counts its writes. */
function memento(): vscode.Memento & { writes: number } {
  const values = new Map<string, unknown>();
  return {
    writes: 0,
    keys: () => [...values.keys()],
    get: (key: string, fallback?: unknown) => (values.has(key) ? values.get(key) : fallback),
    update(key: string, value: unknown) {
      this.writes++;
      values.set(key, value);
      return Promise.resolve();
    },
  } as vscode.Memento & { writes: number };
}

const entry = (location: string, command = 'node'): ServerEntry => ({
  name: 's',
  def: { name: 's', command, args: ['server.js'], source: { kind: 'settings', location } },
});

describe('RememberedEras', () => {
  it('remembers by how a server is reached, not where it is defined; merges patches; writes only what changed', () => {
    const m = memento();
    const eras = new RememberedEras(m);
    assert.equal(eras.remember(entry('user setting'), { era: 'modern', supportedVersions: ['2026-07-28'] }), true);
    assert.deepEqual(
      eras.of(entry('.vscode/mcp.json')),
      { era: 'modern', supportedVersions: ['2026-07-28'] },
      'same command, other file: same server',
    );
    assert.deepEqual(eras.of(entry('user setting', 'python')), {}, 'another command: another server');
    assert.equal(eras.remember(entry('user setting'), { legacyHandshake: false }), true);
    assert.deepEqual(eras.of(entry('user setting')), { era: 'modern', supportedVersions: ['2026-07-28'], legacyHandshake: false });
    assert.equal(eras.remember(entry('user setting'), { era: 'modern' }), false, 'nothing new');
    assert.equal(m.writes, 2);
    assert.deepEqual(new RememberedEras(m).of(entry('user setting')).era, 'modern', 'kept in the memento (across windows)');
  });
});
