/**
 * The MCP Apps gate of the core (src/core/apps): which tools have an app, reading and bounding its
 * document, the CSP built from what it declared, the capability advertised, and what an app's view may do.
 */
import assert from 'node:assert/strict';
import { appCsp, allowAttribute } from '../../../src/core/apps/appCsp';
import { appDocument } from '../../../src/core/apps/appResource';
import { AppMessageBudget, appToolVerdict, openableLink } from '../../../src/core/apps/appRequests';
import { advertisesApps, withAppsCapability } from '../../../src/core/apps/appsCapability';
import { appResourceUri, toolVisibility } from '../../../src/core/apps/appTool';
import { isAppOnlyTool } from '../../../src/core/connection/toolVisibility';
import { MAX_APP_RESOURCE_BYTES } from '../../../src/core/limits';
import { isHostError } from '../../../src/core/util/errors';
import { APP_HTML, APP_URI, READ, TOOLS } from '../../fixtures/apps/appListing';

const tool = (name: string) => TOOLS.find((t) => t.name === name)!;

describe('MCP Apps: the core gate', () => {
  it('a tool has an app when _meta.ui.resourceUri (or the flat ui/resourceUri) names a ui:// resource', () => {
    assert.equal(appResourceUri(tool('get-system-info')), APP_URI);
    assert.equal(appResourceUri(tool('legacy-key')), 'ui://legacy/app.html');
    assert.equal(appResourceUri(tool('not-ui-scheme')), undefined);
    assert.equal(appResourceUri(tool('plain')), undefined);
    assert.equal(appResourceUri({ name: 'x', _meta: { ui: { resourceUri: 'ui://' } } }), undefined);
    // The nested key wins over the flat one.
    assert.equal(appResourceUri({ name: 'x', _meta: { ui: { resourceUri: 'ui://a/1' }, 'ui/resourceUri': 'ui://b/2' } }), 'ui://a/1');
  });

  it('visibility: absent means both; ["app"] is app-only and never offered to a model', () => {
    assert.deepEqual(toolVisibility(tool('plain')), ['model', 'app']);
    assert.deepEqual(toolVisibility(tool('poll-system-stats')), ['app']);
    assert.equal(isAppOnlyTool(tool('poll-system-stats')), true);
    assert.equal(isAppOnlyTool(tool('kill-process')), false);
  });

  it('reads the document of a resources/read result, with _meta.ui from the content item before the listing', () => {
    const doc = appDocument(APP_URI, READ);
    assert.equal(doc.html, APP_HTML);
    assert.deepEqual(doc.csp, {});
    const listed = { uri: APP_URI, _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, permissions: { camera: {} } } } };
    assert.deepEqual(appDocument(APP_URI, READ, listed).csp, { connectDomains: ['https://api.example.com'] });
    assert.deepEqual(appDocument(APP_URI, READ, listed).permissions, ['camera']);
    const withOwn = {
      contents: [{ ...READ.contents[0], _meta: { ui: { csp: { resourceDomains: ['cdn.example.com'] }, prefersBorder: false } } }],
    };
    const own = appDocument(APP_URI, withOwn, listed);
    assert.deepEqual(own.csp, { resourceDomains: ['cdn.example.com'] });
    assert.deepEqual(own.permissions, []);
    assert.equal(own.prefersBorder, false);
    const blob = { contents: [{ uri: APP_URI, mimeType: 'text/html; profile=mcp-app', blob: Buffer.from(APP_HTML).toString('base64') }] };
    assert.equal(appDocument(APP_URI, blob).html, APP_HTML);
  });

  it('refuses a document of another mime type, without a body, or bigger than the bound, naming the resource', () => {
    const refused = (result: unknown, word: RegExp) =>
      assert.throws(
        () => appDocument(APP_URI, result),
        (e: unknown) => isHostError(e, 'protocol') && word.test((e as Error).message) && (e as Error).message.includes(APP_URI),
      );
    refused({ contents: [{ uri: APP_URI, mimeType: 'text/html', text: APP_HTML }] }, /text\/html;profile=mcp-app/);
    refused({ contents: [{ uri: APP_URI, mimeType: 'text/html;profile=mcp-app' }] }, /neither text nor blob/);
    refused({ contents: [] }, /no content/);
    refused(
      { contents: [{ uri: APP_URI, mimeType: 'text/html;profile=mcp-app', text: 'x'.repeat(MAX_APP_RESOURCE_BYTES + 1) }] },
      /bigger than/,
    );
    // Multi-byte text: the byte count, not the character count, is bounded.
    refused(
      { contents: [{ uri: APP_URI, mimeType: 'text/html;profile=mcp-app', text: 'é'.repeat(MAX_APP_RESOURCE_BYTES / 2 + 1) }] },
      /bigger than/,
    );
    refused(
      { contents: [{ uri: APP_URI, mimeType: 'text/html;profile=mcp-app', blob: 'QUFB'.repeat(MAX_APP_RESOURCE_BYTES / 3 + 1) }] },
      /bigger than/,
    );
  });

  it('the CSP: the spec default when nothing is declared; declared domains widen only their directives; tricks are dropped', () => {
    const none = appCsp({}).policy;
    assert.match(none, /^default-src 'none'; /);
    assert.match(none, /connect-src 'none'/);
    assert.match(none, /frame-src 'none'/);
    assert.match(none, /base-uri 'self'/);
    assert.match(none, /script-src 'self' 'unsafe-inline';/);
    const { policy, dropped } = appCsp({
      connectDomains: ['https://api.example.com', "'unsafe-eval'", 'https://x.com; script-src *', '*', 'http://a b'],
      resourceDomains: ['*.openstreetmap.org', 'https://cdn.example.com/path'],
    });
    assert.match(policy, /connect-src https:\/\/api\.example\.com;/);
    assert.match(policy, /script-src 'self' 'unsafe-inline' \*\.openstreetmap\.org;/);
    assert.match(policy, /img-src 'self' data: \*\.openstreetmap\.org;/);
    assert.doesNotMatch(policy, /unsafe-eval|x\.com|cdn\.example/);
    assert.deepEqual(dropped, ['https://cdn.example.com/path', "'unsafe-eval'", 'https://x.com; script-src *', '*', 'http://a b']);
    assert.equal(allowAttribute(['clipboardWrite', 'camera', 'bogus']), 'clipboard-write; camera');
  });

  it('advertises the extension with its mime type, keeping other capabilities and extensions, only when enabled', () => {
    const base = { elicitation: { form: {} }, extensions: { 'io.example/other': { x: 1 } } };
    const caps = withAppsCapability(base, true) as Record<string, unknown>;
    assert.deepEqual(caps.extensions, {
      'io.example/other': { x: 1 },
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
    assert.deepEqual(caps.elicitation, { form: {} });
    assert.equal(advertisesApps(caps), true);
    assert.equal(withAppsCapability(base, false), base);
    assert.equal(advertisesApps(base), false);
  });

  it("an app may call only its server's tools visible to apps; a tool not read-only asks first unless allowed for the app", () => {
    assert.equal(appToolVerdict(TOOLS, 'poll-system-stats').kind, 'allow');
    assert.equal(appToolVerdict(TOOLS, 'kill-process').kind, 'ask');
    assert.equal(appToolVerdict(TOOLS, 'kill-process', new Set(['kill-process'])).kind, 'allow');
    const refused = appToolVerdict(TOOLS, 'model-only');
    assert.equal(refused.kind, 'refuse');
    assert.match((refused as { reason: string }).reason, /not visible to apps/);
    assert.match((appToolVerdict(TOOLS, 'elsewhere') as { reason: string }).reason, /no tool elsewhere/);
    assert.equal(appToolVerdict(TOOLS, 42).kind, 'refuse');
  });

  it('a link may be offered only when it is http or https', () => {
    assert.equal(openableLink('https://example.com/a')?.href, 'https://example.com/a');
    assert.equal(openableLink('http://localhost:3000/')?.host, 'localhost:3000');
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'command:workbench.action.quit',
      'vscode://x',
      'not a url',
      42,
      'https://e.com/' + 'a'.repeat(3000),
    ])
      assert.equal(openableLink(bad), undefined, String(bad).slice(0, 40));
  });

  it('a flood or an oversized message stops the app for good', () => {
    const budget = new AppMessageBudget(3, 1000, 100);
    assert.equal(budget.admit(10, 0), undefined);
    assert.equal(budget.admit(10, 10), undefined);
    assert.equal(budget.admit(10, 20), undefined);
    assert.match(budget.admit(10, 30)!, /more than 3 messages in 1000 ms/);
    // Stopped for good: a new window does not restart it.
    assert.match(budget.admit(10, 5000)!, /more than 3 messages/);
    const slow = new AppMessageBudget(3, 1000, 100);
    for (let t = 0; t < 10_000; t += 400) assert.equal(slow.admit(10, t), undefined);
    assert.match(slow.admit(101, 20_000)!, /101 bytes/);
  });
});
