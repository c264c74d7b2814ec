/**
 * An MCP App that speaks before the app view's bridge has arrived, in a real Chromium: the app view's
 * document as the extension writes it (`appViewPage.ts`: its script in the document, the bridge by URI
 * and deferred, the app view's CSP), the bridge held back by the test until the app has sent
 * `ui/initialize`. The view waits for the bridge and connects the app; it does not stop it. (With the
 * document's `readyState`, already `interactive` while a deferred script is fetched, the view gave up:
 * "the app bridge did not start", seen in a Chromium whose app frame shares the page's process.)
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Frame } from 'playwright-core';
import { appCsp } from '../../src/core/apps/appCsp';
import { AppServers } from '../../src/core/apps/appServer';
import { CHROMIUM_ARGS, chromiumExecutable, waitFor } from './harness';
import { appBridgeScript, appViewDocument, openApp, postedBy } from './appViewPage';

/** An app that sends `ui/initialize` as soon as it runs, says so (`__sent`), and keeps the answer (`__initialized`). */
const EARLY_APP = `<!doctype html><html><head><title>Early</title></head><body><p id="early">early app</p><script>
const rpc = (m) => parent.postMessage(Object.assign({ jsonrpc: '2.0' }, m), '*');
window.addEventListener('message', (e) => {
  if (!e.data || e.data.id !== 1 || !e.data.result) return;
  window.__initialized = e.data.result.protocolVersion || true;
  rpc({ method: 'ui/notifications/initialized', params: {} });
});
rpc({ id: 1, method: 'ui/initialize', params: { appInfo: { name: 'Early', version: '1.0.0' }, appCapabilities: {}, protocolVersion: '2026-01-26' } });
window.__sent = true;
</script></body></html>`;

describe('MCP Apps: an app that speaks before the bridge is fetched (real Chromium)', function () {
  this.timeout(120_000);
  const apps = new AppServers();
  let browser: Browser | undefined;
  let server: Server | undefined;

  after(async () => {
    await browser?.close();
    await apps.close();
    server?.closeAllConnections();
    server?.close();
  });

  it('is held until the deferred bridge runs, then connected: ui/initialize answered, nothing stopped', async () => {
    const app = await apps.serve('early', EARLY_APP, appCsp({}).policy);
    const bridge = appBridgeScript();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let bridgeAsked = false;
    server = createServer((req, res) => {
      if (req.url === '/bridge.js') {
        bridgeAsked = true;
        void released.then(() => (res.writeHead(200, { 'Content-Type': 'text/javascript' }), res.end(bridge)));
        return;
      }
      res.writeHead(req.url === '/' ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(req.url === '/' ? appViewDocument(app.origin, '/bridge.js') : '');
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    // The page's load waits for the bridge, which the test holds: only the navigation's commit is awaited.
    await page.goto(origin + '/', { waitUntil: 'commit' });
    await openApp(page, app.url, 'early');
    const posted = () => postedBy(page);
    const appFrame = await waitFor('the app frame', () => page.frames().find((f) => f.url().includes('/app/')));
    const sent = (f: Frame) => f.evaluate(() => (window as unknown as { __sent?: boolean }).__sent === true).catch(() => false);
    await waitFor('the app to send ui/initialize', async () => (await sent(appFrame)) || undefined);
    assert.ok(bridgeAsked, 'the bridge is asked for as the page loads');
    assert.equal(await page.evaluate(() => document.readyState), 'interactive', 'the deferred bridge is still being fetched');

    release();
    const initialized = await waitFor('the app to be answered', () =>
      appFrame.evaluate(() => (window as unknown as { __initialized?: unknown }).__initialized).catch(() => undefined),
    );
    assert.ok(initialized);
    await waitFor(
      'the view to note the app initialized',
      async () => (await posted()).some((m) => m.type === 'note' && /^initialized \(Early\)/.test(m.text ?? '')) || undefined,
    );
    assert.deepEqual(
      (await posted()).filter((m) => m.type === 'stopped'),
      [],
    );
    assert.equal(await page.locator('iframe').count(), 1, 'the frame stays');
  });
});
