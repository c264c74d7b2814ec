/** The round panel's HTML document and its Content Security Policy (src/vscode/shared/webviewHtml.ts). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inlineSafe, jsonDataBlock, panelCsp, panelHtml } from '../../../src/vscode/shared/webviewHtml';

describe('round panel HTML', () => {
  const linked = panelHtml({
    cspSource: 'https://webview.test',
    nonce: 'n0nce+/=',
    script: { uri: 'https://webview.test/dist/webview/roundPanel.js' },
    style: { uri: 'https://webview.test/media/roundPanel.css' },
  });
  const inline = panelHtml({
    cspSource: 'https://webview.test',
    nonce: 'n0nce+/=',
    script: { text: 'document.body.dataset.ran = "1";' },
    style: { text: 'main { color: red; }' },
  });

  it('has a strict CSP: nothing by default, data: images and audio, nonce scripts, no unsafe-*', () => {
    const csp = panelCsp('https://webview.test', 'abc');
    assert.equal(
      csp,
      "default-src 'none'; img-src data:; media-src data:; style-src https://webview.test; script-src 'nonce-abc'; font-src https://webview.test",
    );
    assert.doesNotMatch(csp, /unsafe|connect-src|frame-src|\*/);
  });

  it('allows styles only under the nonce when the stylesheet is written into the document', () => {
    const csp = panelCsp('https://webview.test', 'abc', true);
    assert.equal(
      csp,
      "default-src 'none'; img-src data:; media-src data:; style-src 'nonce-abc'; script-src 'nonce-abc'; font-src https://webview.test",
    );
    assert.match(
      inline,
      /content="default-src 'none'; img-src data:; media-src data:; style-src 'nonce-n0nce\+\/='; script-src 'nonce-n0nce\+\/=';/,
    );
  });

  it('writes its script and stylesheet into the document under the nonce: nothing to fetch, no other inline code', () => {
    assert.match(inline, /<style nonce="n0nce\+\/=">main \{ color: red; \}<\/style>/);
    assert.match(inline, /<script nonce="n0nce\+\/=">document\.body\.dataset\.ran = "1";<\/script>/);
    assert.equal(inline.match(/<script/g)?.length, 1);
    assert.equal(inline.match(/<style/g)?.length, 1);
    assert.doesNotMatch(inline, /\ssrc=|<link|\sstyle=|\son[a-z]+=/i);
    assert.match(inline, /<main id="root" data-testid="round-panel" data-round="0"><\/main>/);
  });

  it('links its own script (with the nonce) and stylesheet when given their URIs, with no inline script, style or handler', () => {
    assert.match(linked, /<script nonce="n0nce\+\/=" src="https:\/\/webview\.test\/dist\/webview\/roundPanel\.js"><\/script>/);
    assert.match(linked, /<link rel="stylesheet" href="https:\/\/webview\.test\/media\/roundPanel\.css">/);
    assert.equal(linked.match(/<script/g)?.length, 1);
    assert.doesNotMatch(linked, /<style|\sstyle=|\son[a-z]+=/i);
    assert.match(linked, /content="[^"]*style-src https:\/\/webview\.test;/);
  });

  it('writes a first message as an inert JSON data block before the script, which no string in it can leave', () => {
    const hostile = {
      type: 'view',
      view: { title: '</script><script>alert(1)</script>', note: '<!-- <script> -->', amp: '&lt;b&gt; & \u2028\u2029 "q"' },
    };
    const html = panelHtml({ cspSource: 'c', nonce: 'n', script: { text: 'run()' }, style: { text: '' }, initialMessage: hostile });
    const block = /<script type="application\/json" id="initial-message">([^]*?)<\/script>\n<script nonce="n">run\(\)<\/script>/.exec(html);
    assert.ok(block, html);
    assert.doesNotMatch(block[1], /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(block[1]), hostile);
    assert.equal(html.match(/<\/script>/g)?.length, 2, 'only the block and the script close');
    assert.equal(jsonDataBlock('<'), '"\\u003c"');
    assert.throws(() => jsonDataBlock(undefined), /this message has no JSON form/);
    assert.doesNotMatch(inline, /application\/json/, 'no block without a first message');
  });

  it('tells which texts the HTML parser would not read back whole inside their element', () => {
    assert.equal(inlineSafe('const a = "</script>";', 'script'), false);
    assert.equal(inlineSafe('x = "</SCRIPT "', 'script'), false);
    assert.equal(inlineSafe('a = "<!--"; b = "<Script>"', 'script'), false, 'double escaped: </script> would no longer close');
    assert.equal(inlineSafe('a = /^<!--/; b = "-->"', 'script'), true);
    assert.equal(inlineSafe('a = "</style>"', 'script'), true);
    assert.equal(inlineSafe('p::after { content: "</style>" }', 'style'), false);
    assert.equal(inlineSafe('p::after { content: "</script>" }', 'style'), true);
  });

  it('refuses to write a text that would end its element early, naming why', () => {
    const evil = 'x = "</script><script>alert(1)</script>"';
    assert.throws(
      () => panelHtml({ cspSource: 'c', nonce: 'n', script: { text: evil }, style: { text: '' } }),
      /this script cannot be written into the document: it holds a sequence that would end its <script> element early/,
    );
    assert.throws(
      () => panelHtml({ cspSource: 'c', nonce: 'n', script: { text: '' }, style: { text: '</style><script>' } }),
      /this style cannot be written/,
    );
  });

  it('writes a later script by URI after the first, under the same nonce, deferred', () => {
    const html = panelHtml({
      cspSource: 'c',
      nonce: 'n',
      script: { text: 'first()' },
      laterScript: { uri: 'https://w/b.js?x="1"' },
      style: { text: '' },
      initialMessage: { type: 'open' },
    });
    // Deferred: fetched while the page goes on, run before DOMContentLoaded; its URI written as an attribute.
    assert.match(
      html,
      /<script nonce="n">first\(\)<\/script>\n<script nonce="n" src="https:\/\/w\/b\.js\?x=&quot;1&quot;" defer><\/script>/,
    );
    assert.ok(html.indexOf('initial-message') < html.indexOf('first()'), 'the data block comes before both');
  });

  it('the shipped webview scripts and stylesheets can all be written into their documents (built by npm run build)', () => {
    for (const [file, kind] of [
      ['dist/webview/roundPanel.js', 'script'],
      ['dist/webview/resultView.js', 'script'],
      ['dist/webview/appView.js', 'script'],
      ['dist/webview/appBridge.js', 'script'],
      ['media/roundPanel.css', 'style'],
      ['media/resultView.css', 'style'],
      ['media/appView.css', 'style'],
    ] as const) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        assert.fail(`${file} is missing: run npm run build first`);
      }
      assert.ok(inlineSafe(text, kind), `${file} holds a sequence that would end its <${kind}> early: the panel would fetch it instead`);
    }
  });
});
