/** The loopback callback listener and what a pasted URL gives. */
import assert from 'node:assert/strict';
import { parsePastedCallback } from '../../../src/core/oauth/callbackParams';
import { isSafeBrowserUrl } from '../../../src/core/oauth/driver';
import { listenForCallback } from '../../../src/core/oauth/loopbackListener';
import { HostError } from '../../../src/core/util/errors';

describe('sign-in callback: loopback listener', () => {
  it('takes the first callback, answers other paths 404 and a second callback 409, shows the outcome as text', async () => {
    const l = await listenForCallback(0);
    try {
      assert.match(l.url.href, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal((await fetch(new URL('/favicon.ico', l.url))).status, 404);
      assert.equal((await fetch(l.url)).status, 404, 'the callback path without code, error or state');
      const first = fetch(`${l.url.href}?code=abc&state=s1`);
      const params = await l.callback;
      assert.equal(params.get('code'), 'abc');
      l.reply(false, 'Sign-in failed: <script>alert(1)</script>');
      const page = await first;
      assert.equal(page.status, 400);
      const html = await page.text();
      assert.ok(!html.includes('<script>'), 'text is escaped');
      assert.match(html, /&#60;script&#62;/);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      assert.equal((await fetch(`${l.url.href}?code=again&state=s1`)).status, 409);
    } finally {
      await l.close();
    }
  });

  it('a taken port is a clear error naming it', async () => {
    const a = await listenForCallback(0);
    try {
      await assert.rejects(
        listenForCallback(Number(a.url.port)),
        (e: unknown) =>
          e instanceof HostError && e.kind === 'auth' && new RegExp(`port ${a.url.port} on 127\\.0\\.0\\.1 is in use`).test(e.message),
      );
    } finally {
      await a.close();
    }
  });
});

describe('sign-in callback: a pasted URL', () => {
  it('reads the query of a full URL wherever the browser ended, or a bare query', () => {
    assert.equal(parsePastedCallback('  https://proxy.example/proxy/33419/callback?code=c1&state=s  ').get('code'), 'c1');
    assert.equal(parsePastedCallback('?error=access_denied&state=s').get('error'), 'access_denied');
  });

  it('says what is missing', () => {
    assert.throws(() => parsePastedCallback('https://example.com/callback?state=s'), /neither a "code" nor an "error"/);
    assert.throws(() => parsePastedCallback(''), /nothing was pasted/);
    assert.throws(() => parsePastedCallback(`code=${'x'.repeat(9000)}`), /longer than 8192/);
  });

  it('a browser is sent to https or loopback http only', () => {
    assert.equal(isSafeBrowserUrl(new URL('https://login.example.com/authorize')), true);
    assert.equal(isSafeBrowserUrl(new URL('http://127.0.0.1:8080/authorize')), true);
    assert.equal(isSafeBrowserUrl(new URL('http://login.example.com/authorize')), false);
    assert.equal(isSafeBrowserUrl(new URL('javascript:alert(1)')), false);
    assert.equal(isSafeBrowserUrl(new URL('file:///etc/passwd')), false);
  });
});
