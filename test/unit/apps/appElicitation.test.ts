/**
 * App-rendered elicitation (SEP-3118): which requests an app answers, the negotiation flag on both
 * sides, the check of the app's answer against the requested schema, and the round panel's form card
 * with an app: **Use the Form**, the fall-back when the app fails or answers wrongly, Decline, and the
 * accepted answer (src/core/apps/appElicitation.ts, src/vscode/roundPanel/inputs/formInput.ts).
 */
import assert from 'node:assert/strict';
import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import { checkAppElicitResult, elicitationAppUri, serverOffersAppElicitation } from '../../../src/core/apps/appElicitation';
import { withAppsCapability } from '../../../src/core/apps/appsCapability';
import { CallPanel } from '../../../src/vscode/roundPanel/callPanel';
import type { ElicitationApp } from '../../../src/vscode/roundPanel/inputs/formInput';
import { parseWebviewMessage } from '../../../src/vscode/roundPanel/parseMessage';
import { ctx, F1, FakeHost, form, formItem, round, state } from '../../support/panels';

const COLOR = { type: 'object', properties: { color: { type: 'string', enum: ['red', 'green'] } }, required: ['color'] };
const params = (uri: unknown = 'ui://picker/app.html', extra: Record<string, unknown> = {}) =>
  ({
    mode: 'form' as const,
    message: 'Pick a color',
    requestedSchema: COLOR,
    _meta: { ui: { resourceUri: uri } },
    ...extra,
  }) as unknown as ElicitRequestParams & Record<string, unknown>;
const APP: ElicitationApp = {
  url: 'http://127.0.0.1:4321/app/0123456789abcdef0123456789abcdef',
  uri: 'ui://picker/app.html',
  params: params(),
  hostVersion: '0.1.0',
};

