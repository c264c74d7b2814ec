/** Field case F7: roots as correctly encoded file:// URIs, Windows and POSIX. */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { rootFromPath, rootsFromPaths } from '../../../src/core/config/roots';

describe('roots (F7)', () => {
  const win = ['C:\\temp', 'D:\\Work Files\\Ünïcode #1', '\\\\fileserver\\share\\proj'];
  it('Windows folders keep order and names, drive colon never %3A, UNC server in the authority', () => {
    const { roots } = rootsFromPaths(win, true);
    assert.equal(roots.length, 3);
    assert.deepEqual(
      roots.map((r) => r.name),
      ['temp', 'Ünïcode #1', 'proj'],
    );
    assert.match(roots[0].uri, /^file:\/\/\/[cC]:\/temp$/);
    for (const r of roots) assert.ok(!r.uri.includes('%3A'), r.uri);
    assert.equal(roots[1].uri, 'file:///D:/Work%20Files/%C3%9Cn%C3%AFcode%20%231');
    assert.ok(!/[ #?]/.test(roots[1].uri.slice('file://'.length)));
    assert.equal(roots[2].uri, 'file://fileserver/share/proj');
  });
  it('round-trips through fileURLToPath with Windows semantics', () => {
    for (const p of win) assert.equal(fileURLToPath(rootFromPath(p, true).uri, { windows: true }), p);
  });
  it('POSIX paths with spaces, # and non-ASCII', () => {
    const r = rootFromPath('/home/dev/My Project #2/naïve', false);
    assert.equal(r.uri, 'file:///home/dev/My%20Project%20%232/na%C3%AFve');
    assert.equal(r.name, 'naïve');
    assert.equal(fileURLToPath(r.uri, { windows: false }), '/home/dev/My Project #2/naïve');
  });
});
