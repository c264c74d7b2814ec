/**
 * The loopback app server (src/core/apps/appServer.ts): each app document at its own unguessable URL,
 * with its own CSP header, one origin per MCP server, nothing else answered, nothing left after dispose.
 */
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { appCsp } from '../../../src/core/apps/appCsp';
import { AppServers } from '../../../src/core/apps/appServer';
import { APP_HTML } from '../../fixtures/apps/appListing';

describe('MCP Apps: the loopback app server', () => {
  const servers = new AppServers();
  after(() => servers.close());

  it('serves the document with the CSP built from what the app declared, on 127.0.0.1, until disposed', async () => {
    const csp = appCsp({}).policy;
    const app = await servers.serve('monitor', APP_HTML, csp);
    assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+\/app\/[0-9a-f]{32}$/);
    assert.ok(app.url.startsWith(app.origin + '/'));
    const r = await fetch(app.url);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-security-policy'), csp);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(await r.text(), APP_HTML);
    // Nothing but a registered token answers.
    for (const u of [app.origin + '/', app.origin + '/app/' + '0'.repeat(32), app.url + '/x'])
      assert.equal((await fetch(u)).status, 404, u);
    assert.equal((await fetch(app.url, { method: 'POST', body: 'x' })).status, 404);
    assert.equal(await servers.served(), 1);
    app.dispose();
    assert.equal((await fetch(app.url)).status, 404);
    assert.equal(await servers.served(), 0);
  });

  it('sends the document gzipped to a browser that takes gzip (a proxy carries a quarter of it), as it is to one that does not', async () => {
    const html = `<!doctype html><html><body>${'<p>an app of some size</p>'.repeat(5000)}</body></html>`;
    const app = await servers.serve('big', html, "default-src 'none'");
    const raw = (acceptEncoding?: string) =>
      new Promise<{ encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
        get(app.url, { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], vary: res.headers.vary, body: Buffer.concat(chunks) }));
        }).on('error', reject);
      });
    const zipped = await raw('gzip, deflate, br');
    assert.equal(zipped.encoding, 'gzip');
    assert.equal(zipped.vary, 'Accept-Encoding');
    assert.ok(zipped.body.length < html.length / 4, `${zipped.body.length} bytes sent for ${html.length}`);
    assert.equal(gunzipSync(zipped.body).toString('utf8'), html);
    const plain = await raw();
    assert.equal(plain.encoding, undefined);
    assert.equal(plain.body.toString('utf8'), html);
    app.dispose();
  });

  it('one origin per MCP server; documents of one server share it', async () => {
    const a1 = await servers.serve('a', 'x', "default-src 'none'");
    const a2 = await servers.serve('a', 'y', "default-src 'none'");
    const b = await servers.serve('b', 'z', "default-src 'none'");
    assert.equal(a1.origin, a2.origin);
    assert.notEqual(a1.url, a2.url);
    assert.notEqual(a1.origin, b.origin);
    for (const d of [a1, a2, b]) d.dispose();
  });
});