describe('MCP Apps: app-rendered elicitation (SEP-3118)', () => {
  it('an app answers only a form request naming a ui:// resource with a host', () => {
    assert.equal(elicitationAppUri(params()), 'ui://picker/app.html');
    assert.equal(elicitationAppUri({ ...params(), mode: undefined }), 'ui://picker/app.html');
    assert.equal(elicitationAppUri(params('https://example.com/app.html')), undefined);
    assert.equal(elicitationAppUri(params('ui:///no-host')), undefined);
    assert.equal(elicitationAppUri(params(42)), undefined);
    assert.equal(elicitationAppUri({ mode: 'url', url: 'https://x.test', _meta: { ui: { resourceUri: 'ui://picker/a' } } }), undefined);
    assert.equal(elicitationAppUri({ message: 'no meta' }), undefined);
  });

  it('negotiated by the elicitation flag inside the ui extension, on both sides', () => {
    assert.equal(serverOffersAppElicitation({ extensions: { 'io.modelcontextprotocol/ui': { elicitation: {} } } }), true);
    assert.equal(serverOffersAppElicitation({ extensions: { 'io.modelcontextprotocol/ui': {} } }), false);
    assert.equal(serverOffersAppElicitation({ tools: {} }), false);
    assert.equal(serverOffersAppElicitation(undefined), false);
    const ui = (caps: unknown) => (caps as { extensions: Record<string, unknown> }).extensions['io.modelcontextprotocol/ui'];
    assert.deepEqual(ui(withAppsCapability({ elicitation: { form: {} } }, true, { elicitation: true })), {
      mimeTypes: ['text/html;profile=mcp-app'],
      elicitation: {},
    });
    // Not without the core form capability, and not unless the host asks for it (the CLI does not render).
    assert.deepEqual(ui(withAppsCapability({ elicitation: { url: {} } }, true, { elicitation: true })), {
      mimeTypes: ['text/html;profile=mcp-app'],
    });
    assert.deepEqual(ui(withAppsCapability({ elicitation: { form: {} } }, true)), { mimeTypes: ['text/html;profile=mcp-app'] });
  });

  it("checks the app's answer against the requested schema; decline and cancel carry no content", () => {
    assert.deepEqual(checkAppElicitResult({ action: 'accept', content: { color: 'green' } }, COLOR), {
      ok: true,
      result: { action: 'accept', content: { color: 'green' } },
    });
    const bad = checkAppElicitResult({ action: 'accept', content: { color: 'purple' } }, COLOR);
    assert.equal(bad.ok, false);
    assert.match((bad as { reason: string }).reason, /does not match the requested schema: color/);
    assert.equal(checkAppElicitResult({ action: 'accept', content: { color: 'red', extra: 1 } }, COLOR).ok, false);
    assert.equal(checkAppElicitResult({ action: 'accept' }, COLOR).ok, false);
    assert.deepEqual(checkAppElicitResult({ action: 'decline', content: { color: 'x' } }, COLOR), {
      ok: true,
      result: { action: 'decline' },
    });
    assert.deepEqual(checkAppElicitResult({ action: 'cancel' }, COLOR), { ok: true, result: { action: 'cancel' } });
    assert.equal(checkAppElicitResult({ action: 'maybe' }, COLOR).ok, false);
    assert.equal(checkAppElicitResult('accept', COLOR).ok, false);
  });

  it("the card shows the app; the app's valid answer is the input response", async () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const r = round([['color', 'elicitation/create']]);
    const answer = flow.elicit(params(), ctx(r, 'color'), APP);
    const item = formItem(host.last, 'color');
    assert.equal(item.app?.url, APP.url);
    assert.deepEqual(item.app?.params, params());
    assert.equal(item.fields.length, 1, 'the native form is ready underneath');
    // Submit is for the native forms only: the app's card is not among them.
    flow.receive({ type: 'submit', forms: {} });
    assert.equal((await state(answer)).done, false);
    flow.receive({ type: 'appAnswer', id: item.id, result: { action: 'accept', content: { color: 'green' } } });
    assert.deepEqual(await answer, { action: 'accept', content: { color: 'green' } } satisfies ElicitResult);
    assert.equal(formItem(host.last, 'color').state, 'accepted');
    assert.equal(formItem(host.last, 'color').app, undefined);
  });

  it('an answer off the schema, a failure or Use the Form shows the native form (with why); Decline works as for any form', async () => {
    for (const [message, note] of [
      [{ type: 'appAnswer', result: { action: 'accept', content: { color: 'purple' } } }, /answer was not used .*color/],
      [{ type: 'appFailed', reason: 'it did not start within 15 s' }, /could not be used \(it did not start within 15 s\)/],
      [{ type: 'useForm' }, undefined],
    ] as const) {
      const host = new FakeHost();
      const flow = new CallPanel(7, host);
      const r = round([['color', 'elicitation/create']]);
      const answer = flow.elicit(params(), ctx(r, 'color'), APP);
      const id = formItem(host.last, 'color').id;
      flow.receive({ ...message, id });
      const item = formItem(host.last, 'color');
      assert.equal(item.app, undefined, `${message.type}: the app is gone`);
      assert.equal(item.state, 'pending');
      if (note) assert.match(item.appNote ?? '', note);
      else assert.equal(item.appNote, undefined);
      assert.equal((await state(answer)).done, false, 'nothing was sent for the app');
      // A late answer of the app is ignored once the form is shown.
      flow.receive({ type: 'appAnswer', id, result: { action: 'accept', content: { color: 'red' } } });
      assert.equal((await state(answer)).done, false);
      flow.receive({ type: 'submit', forms: { [id]: { color: 'red' } } });
      assert.deepEqual(await answer, { action: 'accept', content: { color: 'red' } });
    }
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    const answer = flow.elicit(params(), ctx(round([['color', 'elicitation/create']]), 'color'), APP);
    flow.receive({ type: 'decline', id: formItem(host.last, 'color').id });
    assert.deepEqual(await answer, { action: 'decline' });
  });

  it('without an app (apps off, not negotiated) the same request is a native form', () => {
    const host = new FakeHost();
    const flow = new CallPanel(7, host);
    void flow.elicit(form(F1), ctx(round([['a', 'elicitation/create']]), 'a'));
    assert.equal(formItem(host.last, 'a').app, undefined);
  });

  it("the webview's app messages are checked for shape", () => {
    assert.deepEqual(parseWebviewMessage({ type: 'useForm', id: 'i1' }), { ok: true, message: { type: 'useForm', id: 'i1' } });
    assert.equal(parseWebviewMessage({ type: 'appAnswer', id: 'i1', result: 'accept' }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'appAnswer', id: 'i1', result: {}, extra: 1 }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'appFailed', id: 'i1' }).ok, false);
    const failed = parseWebviewMessage({ type: 'appFailed', id: 'i1', reason: 'x'.repeat(2000) });
    assert.equal(failed.ok && failed.message.type === 'appFailed' && failed.message.reason.length, 500);
  });
});
