/** The servers after a reload (src/vscode/servers/nextEntries.ts): one per name, unchanged ones kept with their connection, the others closed. */
import * as assert from 'node:assert/strict';
import type { ServerDefinition } from '../../../src/core/config/servers';
import { nextEntries } from '../../../src/vscode/servers/nextEntries';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

const def = (name: string, kind: ServerDefinition['source']['kind'], command = 'node'): ServerDefinition => ({
  name,
  command,
  source: { kind, location: `${kind} file` },
});

/** An entry whose connection records that it was closed. */
function connected(d: ServerDefinition, closed: string[]): ServerEntry {
  return { name: d.name, def: d, connection: { close: async () => void closed.push(d.name) } } as unknown as ServerEntry;
}

describe('nextEntries', () => {
  it('keeps an unchanged entry (and its connection), closes a changed or removed one, and reports a second definition of a name', () => {
    const closed: string[] = [];
    const same = connected(def('same', 'settings'), closed);
    const before = new Map([
      ['same', same],
      ['changed', connected(def('changed', 'settings'), closed)],
      ['gone', connected(def('gone', 'settings'), closed)],
    ]);
    const problems: string[] = [];
    const next = nextEntries(
      before,
      [def('same', 'settings'), def('changed', 'settings', 'python'), def('same', 'userFile')],
      problems,
      true,
    );
    assert.deepEqual([...next.keys()], ['same', 'changed']);
    assert.equal(next.get('same'), same);
    assert.equal(next.get('changed')!.connection, undefined);
    assert.deepEqual(closed, ['changed', 'gone']);
    assert.deepEqual(problems, ['userFile file: server "same" is already defined by settings file; this one is ignored']);
  });

  it('holds back workspace servers in an untrusted workspace, and makes a new entry when trust changes', () => {
    const closed: string[] = [];
    const ws = def('ws', 'workspaceFile');
    const untrusted = nextEntries(new Map(), [ws, def('user', 'userFile')], [], false);
    assert.match(untrusted.get('ws')!.heldBack ?? '', /not trusted/);
    assert.equal(untrusted.get('user')!.heldBack, undefined);
    const held = connected(ws, closed);
    held.heldBack = untrusted.get('ws')!.heldBack;
    const trusted = nextEntries(new Map([['ws', held]]), [ws], [], true);
    assert.notEqual(trusted.get('ws'), held);
    assert.equal(trusted.get('ws')!.heldBack, undefined);
    assert.deepEqual(closed, ['ws']);
  });
});
