/**
 * Signing in from VS Code (code-server 1.139, the .vsix installed) to a local OAuth-protected MCP
 * server: a real authorization server on loopback (oidc-provider: PKCE, dynamic registration,
 * resource indicators; its development login and consent pages) in front of the demo server's
 * tools. The "browser" is the same Chromium: Sign in… opens the authorization page through
 * openExternal, the test fills it in as a person would, and the browser comes back to the loopback
 * listener. Then a tool with an MRTR round completes; the token is in secret storage (its fingerprint,
 * from the extension's API) and nowhere in the settings, the logs or the workspace; after Sign Out of
 * Server… the next call asks again. The screenshot of the sign-in notification goes to docs/images/.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  openWorkbench,
  repoRoot,
  runCommand,
  screenshot,
  startCodeServer,
  waitFor,
  waitForNotification,
  type CodeServerHost,
  type Workbench,
} from './harness';
import { commandPick, makeWorkspace, pick, reset, serverRows, suiteHooks, VSIX, waitForLog } from './support';
import { startOAuthFixture, type OAuthFixture } from '../support/oauthFixture';

const PROBE = path.join(repoRoot, 'test', 'fixtures', 'test-probe-extension');

/** `where` (a file) or every file under it (a folder) whose bytes contain `needle`. */
function filesContaining(where: string, needle: string): string[] {
  const out: string[] = [];
  if (existsSync(where) && statSync(where).isFile()) return readFileSync(where).includes(needle) ? [where] : [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && statSync(p).size < 50_000_000 && readFileSync(p).includes(needle)) out.push(p);
    }
  };
  walk(where);
  return out;
}

/** Click a notification's button the way a keyboard user would not need to: by its label. */
async function clickNotificationButton(page: Page, text: string | RegExp, button: string): Promise<void> {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  await toast.waitFor({ state: 'visible', timeout: 60_000 });
  await toast.locator('.monaco-button', { hasText: button }).first().click();
}

describe('e2e oauth: signing in to an OAuth-protected server from VS Code', function () {
  this.timeout(300_000);
  let fx: OAuthFixture;
  let host: CodeServerHost;
  let wb: Workbench;
  let ws = '';

  before(async () => {
    fx = await startOAuthFixture({ interactive: true });
    ws = makeWorkspace({ protected: { type: 'http', url: fx.mcpUrl } });
    host = await startCodeServer({ workspace: ws, vsix: VSIX, extensionDirs: [PROBE] });
    wb = await openWorkbench(host.url, ws);
  });
  suiteHooks(() => ({ wb, host, ws }), { alsoStop: () => fx?.stop() });

  it('Sign in… opens the authorization page; the call with an MRTR round completes; the token is only in secret storage', async () => {
    const page = wb.page;
    await commandPick(page, 'MCP Roundtrip: Call Tool…', ['protected']);
    const asHost = new URL(fx.issuer).host;
    const text = await waitForNotification(page, /asks you to sign in at/);
    assert.match(
      text,
      new RegExp(`MCP server "protected" asks you to sign in at ${asHost.replace(/\./g, '\\.')} \\(scopes: mcp:tools offline_access\\)`),
    );
    const shot = await screenshot(page, 'oauth-sign-in-notification');
    copyFileSync(shot, path.join(repoRoot, 'docs', 'images', 'sign-in.png'));
    assert.deepEqual(wb.context.pages().length, 1, 'no browser page before the click');

    const opened = wb.context.waitForEvent('page', { timeout: 60_000 });
    await clickNotificationButton(page, /asks you to sign in at/, 'Sign in…');
    // code-server may ask once more before opening a site (not for a loopback one): say Open if it does.
    const open = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
    const first = await Promise.race([opened.then(() => 'page' as const), open.waitFor({ timeout: 60_000 }).then(() => 'dialog' as const)]);
    if (first === 'dialog') await open.click();
    const authPage = await opened;
    await authPage.waitForLoadState('domcontentloaded');
    console.log(`    authorization page: ${authPage.url()}`);
    assert.ok(authPage.url().startsWith(fx.issuer), `the authorization page is the authorization server's: ${authPage.url()}`);
    await authPage.locator('input[name="login"]').fill('e2e-user');
    await authPage.locator('input[name="password"]').fill('any-password');
    await authPage.locator('button[type="submit"]').click();
    await authPage.locator('button', { hasText: 'Continue' }).click();
    await authPage.locator('text=Signed in to protected').waitFor({ timeout: 60_000 });
    // Back at the loopback listener (through code-server's port proxy: asExternalUri in a web window).
    assert.match(authPage.url(), /^http:\/\/127\.0\.0\.1:\d+\/(proxy\/\d+\/)?callback\?code=/);
    await authPage.close();

    // The tool list arrives; where_am_i asks for roots (one MRTR round answered from the workspace).
    await pick(page, 'Where am I?', 'Where am I?');
    const log = await waitForLog(host.logsDir, /← \[protected\] complete id=\d+ after 1 round\(s\)/);
    assert.match(log, /\[protected\] sign-in: client: dynamic registration; asking for scopes mcp:tools offline_access/);
    assert.match(log, /\[protected\] sign-in: signed in with 127\.0\.0\.1:\d+; scopes granted: mcp:tools; expires in/);
    assert.match(log, /input_required round 1 .*roots \(roots\/list\)/);

    const rows = await waitFor('the view to show who the server is signed in with', async () => {
      const r = await serverRows(page);
      return r.some((t) => t.startsWith('protected') && t.includes(`signed in with ${asHost}`)) ? r : undefined;
    });
    assert.ok(rows.length);

    const tokens = await fx.tokens();
    assert.equal(tokens.length, 1);
    await runCommand(page, 'MCP Roundtrip Probe: Show Sign-In Fingerprints');
    const probe = await waitForNotification(page, /probe sign-in fingerprints:/);
    const fingerprint = createHash('sha256').update(tokens[0]).digest('hex').slice(0, 16);
    assert.ok(probe.includes(`protected=${fingerprint}`), `secret storage holds the token the server accepted (${probe})`);
    for (const where of [path.join(host.userDataDir, 'User', 'settings.json'), host.logsDir, ws]) {
      assert.deepEqual(filesContaining(where, tokens[0]), [], `the token is not in ${where}`);
    }
  });

  it('after Sign Out of Server…, the next call asks again', async () => {
    const page = wb.page;
    await reset(page);
    await commandPick(page, 'MCP Roundtrip: Sign Out of Server…', ['protected']);
    await waitForNotification(page, /Signed out of protected/);
    await waitForLog(host.logsDir, /\[protected\] sign-in: signed out/);
    await commandPick(page, 'MCP Roundtrip: Call Tool…', ['protected']);
    const again = await waitForNotification(page, /asks you to sign in at/);
    assert.match(again, /MCP server "protected" asks you to sign in/);
    await clickNotificationButton(page, /asks you to sign in at/, 'Not now');
    await waitForLog(host.logsDir, /signing in to protected was declined/);
    await runCommand(page, 'MCP Roundtrip Probe: Show Sign-In Fingerprints');
    assert.match(await waitForNotification(page, /probe sign-in fingerprints:.*protected=none/), /protected=none/);
  });
});
