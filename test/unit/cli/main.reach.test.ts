/**
 * What a server offers, reached from the CLI as a real process against real servers:
 * `@modelcontextprotocol/server-everything` (templates, completion, structured content, its name) and
 * the demo server (an empty listing, no completions).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DIST, ROOT, ensureBuilt } from '../../support/build';

const CLI = join(DIST, 'cli.js');
const EVERYTHING = `"${process.execPath}" "${join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')}"`;
const DEMO = `"${process.execPath}" "${join(DIST, 'demo-server.js')}"`;
const run = (args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('CLI: templates, completion, results shown once, names (server-everything)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('templates lists the resource templates, each with its URI template', () => {
    const r = run(['--stdio', EVERYTHING, 'templates']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Dynamic Text Resource\tdemo:\/\/resource\/dynamic\/text\/\{resourceId\} — /m);
  });

  it('read <uriTemplate> --args expands the template (RFC 6570) and reads it; a variable it lacks is exit 2', () => {
    const r = run(['--stdio', EVERYTHING, 'read', 'demo://resource/dynamic/text/{resourceId}', '--args', '{"resourceId": "7"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Resource 7: This is a plaintext resource/);
    assert.match(r.stderr, /resources\/read demo:\/\/resource\/dynamic\/text\/7 /);
    const bad = run(['--stdio', EVERYTHING, 'read', 'demo://resource/dynamic/text/{resourceId}', '--args', '{"id": "7"}']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /the template has no variable "id" \(its variables: resourceId\)/);
  });

  it('complete prompt: one suggestion a line, narrowed by --context', () => {
    const dept = run(['--stdio', EVERYTHING, 'complete', 'prompt', 'completable-prompt', 'department', 'Eng']);
    assert.equal(dept.code, 0, dept.stderr);
    assert.equal(dept.stdout, 'Engineering\n');
    const names = run([
      '--stdio',
      EVERYTHING,
      'complete',
      'prompt',
      'completable-prompt',
      'name',
      '--context',
      '{"department": "Engineering"}',
    ]);
    assert.equal(names.code, 0, names.stderr);
    assert.equal(names.stdout, 'Alice\nBob\nCharlie\n');
  });

  it('complete template: the suggestions of a variable', () => {
    const r = run(['--stdio', EVERYTHING, 'complete', 'template', 'demo://resource/dynamic/text/{resourceId}', 'resourceId', '1']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '1\n');
  });

  it('structuredContent that repeats the text is printed once; --json keeps it', () => {
    const args = ['--stdio', EVERYTHING, 'call', 'get-structured-content', '--args', '{"location": "New York"}'];
    const r = run(args);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 1, r.stdout);
    const json = JSON.parse(run([...args, '--json']).stdout) as { structuredContent?: unknown };
    assert.ok(json.structuredContent, 'the --json result keeps structuredContent');
  });

  it('a server run by node from its package is named after the package, or --name', () => {
    assert.match(
      run(['--stdio', EVERYTHING, 'read', 'demo://resource/static/document/features.md']).stderr,
      /\[server-everything\] resources\/read/,
    );
    assert.match(
      run(['--stdio', EVERYTHING, '--name', 'ev', 'read', 'demo://resource/static/document/features.md']).stderr,
      /\[ev\] resources\/read/,
    );
  });

  it('an empty listing says so on stderr; a server without completions is a clear error (exit 1)', () => {
    const empty = run(['--stdio', DEMO, 'templates']);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout, '');
    assert.match(empty.stderr, /^demo-server lists no resource templates$/m);
    const none = run(['--stdio', DEMO, 'complete', 'prompt', 'code_review', 'language']);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /demo-server does not offer completions \(no "completions" capability\)/);
  });
});
