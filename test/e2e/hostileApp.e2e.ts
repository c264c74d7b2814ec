/**
 * A hostile MCP App in a real Chromium, framed exactly as the app view frames it: the app view's
 * document (`appViewPage.ts`: its own script, then the bridge by URI, deferred, under the app view's
 * CSP: nonce scripts, `frame-src` only the app server's origin), the app from the loopback app server under the CSP its (empty) declaration
 * gives, in `sandbox="allow-scripts allow-forms"`. Each attempt fails: no request reaches the network,
 * the VS Code API and the host document are out of reach, top navigation and popups do nothing, a link
 * becomes a request to the extension (which asks the person; test/unit/apps/appView.test.ts), and the
 * flood stops the app with a reason.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { appCsp } from '../../src/core/apps/appCsp';
import { AppServers } from '../../src/core/apps/appServer';
import { hostileAppHtml } from '../fixtures/apps/hostileApp';
import { CHROMIUM_ARGS, chromiumExecutable, waitFor } from './harness';
import { appBridgeScript, appViewDocument, openApp, postedBy } from './appViewPage';

/** A server on its own origin that records every request (the app must reach none). */
async function listen(handler: (path: string) => string | undefined): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    const body = handler(req.url ?? '');
    const type = (req.url ?? '').endsWith('.js') ? 'text/javascript' : 'text/html';
    res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': `${type}; charset=utf-8` });
    res.end(body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('MCP Apps: a hostile app is contained (real Chromium)', function () {
  this.timeout(120_000);
  const apps = new AppServers();
  const sinkHits: string[] = [];
  let browser: Browser | undefined;
  const servers: Server[] = [];

  after(async () => {
    await browser?.close();
    await apps.close();
    for (const s of servers) s.close();
  });

  it('network, the VS Code API, top navigation, popups, links without consent and a flood all fail', async () => {
    const sink = await listen((p) => (sinkHits.push(p), 'reached'));
    servers.push(sink.server);
    const app = await apps.serve('hostile', hostileAppHtml(sink.origin), appCsp({}).policy);
    const bridge = appBridgeScript();
    const hostPage = appViewDocument(
      app.origin,
      '/bridge.js',
      "window.__probes = []; window.addEventListener('message', (e) => { if (e.data && e.data.probe) window.__probes.push(e.data.probe + '=' + e.data.value); }, true);",
    );
    const host = await listen((p) => (p === '/' ? hostPage : p === '/bridge.js' ? bridge : undefined));
    servers.push(host.server);

    browser = await chromium.launch({ executablePath: chromiumExecutable(), args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    await page.goto(host.origin + '/');
    await openApp(page, app.url, 'hostile');
    const posted = () => postedBy(page);
    const stopped = await waitFor('the app to be stopped', async () => (await posted()).find((m) => m.type === 'stopped'));
    assert.match(stopped.reason!, /more than 50 messages in 1000 ms/);
    assert.equal(await page.locator('iframe').count(), 0, 'the frame is removed');
    assert.match(await page.locator('[data-testid="app-status"]').innerText(), /The app was stopped/);

    const probes = await page.evaluate(() => (window as unknown as { __probes: string[] }).__probes);
    for (const p of [
      'fetch=blocked',
      'acquireVsCodeApi=undefined',
      'parentApi=threw',
      'parentDocument=threw',
      'topNavigation=threw',
      'popup=null',
    ])
      assert.ok(probes.includes(p), `${p} not in ${probes.join(', ')}`);
    // The link became a request for the extension's consent, nothing more.
    assert.ok((await posted()).some((m) => m.type === 'request' && m.method === 'ui/open-link' && m.params?.url === `${sink.origin}/link`));
    // The page was not navigated, and nothing reached the network.
    assert.equal(page.url(), host.origin + '/');
    assert.deepEqual(sinkHits, []);
  });
});
