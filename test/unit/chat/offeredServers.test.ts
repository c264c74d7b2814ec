/**
 * The bridge tells VS Code about a change only when there is one: a server offered or withdrawn, or
 * a tool list that changed after VS Code had seen it (a new `version`); learning a server's first
 * version is no change.
 */
import assert from 'node:assert/strict';
import { toolsVersion } from '../../../src/core/chat/exposure';
import { OfferedServers } from '../../../src/core/chat/offeredServers';

const v1 = [{ name: 'plan_trip', inputSchema: { type: 'object' } }];
const v2 = [...v1, { name: 'book_table', inputSchema: { type: 'object' } }];

describe('chat: servers offered to VS Code', () => {
  it('a tool list that changes after VS Code saw it is a change, with a new version', () => {
    const o = new OfferedServers();
    o.provided(['demo']);
    assert.equal(o.version('demo'), undefined);
    assert.equal(o.listed('demo', v1, ['demo']), false, 'the first listing only learns the version');
    assert.equal(o.version('demo'), toolsVersion(v1));
    assert.equal(o.changed(['demo']), false);
    assert.equal(o.listed('demo', v1, ['demo']), false, 'the same list again');
    assert.equal(o.listed('demo', v2, ['demo']), true, 'the tools changed');
    assert.equal(o.version('demo'), toolsVersion(v2));
    o.provided(['demo']);
    assert.equal(o.changed(['demo']), false, 'VS Code read the new version');
  });

  it('a server offered or withdrawn is a change', () => {
    const o = new OfferedServers();
    o.provided(['demo']);
    assert.equal(o.changed(['demo', 'probe']), true);
    assert.equal(o.changed([]), true);
    assert.equal(o.changed(['demo']), false);
  });
});
