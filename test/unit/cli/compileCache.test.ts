/**
 * Loading a bundle through V8's code cache (src/cli/compileCache.ts), as the CLI's host and the demo
 * server are: the data is kept per bundle, place and Node version, a later start reads it instead of
 * writing it again, one bundle's data never removes another's, a process stopped by a signal has still
 * written it, and a cache directory others may write to is not used. The children take the `vm.Script`
 * path on any Node (Node's own cache, 22.1+, is switched off in them).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fnv1a32 } from '../../../src/cli/compileCache';
import { ROOT } from '../../support/build';

const LOADER = join(ROOT, 'src', 'cli', 'compileCache.ts');
const NODE_TAG = `${process.version}-${process.arch}-`;
/** The names' prefix of `file`'s data: bundle, a hash of its path, Node version. */
const tagOf = (file: string, name: string) => `${name}-${fnv1a32(file)}-${NODE_TAG}`;
/** The name of `file`'s data as it is now (its size and mtime). */
const dataNameOf = (file: string, name: string) => `${tagOf(file, name)}${statSync(file).size}-${Math.round(statSync(file).mtimeMs)}.bin`;

describe('compile cache: the place hash (fnv1a32)', () => {
  it('is 32-bit FNV-1a, as 8 hex digits (the published test vectors)', () => {
    assert.equal(fnv1a32(''), '811c9dc5');
    assert.equal(fnv1a32('a'), 'e40c292c');
    assert.equal(fnv1a32('foobar'), 'bf9cf968');
  });
  it('tells two copies of a bundle apart', () => assert.notEqual(fnv1a32('/a/dist/cli-main.js'), fnv1a32('/b/dist/cli-main.js')));
});

describe('compile cache (loadBundle)', function () {
  this.timeout(60_000);
  let home: string;
  let cacheDir: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'mcp-rt-cache-'));
    cacheDir = join(home, 'mcp-roundtrip', 'compile-cache');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  /** A CommonJS bundle in the temp folder whose body is `body`. */
  function bundle(name: string, body: string, folder = home): string {
    mkdirSync(folder, { recursive: true });
    const file = join(folder, `${name}.js`);
    writeFileSync(file, body);
    return file;
  }

  /** Starts a Node that loads `file` by loadBundle (its own compile cache off) and prints what it exports. */
  function load(file: string): { child: ReturnType<typeof spawn>; stdout: Promise<string> } {
    const code = `delete require('node:module').enableCompileCache; process.stdout.write(String(require(${JSON.stringify(LOADER)}).loadBundle(${JSON.stringify(file)}).value) + '\\n')`;
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', code], {
      cwd: ROOT,
      env: { ...process.env, XDG_CACHE_HOME: home },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    return { child, stdout: once(child, 'exit').then(() => out) };
  }

  const cached = () =>
    readdirSync(cacheDir)
      .filter((f) => f.endsWith('.bin'))
      .sort();
  const dataOf = (file: string, name: string) => cached().filter((n) => n.startsWith(tagOf(file, name)));

  it('runs the bundle, keeps its data under its own name, and reads it on the next start without writing it again', async () => {
    const file = bundle('host', 'module.exports = { value: 6 * 7 };');
    assert.equal((await load(file).stdout).trim(), '42');
    assert.deepEqual(cached(), [dataNameOf(file, 'host')]);
    const written = statSync(join(cacheDir, cached()[0])).mtimeMs;
    assert.equal((await load(file).stdout).trim(), '42');
    assert.equal(statSync(join(cacheDir, cached()[0])).mtimeMs, written, 'the accepted data is not written again');
    assert.deepEqual(
      readdirSync(cacheDir).filter((f) => !f.endsWith('.bin')),
      [],
      'no temporary file left',
    );
  });

  it("keeps two bundles' and two copies' data side by side, and removes only the same copy's stale data of this Node (under its place's FNV-1a or former SHA-256 name) and names from before", async () => {
    const host = bundle('host', 'module.exports = { value: "host" };');
    const copy = bundle('host', 'module.exports = { value: "copy" };', join(home, 'other'));
    const server = bundle('server', 'module.exports = { value: "server" };');
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(cacheDir, `${tagOf(host, 'host')}1-1.bin`), 'stale');
    writeFileSync(join(cacheDir, `host-${'0'.repeat(8)}-v0.0.0-x64-1-1.bin`), 'another Node');
    writeFileSync(join(cacheDir, `${NODE_TAG}1-1.bin`), 'from before');
    // The place as it was named before FNV-1a: the first 8 hex digits of the path's SHA-256.
    const shaNamed = (file: string) => `host-${createHash('sha256').update(file).digest('hex').slice(0, 8)}-${NODE_TAG}1-1.bin`;
    writeFileSync(join(cacheDir, shaNamed(host)), 'this copy, its place named by SHA-256');
    writeFileSync(join(cacheDir, shaNamed(join(home, 'elsewhere', 'host.js'))), 'another copy, named by SHA-256');
    assert.equal((await load(host).stdout).trim(), 'host');
    assert.equal((await load(copy).stdout).trim(), 'copy');
    assert.equal((await load(server).stdout).trim(), 'server');
    const names = cached();
    assert.ok(!names.includes(`${tagOf(host, 'host')}1-1.bin`), `stale data removed: ${names.join(', ')}`);
    assert.ok(!names.includes(`${NODE_TAG}1-1.bin`), `a name from before removed: ${names.join(', ')}`);
    assert.ok(!names.includes(shaNamed(host)), `this copy's SHA-256-named data removed: ${names.join(', ')}`);
    assert.ok(names.includes(shaNamed(join(home, 'elsewhere', 'host.js'))), `another copy's SHA-256-named data kept: ${names.join(', ')}`);
    assert.ok(names.includes(`host-${'0'.repeat(8)}-v0.0.0-x64-1-1.bin`), `another Node's data kept: ${names.join(', ')}`);
    assert.equal(dataOf(host, 'host').length, 1, names.join(', '));
    assert.equal(dataOf(copy, 'host').length, 1, names.join(', '));
    assert.equal(dataOf(server, 'server').length, 1, names.join(', '));
  });

  it('has written the data once the bundle has run, for a process that is then killed', async () => {
    // The bundle's own setImmediate runs after the loader's write; it then waits forever, as a server does.
    const file = bundle(
      'server',
      'setImmediate(() => process.stdout.write("ready\\n")); setInterval(() => {}, 1e6); module.exports = { value: "" };',
    );
    const { child, stdout } = load(file);
    await new Promise<void>((resolve) => child.stdout!.on('data', (d) => String(d).includes('ready') && resolve()));
    child.kill('SIGKILL');
    await stdout;
    assert.equal(dataOf(file, 'server').length, 1, cached().join(', '));
  });

  it('does not use a cache directory that others may write to (their data would run as ours), and still runs the bundle', async function () {
    if (process.platform === 'win32') this.skip();
    mkdirSync(cacheDir, { recursive: true });
    chmodSync(cacheDir, 0o777);
    const file = bundle('host', 'module.exports = { value: "ran" };');
    const planted = join(cacheDir, dataNameOf(file, 'host'));
    writeFileSync(planted, 'planted');
    assert.equal((await load(file).stdout).trim(), 'ran');
    // Had the directory been used, the data (which V8 rejects) would have been written again.
    assert.equal(readFileSync(planted, 'utf8'), 'planted');
    assert.deepEqual(readdirSync(cacheDir), [basename(planted)], 'nothing written or removed there');
  });
});
