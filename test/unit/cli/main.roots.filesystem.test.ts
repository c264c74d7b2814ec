/**
 * Roots that do not fight the server: `@modelcontextprotocol/server-filesystem` replaces the
 * directories on its command line with the client's roots once the client declares them. Without
 * --roots the CLI declares none, so the directory the person allowed stays allowed, call after call;
 * with roots, once it has taken them, they scope it (a file outside them refused).
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

  it('with roots, once it has taken them, they scope it: a file under the root is read, one in the directory of its command line refused', async () => {
    writeFileSync(join(other, 'inside.txt'), 'under the root');
    const provider = rootsOnlyWhenGiven(scriptedInputs({}, [other], undefined), [other], {});
    let taken!: () => void;
    const tookRoots = new Promise<void>((resolve) => (taken = resolve));
    const conn = new ServerConnection(
      { transport: 'stdio', name: 'server-filesystem', command: process.execPath, args: [FILESYSTEM, allowed], cwd: other },
      {
        provider,
        // The server says on stderr when it has replaced its directories with the client's roots: the state waited for.
        onEvent: (e) => {
          if (e.kind === 'stderr' && /Updated allowed directories from MCP roots: 1 valid/.test(e.line)) taken();
        },
      },
    );
    try {
      await conn.ensureConnected();
      await tookRoots;
      const read = (path: string) =>
        callWithRoundTrips(conn, 'tools/call', { name: 'read_text_file', arguments: { path } }, { maxRounds: 1 });
      const inside = await read(join(other, 'inside.txt'));
      assert.deepEqual(inside.result.content, [{ type: 'text', text: 'under the root' }]);
      const outside = await read(join(allowed, 'note.txt'));
      assert.equal(outside.result.isError, true);
      assert.match(JSON.stringify(outside.result.content), /outside allowed directories/);
    } finally {
      await conn.close();
    }
  });

  it('started without a directory and given --roots, a file outside the roots is refused through the CLI (exit 1)', () => {
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        '--stdio',
        `"${process.execPath}" "${FILESYSTEM}"`,
        '--roots',
        other,
        'call',
        'read_text_file',
        '--args',
        JSON.stringify({ path: join(allowed, 'note.txt') }),
      ],
      { encoding: 'utf8', timeout: 30_000, cwd: other },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout + r.stderr, /Access denied - path outside allowed directories/);
    assert.doesNotMatch(r.stdout, /kept allowed/);
  });
});
