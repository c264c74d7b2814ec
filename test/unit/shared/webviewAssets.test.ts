/** A webview's script and stylesheet, as text or as URI (src/vscode/shared/webviewAssets.ts). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { webviewAsset } from '../../../src/vscode/shared/webviewAssets';

const webview = { asWebviewUri: (u: { fsPath: string }) => ({ toString: () => `https://webview.test${u.fsPath}` }) } as unknown as vscode.Webview;
const uri = (fsPath: string) => ({ fsPath }) as vscode.Uri;

describe('webview assets', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mcp-rt-assets-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives a file\'s text to write into the document', () => {
    writeFileSync(join(dir, 'a.js'), 'console.log(1);');
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'a.js')), 'script'), { text: 'console.log(1);' });
  });

  it('gives the URI of a text that would end its element early, and of a file it cannot read', () => {
    writeFileSync(join(dir, 'b.js'), 'x = "</script>"');
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'b.js')), 'script'), { uri: `https://webview.test${join(dir, 'b.js')}` });
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'none.css')), 'style'), { uri: `https://webview.test${join(dir, 'none.css')}` });
  });

  it('reads a file again once it changed, not before', () => {
    const f = join(dir, 'c.css');
    writeFileSync(f, 'p{}');
    utimesSync(f, 1_000, 1_000);
    assert.deepEqual(webviewAsset(webview, uri(f), 'style'), { text: 'p{}' });
    writeFileSync(f, 'a{}');
    utimesSync(f, 1_000, 1_000);
    assert.deepEqual(webviewAsset(webview, uri(f), 'style'), { text: 'p{}' }, 'same stamp: the text kept');
    utimesSync(f, 2_000, 2_000);
    assert.deepEqual(webviewAsset(webview, uri(f), 'style'), { text: 'a{}' });
  });
});
