/**
 * Loading a bundle through V8's code cache (src/cli/compileCache.ts), as the CLI's host and the demo
 * server are: the data is kept per bundle and Node version, a later start reads it instead of writing
 * it again, one bundle's data never removes another's, and a process stopped by a signal has still
 * written it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../support/build';

const LOADER = join(ROOT, 'src', 'cli', 'compileCache.ts');
const TAG = `${process.version}-${process.arch}-`;

describe('compile cache (loadHost)', function () {
  this.timeout(60_000);
  let home: string;
  let cacheDir: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'mcp-rt-cache-'));
    cacheDir = join(home, 'mcp-roundtrip', 'compile-cache');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  /** A CommonJS bundle in the temp folder whose body is `body`. */
  function bundle(name: string, body: string): string {
    const file = join(home, `${name}.js`);
    writeFileSync(file, body);
    return file;
  }

  /** Starts a Node that loads `file` by loadHost and prints what it exports; resolves with its stdout once it exits. */
  function load(file: string): { child: ReturnType<typeof spawn>; stdout: Promise<string> } {
    const code = `process.stdout.write(String(require(${JSON.stringify(LOADER)}).loadHost(${JSON.stringify(file)}).value) + '\\n')`;
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', code], { cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: home }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    return { child, stdout: once(child, 'exit').then(() => out) };
  }

  const cached = () => readdirSync(cacheDir).filter((f) => f.endsWith('.bin')).sort();

  it('runs the bundle, keeps its data under its own name, and reads it on the next start without writing it again', async () => {
    const file = bundle('host', 'module.exports = { value: 6 * 7 };');
    assert.equal((await load(file).stdout).trim(), '42');
    const size = statSync(file).size;
    assert.deepEqual(cached(), [`host-${TAG}${size}-${Math.round(statSync(file).mtimeMs)}.bin`]);
    const written = statSync(join(cacheDir, cached()[0])).mtimeMs;
    assert.equal((await load(file).stdout).trim(), '42');
    assert.equal(statSync(join(cacheDir, cached()[0])).mtimeMs, written, 'the accepted data is not written again');
  });

  it("keeps two bundles' data side by side, and removes only the same bundle's stale data of this Node", async () => {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, `host-${TAG}1-1.bin`), 'stale');
    writeFileSync(join(cacheDir, 'host-v0.0.0-x64-1-1.bin'), 'another Node');
    const host = bundle('host', 'module.exports = { value: "host" };');
    const server = bundle('server', 'module.exports = { value: "server" };');
    assert.equal((await load(host).stdout).trim(), 'host');
    assert.equal((await load(server).stdout).trim(), 'server');
    const names = cached();
    assert.ok(!names.includes(`host-${TAG}1-1.bin`), `stale data removed: ${names.join(', ')}`);
    assert.ok(names.includes('host-v0.0.0-x64-1-1.bin'), `another Node's data kept: ${names.join(', ')}`);
    assert.equal(names.filter((n) => n.startsWith(`host-${TAG}`)).length, 1, names.join(', '));
    assert.equal(names.filter((n) => n.startsWith(`server-${TAG}`)).length, 1, names.join(', '));
  });

  it('has written the data once the bundle has run, for a process that is then killed', async () => {
    // The bundle's own setImmediate runs after the loader's write; it then waits forever, as a server does.
    const file = bundle('server', 'setImmediate(() => process.stdout.write("ready\\n")); setInterval(() => {}, 1e6); module.exports = { value: "" };');
    const { child, stdout } = load(file);
    await new Promise<void>((resolve) => child.stdout!.on('data', (d) => String(d).includes('ready') && resolve()));
    child.kill('SIGKILL');
    await stdout;
    assert.equal(cached().filter((n) => n.startsWith(`server-${TAG}`)).length, 1, cached().join(', '));
  });
});
