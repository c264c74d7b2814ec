/**
 * The app view's webview messages are checked for shape before the extension acts on them, and the
 * webview's own CSP frames the app server's origin and nothing else.
 */
import assert from 'node:assert/strict';
import { parseFromAppView } from '../../../src/vscode/apps/appViewProtocol';
import { panelCsp } from '../../../src/vscode/shared/webviewHtml';

describe('MCP Apps: the app view messages and the webview CSP', () => {
  it('keeps well-formed messages and drops the rest', () => {
    assert.deepEqual(parseFromAppView({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromAppView({ type: 'ready', opened: true }), { type: 'ready', opened: true });
    assert.deepEqual(parseFromAppView({ type: 'ready', opened: 'yes' }), { type: 'ready' });
    assert.deepEqual(parseFromAppView({ type: 'request', id: 3, method: 'tools/call', params: { name: 'x' } }), {
      type: 'request',
      id: 3,
      method: 'tools/call',
      params: { name: 'x' },
    });
    for (const bad of [
      null,
      'ready',
      { type: 'request', id: 1, method: 'sampling/createMessage', params: {} },
      { type: 'request', id: '1', method: 'tools/call', params: {} },
      { type: 'request', id: 1, method: 'tools/call', params: [] },
      { type: 'stopped' },
      { type: 'eval', code: 'x' },
    ])
      assert.equal(parseFromAppView(bad), undefined, JSON.stringify(bad));
    assert.equal((parseFromAppView({ type: 'note', text: 'x'.repeat(5000) }) as { text: string }).text.length, 2000);
  });

  it('the webview frames only the origin it is given, and refuses anything that is not an origin', () => {
    assert.doesNotMatch(panelCsp('vscode-webview://x', 'n'), /frame-src/);
    assert.match(panelCsp('vscode-webview://x', 'n', true, 'http://127.0.0.1:4321'), /; frame-src http:\/\/127\.0\.0\.1:4321$/);
    for (const bad of ['*', 'http://127.0.0.1:1; script-src *', "'self'", 'http://a/b', 'data:'])
      assert.throws(() => panelCsp('vscode-webview://x', 'n', true, bad), /not an origin to frame/);
  });
});
