/** A webview's script and stylesheet, as text or as URI (src/vscode/shared/webviewAssets.ts). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { webviewAsset } from '../../../src/vscode/shared/webviewAssets';

const webview = {
  asWebviewUri: (u: { path: string }) => ({ toString: () => `https://webview.test${u.path}` }),
} as unknown as vscode.Webview;
const uri = (fsPath: string, scheme = 'file') => ({ fsPath, path: fsPath, scheme }) as vscode.Uri;

describe('webview assets', () => {
  let dir: string;
  let warned: string[];
  const warn = (t: string) => warned.push(t);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-rt-assets-'));
    warned = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("gives a file's text to write into the document, a byte-order mark removed, and warns of nothing", () => {
    writeFileSync(join(dir, 'a.js'), 'console.log(1);');
    writeFileSync(join(dir, 'a.css'), '\ufeffmain{color:red}');
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'a.js')), 'script', warn), { text: 'console.log(1);' });
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'a.css')), 'style', warn), { text: 'main{color:red}' });
    assert.deepEqual(warned, []);
  });

  it('gives the URI of a text that would end its element early, and of a file it cannot read, saying why', () => {
    writeFileSync(join(dir, 'b.js'), 'x = "</script>"');
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'b.js')), 'script', warn), { uri: `https://webview.test${join(dir, 'b.js')}` });
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'none.css')), 'style', warn), {
      uri: `https://webview.test${join(dir, 'none.css')}`,
    });
    assert.deepEqual(warned, [
      'The webview script b.js is loaded by URI: its text holds a sequence that would end its <script> element early',
      'The webview style none.css is loaded by URI: it could not be read (ENOENT); reinstall the extension if the panel stays blank',
    ]);
  });

  it('reads nothing but file: URIs', () => {
    writeFileSync(join(dir, 'c.js'), 'console.log(1);');
    assert.deepEqual(webviewAsset(webview, uri(join(dir, 'c.js'), 'vscode-remote'), 'script', warn), {
      uri: `https://webview.test${join(dir, 'c.js')}`,
    });
  });

  it('reads a rebuilt file anew, even with the same size and modified time', () => {
    const f = join(dir, 'd.css');
    writeFileSync(f, 'p{}');
    utimesSync(f, 1_000, 1_000);
    assert.deepEqual(webviewAsset(webview, uri(f), 'style'), { text: 'p{}' });
    writeFileSync(f, 'a{}');
    utimesSync(f, 1_000, 1_000);
    assert.deepEqual(webviewAsset(webview, uri(f), 'style'), { text: 'a{}' });
  });
});
