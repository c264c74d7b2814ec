/**
 * What a person is told before typing a password, through the real sign-in against a hostile fake
 * authorization server: the host the browser goes to (not only the issuer's), every scope (a
 * step-up's new ones first; VS Code moves a long text to a modal, the CLI prints it whole), an
 * authorization URL with a user name refused before anything is registered, unusable protected
 * resource metadata refused with its reason, and an ID token's account shown only as a claim.
 */
import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { terminalSignIn } from '../../../src/cli/terminalSignIn';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import type { HostEvent } from '../../../src/core/log/events';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import type { AuthorizationDriver, AuthorizationRequest } from '../../../src/core/oauth/driver';
import { headlessDriver } from '../../../src/core/oauth/headlessDriver';
import { MemoryOAuthStore } from '../../../src/core/oauth/oauthStore';
import { signedInText } from '../../../src/core/oauth/signedInText';
import { HostError } from '../../../src/core/util/errors';
import { startFakeAuthServer, type FakeAuthOptions, type FakeAuthServer } from '../../support/fakeAuthServer';
import { scriptedProvider } from '../../support/providers';
import { useVscodeStub } from '../../support/vscodeStub';

let fake: FakeAuthServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Run one call against a fake built by `options` with `driver`; the call's error. */
async function callFails(options: FakeAuthOptions, driver: AuthorizationDriver, events: HostEvent[] = []): Promise<HostError> {
  fake = await startFakeAuthServer(options);
  const c = new ServerConnection(
    { transport: 'http', name: 'hostile', url: fake.mcpUrl, era: 'modern' },
    {
      provider: scriptedProvider({}),
      onEvent: (e) => events.push(e),
      oauth: { store: new MemoryOAuthStore(), driver, callbackPort: 0 },
    },
  );
  try {
    const e = await callWithRoundTrips(c, 'tools/call', { name: 'read_file', arguments: {} }).then(
      () => assert.fail('the call succeeded'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof HostError, String(e));
    return e;
  } finally {
    await c.close();
  }
}

/** The CLI's driver, printing to a string; the person never answers (the prompt fails: cancelled). */
function terminal(): { driver: AuthorizationDriver; printed: () => string } {
  let out = '';
  const driver = terminalSignIn({
    interactive: true,
    out: { write: (s: string) => ((out += s), true) } as NodeJS.WritableStream,
    ask: () => Promise.reject(new HostError('cancelled', 'nobody answered')),
    openBrowser: false,
    storeHint: undefined,
  });
  return { driver, printed: () => out };
}

const notCalled: AuthorizationDriver = { interactive: true, authorize: () => assert.fail('the person was asked') };
const READS = Array.from({ length: 45 }, (_, i) => `read:resource-number-${i}`);
/** A server granting the read scopes, then asking for `admin:org:delete` (403 insufficient_scope). */
const stepUp: FakeAuthOptions['mcp'] = (authorization) =>
  authorization
    ? { status: 403, wwwAuthenticate: `error="insufficient_scope", scope="admin:org:delete"` }
    : { status: 401, wwwAuthenticate: `scope="${READS.join(' ')}"` };
/** The first sign-in headless, the step-up through `other`. */
const thenStepUp = (other: AuthorizationDriver): AuthorizationDriver => ({
  interactive: true,
  authorize: (req: AuthorizationRequest) => (req.reason === 'stepUp' ? other.authorize(req) : headlessDriver().authorize(req)),
});

describe('sign-in: what the person is told', function () {
  this.timeout(20_000);

  it('names the host the browser goes to when it is not the issuer’s (CLI)', async () => {
    const t = terminal();
    await callFails({ metadata: { authorization_endpoint: 'https://login.phish.example/authorize' } }, t.driver);
    assert.match(t.printed(), /asks you to sign in at login\.phish\.example \(not at 127\.0\.0\.1:\d+, the authorization server's host\)/);
    assert.match(t.printed(), /\n {2}https:\/\/login\.phish\.example\/authorize\?/);
  });

  it('an authorization URL with a user name before the host: refused before registering, nobody asked', async () => {
    const e = await callFails({ metadata: { authorization_endpoint: 'https://127.0.0.1:8443@login.phish.example/authorize' } }, notCalled);
    assert.equal(e.kind, 'auth');
    assert.match(e.message, /authorization endpoint https:\/\/…@login\.phish\.example has a user name or password before the host/);
    assert.equal(fake!.seen.registrations, 0);
  });

  it('an authorization endpoint over plain http off loopback: refused before registering', async () => {
    const e = await callFails({ metadata: { authorization_endpoint: 'http://login.example.com/authorize' } }, notCalled);
    assert.match(e.message, /http:\/\/login\.example\.com: a browser is only sent to https or loopback URLs; nothing was registered/);
    assert.equal(fake!.seen.registrations, 0);
  });

  it('a step-up shows every scope, the new one first (CLI prints it whole)', async () => {
    const t = terminal();
    await callFails({ mcp: stepUp }, thenStepUp(t.driver));
    const printed = t.printed();
    assert.match(printed, /needs more permission for \S+ at 127\.0\.0\.1:\d+ \(new scopes: admin:org:delete; granted before: read:/);
    for (const s of READS) assert.ok(printed.includes(s), `${s} is shown`);
  });

  describe('in VS Code', () => {
    useVscodeStub();
    let shown: unknown[][] = [];
    let restore: () => void = () => {};
    before(() => {
      const window = (require('vscode') as typeof vscode).window as unknown as Record<string, unknown>;
      const original = window.showInformationMessage;
      window.showInformationMessage = (...args: unknown[]) => (shown.push(args), Promise.resolve(undefined));
      restore = () => (window.showInformationMessage = original);
    });
    after(() => restore());
    beforeEach(() => (shown = []));

    /** The extension's driver asking the person (its remote-window redirect handling is not under test here). */
    const vscodeDriver = (): AuthorizationDriver => {
      const m = require('../../../src/vscode/oauth/vscodeSignIn') as typeof import('../../../src/vscode/oauth/vscodeSignIn');
      const d = m.vscodeSignIn(() => {});
      return { interactive: true, authorize: (req) => d.authorize(req) };
    };

    it('a step-up too long for a notification: a modal with every scope, the new one first', async () => {
      const e = await callFails({ mcp: stepUp }, thenStepUp(vscodeDriver()));
      assert.equal(e.kind, 'cancelled');
      const [message, options] = shown[0] as [string, { modal?: boolean; detail?: string }];
      assert.match(message, /needs more permission for \S+ at 127\.0\.0\.1:\d+\.$/);
      assert.equal(options.modal, true);
      assert.match(options.detail!, /^New scopes: admin:org:delete; granted before: read:/);
      for (const s of READS) assert.ok(options.detail!.includes(s), `${s} is shown`);
    });

    it('a short sign-in: a notification naming the host the browser goes to', async () => {
      await callFails({ metadata: { authorization_endpoint: 'https://login.phish.example/authorize' } }, vscodeDriver());
      const [message, ...buttons] = shown[0] as string[];
      assert.match(
        message,
        /^MCP server "hostile" asks you to sign in at login\.phish\.example \(not at 127\.0\.0\.1:\d+, the authorization server's host\) \(scopes: files:read\)\.$/,
      );
      assert.deepEqual(buttons, ['Sign in…', 'Not now']);
    });
  });

  it('unusable protected resource metadata: refused with the reason, no registration, nobody asked', async () => {
    const missing = await callFails({ resourceMetadata: null }, notCalled);
    assert.match(
      missing.message,
      /protected resource metadata \(RFC 9728\) was not found or not usable \(GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp → 404/,
    );
    assert.equal(fake!.seen.registrations, 0);
    await fake!.close();
    const empty = await callFails({ resourceMetadata: { authorization_servers: [] } }, notCalled);
    assert.match(
      empty.message,
      /protected resource metadata \(RFC 9728\) names no authorization server; the host does not sign in without it/,
    );
    assert.equal(fake!.seen.registrations, 0);
  });

  it('an unsigned ID token (alg none): its account is shown as a claim only', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: '1', preferred_username: 'ceo@bank.example' })).toString('base64url');
    const events: HostEvent[] = [];
    await callFails({ tokenExtra: { id_token: `${header}.${payload}.` } }, headlessDriver(), events);
    const log = JSON.stringify(events);
    assert.match(log, /signed in with 127\.0\.0\.1:\d+ \(an unverified ID token claims to be ceo@bank\.example\)/);
    assert.doesNotMatch(log, / as ceo@bank\.example/);
    assert.equal(
      signedInText({ issuer: 'https://login.example.com', account: 'ada' }),
      'signed in with login.example.com (an unverified ID token claims to be ada)',
    );
  });
});
