/**
 * Roots that do not fight the server: `@modelcontextprotocol/server-filesystem` replaces the
 * directories on its command line with the client's roots once the client declares them. Without
 * --roots the CLI declares none, so the directory the person allowed stays allowed, call after call.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootsOnlyWhenGiven } from '../../../src/cli/cliRoots';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { callWithRoundTrips } from '../../../src/core/mrtr/driver';
import { scriptedInputs } from '../../../src/core/mrtr/scriptedInputs';
import { DIST, ROOT, ensureBuilt } from '../../support/build';

const CLI = join(DIST, 'cli.js');
const FILESYSTEM = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const allowed = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-rt-fs-allowed-')));
const other = realpathSync(mkdtempSync(join(tmpdir(), 'mcp-rt-fs-other-')));
writeFileSync(join(allowed, 'note.txt'), 'kept allowed');
const server = `"${process.execPath}" "${FILESYSTEM}" "${allowed}"`;
const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, '--stdio', server, ...args], { encoding: 'utf8', timeout: 30_000, cwd: other });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('CLI roots against server-filesystem', function () {
  this.timeout(90_000);
  before(() => ensureBuilt());

  it('without --roots, the directory on its command line stays allowed (not the current directory)', () => {
    const dirs = run(['call', 'list_allowed_directories']);
    assert.equal(dirs.code, 0, dirs.stderr);
    assert.equal(dirs.stdout.trim(), `Allowed directories:\n${allowed}`);
    assert.doesNotMatch(dirs.stderr, /roots\/list/, 'the server was never asked for roots');
  });

  it("the CLI's provider over one connection: read_text_file stays allowed call after call", async () => {
    const provider = rootsOnlyWhenGiven(scriptedInputs({}, [], undefined), [], {});
    const conn = new ServerConnection(
      { transport: 'stdio', name: 'server-filesystem', command: process.execPath, args: [FILESYSTEM, allowed], cwd: other },
      { provider },
    );
    try {
      for (let i = 0; i < 4; i++) {
        const name = i % 2 ? 'list_allowed_directories' : 'read_text_file';
        const args = i % 2 ? {} : { path: join(allowed, 'note.txt') };
        const r = await callWithRoundTrips(conn, 'tools/call', { name, arguments: args }, { maxRounds: 1 });
        assert.notEqual(r.result.isError, true, JSON.stringify(r.result));
        assert.deepEqual(r.result.content, [{ type: 'text', text: i % 2 ? `Allowed directories:\n${allowed}` : 'kept allowed' }]);
      }
    } finally {
      await conn.close();
    }
  });

  it('with --roots, the roots capability is declared and the server is answered those roots when it asks', () => {
    // The server asks once it is initialized, beside the call: which of the two it sees first is its own affair.
    const r = run(['call', 'list_allowed_directories', '--roots', other]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`roots/list id=\\S+ pushed by a 2025-era server: 1 root\\(s\\): ${new URL(`file://${other}`).href}`));
  });
});
