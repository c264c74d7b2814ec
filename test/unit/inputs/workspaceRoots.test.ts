/** Workspace folders → roots (F7 through the VS Code adapter's shape). */
import assert from 'node:assert/strict';
import { workspaceRoots } from '../../../src/vscode/inputs/workspaceRoots';

const folder = (name: string, fsPath: string, scheme = 'file', str = '') => ({ name, uri: { scheme, fsPath, toString: () => str } });

describe('workspace roots', () => {
  it('F7: Windows folders in order, names kept, no %3A, UNC authority', () => {
    const { result } = workspaceRoots(
      [
        folder('temp', 'C:\\temp', 'file', 'file:///c%3A/temp'),
        folder('Ünïcode #1', 'D:\\Work Files\\Ünïcode #1'),
        folder('proj', '\\\\fileserver\\share\\proj'),
      ],
      true,
    );
    assert.deepEqual(result.roots, [
      { uri: 'file:///C:/temp', name: 'temp' },
      { uri: 'file:///D:/Work%20Files/%C3%9Cn%C3%AFcode%20%231', name: 'Ünïcode #1' },
      { uri: 'file://fileserver/share/proj', name: 'proj' },
    ]);
  });
  it('no folder open: empty list and a note', () => {
    const r = workspaceRoots(undefined);
    assert.deepEqual(r.result, { roots: [] });
    assert.match(r.notes[0], /no folder is open/);
  });
  it('remote folders pass their URI and are noted', () => {
    const r = workspaceRoots([folder('srv', '/x', 'vscode-remote', 'vscode-remote://ssh-remote+box/x')], false);
    assert.deepEqual(r.result.roots, [{ uri: 'vscode-remote://ssh-remote+box/x', name: 'srv' }]);
    assert.match(r.notes[0], /not on the local disk \(vscode-remote:\)/);
  });
});
