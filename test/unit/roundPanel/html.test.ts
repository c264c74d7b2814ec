/** The round panel's HTML document and its Content Security Policy (src/vscode/roundPanel/html.ts). */
import assert from 'node:assert/strict';
import { panelCsp, panelHtml } from '../../../src/vscode/roundPanel/html';

describe('round panel HTML', () => {
  const html = panelHtml({ cspSource: 'https://webview.test', nonce: 'n0nce+/=', scriptUri: 'https://webview.test/dist/webview/roundPanel.js', styleUri: 'https://webview.test/media/roundPanel.css' });

  it('has a strict CSP: nothing by default, data: images and audio, nonce scripts, no unsafe-*', () => {
    const csp = panelCsp('https://webview.test', 'abc');
    assert.equal(csp, "default-src 'none'; img-src data:; media-src data:; style-src https://webview.test; script-src 'nonce-abc'; font-src https://webview.test");
    assert.doesNotMatch(csp, /unsafe|connect-src|frame-src|\*/);
  });

  it('loads only its own script (with the nonce) and stylesheet, with no inline script, style or handler', () => {
    assert.match(html, /<script nonce="n0nce\+\/=" src="https:\/\/webview\.test\/dist\/webview\/roundPanel\.js"><\/script>/);
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i);
    assert.match(html, /<main id="root" data-testid="round-panel" data-round="0"><\/main>/);
  });
});
