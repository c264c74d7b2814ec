/**
 * VS Code's MCP policy as it applies to the bridge's servers: chat.mcp.access "none" (or false) and
 * "registry" keep every extension-provided server out; a deny-list match or an allow-list that does
 * not match keeps one out; names and URLs (with `*`) match like VS Code's.
 */
import assert from 'node:assert/strict';
import { policyBlock, urlMatches } from '../../../src/core/chat/policy';

const server = { name: 'demo (via MCP Roundtrip)', url: 'http://127.0.0.1:41234/mcp/demo' };

describe('chat MCP policy', () => {
  it('nothing blocks with the defaults', () => {
    assert.equal(policyBlock({}, server), undefined);
    assert.equal(policyBlock({ access: 'all', allowedServers: null, deniedServers: null }, server), undefined);
  });

  it('chat.mcp.access "none", false or "registry" blocks, saying why and what still works', () => {
    assert.match(policyBlock({ access: 'none' }, server) ?? '', /chat\.mcp\.access is "none".*@roundtrip/);
    assert.match(policyBlock({ access: false }, server) ?? '', /"none"/);
    assert.match(policyBlock({ access: 'registry' }, server) ?? '', /"registry": only servers from the MCP registry/);
  });

  it('a deny-list match blocks; an allow-list blocks what it does not list', () => {
    assert.match(policyBlock({ deniedServers: [{ serverName: server.name }] }, server) ?? '', /deniedServers matches/);
    assert.match(policyBlock({ deniedServers: [{ serverUrl: 'http://127.0.0.1:*/mcp/*' }] }, server) ?? '', /deniedServers/);
    assert.equal(policyBlock({ deniedServers: [{ serverName: 'other' }, { serverCommand: ['node'] }] }, server), undefined);
    assert.match(policyBlock({ allowedServers: [] }, server) ?? '', /allowedServers does not list "demo \(via MCP Roundtrip\)"/);
    assert.equal(policyBlock({ allowedServers: [{ serverUrl: 'http://127.0.0.1:*/mcp/*' }] }, server), undefined);
    assert.equal(policyBlock({ allowedServers: [{ serverName: server.name }] }, server), undefined);
    assert.match(policyBlock({ allowedServers: [{ serverCommand: ['node', 'x'] }] }, server) ?? '', /does not list/);
  });

  it('URL patterns: exact (any case) or with * for any run, a port included', () => {
    assert.ok(urlMatches('HTTP://127.0.0.1:41234/mcp/demo', server.url));
    assert.ok(urlMatches('http://127.0.0.1:*/mcp/demo', server.url));
    assert.ok(!urlMatches('http://127.0.0.1:*/mcp/other', server.url));
    assert.ok(!urlMatches('http://127.0.0.1:41234/mcp/dem', server.url));
    assert.ok(!urlMatches('http://127.0.0.1.evil/*', server.url), 'dots are literal');
  });
});
