/** What the CLI shows of a listing and how it expands a URI template, without a server. */
import assert from 'node:assert/strict';
import { uriToRead } from '../../../src/core/arguments/uriTemplate';
import { appMark, emptyListingLine, shownItems } from '../../../src/cli/reach';
import { HostError } from '../../../src/core/util/errors';

const usage = (f: () => unknown, re: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof HostError && e.kind === 'usage' && re.test(e.message));

describe('CLI reach: listings and URI templates', () => {
  it('tools leaves out the App-only ones; other listings are shown as listed', () => {
    const items = [{ name: 'show' }, { name: 'refresh', _meta: { ui: { visibility: ['app'] } } }];
    assert.deepEqual(
      shownItems('tools', items).map((t) => t.name),
      ['show'],
    );
    assert.equal(shownItems('prompts', items).length, 2);
    assert.equal(emptyListingLine('server-everything', 'tools'), 'server-everything lists no tools');
    assert.equal(emptyListingLine('demo-server', 'resourceTemplates'), 'demo-server lists no resource templates');
  });

  it('a tool with an MCP App is marked with its ui:// resource; other items are not', () => {
    assert.equal(
      appMark({ name: 'get-time', _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } } }),
      'app ui://get-time/mcp-app.html',
    );
    assert.equal(appMark({ name: 'old', _meta: { 'ui/resourceUri': 'ui://old/app.html' } }), 'app ui://old/app.html');
    assert.equal(appMark({ name: 'plain' }), undefined);
    assert.equal(appMark({ name: 'web', _meta: { ui: { resourceUri: 'https://example.com/app.html' } } }), undefined);
  });

  it('a URI template is expanded by RFC 6570 (reserved characters encoded, lists, query forms)', () => {
    assert.equal(uriToRead('file:///{path}', { path: 'a b/c' }), 'file:///a%20b%2Fc');
    assert.equal(uriToRead('file:///{+path}', { path: 'a b/c' }), 'file:///a%20b/c');
    assert.equal(uriToRead('demo://search{?q,tags}', { q: 'x', tags: ['a', 'b'] }), 'demo://search?q=x&tags=a,b');
    assert.equal(uriToRead('demo://n/{id}', { id: 7 }), 'demo://n/7');
    assert.equal(uriToRead('demo://n/7', undefined), 'demo://n/7');
  });

  it('a template read without --args is a usage error naming its variables', () => {
    usage(
      () => uriToRead('demo://n/{id}{?q}', undefined),
      /this is a URI template; give its variables with --args.*\(its variables: id, q\)/,
    );
  });

  it('a variable the template lacks, or a value that is no string, is a usage error naming it', () => {
    usage(() => uriToRead('demo://n/{id}', { name: 'x' }), /has no variable "name" \(its variables: id\)/);
    usage(() => uriToRead('demo://n/{id}', { id: { a: 1 } }), /"id" needs a string or a list of strings/);
  });
});
