/**
 * The CLI against a real MCP Apps server from npm (`@modelcontextprotocol/server-system-monitor` over
 * stdio): the tools listing marks the tool that has an app and leaves out the app-only one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DIST, ROOT, ensureBuilt } from '../../support/build';

const CLI = join(DIST, 'cli.js');
const MONITOR = `"${process.execPath}" "${join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-system-monitor', 'dist', 'index.js')}" --stdio`;

describe('CLI: MCP Apps in the tools listing (server-system-monitor)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('tools marks get-system-info with its app and leaves out the app-only poll-system-stats', () => {
    const r = spawnSync(process.execPath, [CLI, '--stdio', MONITOR, 'tools'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^get-system-info\tGet System Info — .* — app ui:\/\/system-monitor\/mcp-app\.html$/m);
    assert.doesNotMatch(r.stdout, /poll-system-stats/);
  });
});
