/** Roots: the host answers a server's `roots/list` round from the open workspace folders. */
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { roundtrip, succeeded } from './support';

describe('roots', function () {
  this.timeout(180_000);

  it('answers the demo where_am_i roots round with the workspace folders (the host provider, no override)', async () => {
    const api = await roundtrip();
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.ok(folders.length > 0, 'the runner opens a folder');
    const outcome = await api.call('demo', 'tools/call', { name: 'where_am_i', arguments: {} });
    const result = succeeded(outcome);
    const got = (result.structuredContent as { count: number; roots: { uri: string; name: string | null; path: string | null }[] }) ?? {};
    assert.equal(got.count, folders.length);
    assert.deepEqual(
      got.roots,
      folders.map((f) => ({ uri: pathToFileURL(f.uri.fsPath).href, name: f.name, path: f.uri.fsPath })),
    );
    const answer = outcome.events.find((e) => e.kind === 'answer');
    assert.ok(answer && answer.kind === 'answer');
    assert.equal(answer.inputMethod, 'roots/list');
    assert.equal(answer.key, 'roots');
  });
});
