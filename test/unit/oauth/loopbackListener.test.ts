/** The loopback callback listener and what a pasted URL gives. */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { parsePastedCallback } from '../../../src/core/oauth/callbackParams';
import { isSafeBrowserUrl } from '../../../src/core/oauth/driver';
import { listenForCallback } from '../../../src/core/oauth/loopbackListener';
import { HostError } from '../../../src/core/util/errors';

/** A GET with the Host header as given (fetch always sends the URL's own). */
function rawGet(base: URL, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(base.port), path, headers: { host }, setHost: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sign-in callback: loopback listener', () => {
  it('takes the first callback, answers other paths 404 and a second callback 409, shows the outcome as text', async () => {
    const l = await listenForCallback(0);
    try {
      assert.match(l.url.href, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal((await fetch(new URL('/favicon.ico', l.url))).status, 404);
      assert.equal((await fetch(l.url)).status, 404, 'the callback path without code, error or state');
      l.startAt(new URL('https://as.example/authorize?client_id=c&state=s1'));
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

  it('a callback with another state, or before the browser was sent, or to another Host is ignored (400); the right one still ends the sign-in', async () => {
    const l = await listenForCallback(0);
    let taken: URLSearchParams | undefined;
    void l.callback.then((p) => (taken = p));
    try {
      const early = await fetch(`${l.url.href}?code=guess&state=guess`);
      assert.equal(early.status, 400, 'no sign-in URL was opened yet');
      l.startAt(new URL('https://as.example/authorize?state=the-real-one'));
      const guessed = await fetch(`${l.url.href}?code=evil&state=guess`);
      assert.equal(guessed.status, 400);
      assert.match(await guessed.text(), /does not belong to the sign-in in progress/);
      const noState = await fetch(`${l.url.href}?error=access_denied`);
      assert.equal(noState.status, 400);
      const rebound = await rawGet(l.url, `${l.url.pathname}?code=c&state=the-real-one`, `evil.example:${l.url.port}`);
      assert.equal(rebound, 400, 'a foreign Host (a page rebinding a name to 127.0.0.1)');
      assert.equal(taken, undefined, 'nothing was taken as the callback');
      const right = fetch(`${l.url.href}?code=real&state=the-real-one`);
      assert.equal((await l.callback).get('code'), 'real');
      l.reply(true, 'Signed in.');
      assert.equal((await right).status, 200);
    } finally {
      await l.close();
    }
  });

  it("a remote window's forwarded port: the Host of the authorization URL's redirect_uri is served too", async () => {
    const l = await listenForCallback(0);
    try {
      const redirect = encodeURIComponent(`http://127.0.0.1:8080/proxy/${l.url.port}/callback`);
      l.startAt(new URL(`https://as.example/authorize?state=s9&redirect_uri=${redirect}`));
      assert.equal(await rawGet(l.url, `${l.url.pathname}?code=c&state=s9`, 'evil.example:8080'), 400);
      const forwarded = rawGet(l.url, `${l.url.pathname}?code=c&state=s9`, '127.0.0.1:8080');
      assert.equal((await l.callback).get('code'), 'c');
      l.reply(true, 'Signed in.');
      assert.equal(await forwarded, 200);
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
