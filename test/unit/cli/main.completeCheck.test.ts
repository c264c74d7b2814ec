/**
 * The CLI's `complete` and `read` against server-everything when a name is wrong or missing: exit 2
 * naming the template's variables or the prompt's arguments; no suggestion said on stderr (exit 0).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DIST, ROOT, ensureBuilt } from '../../support/build';

const CLI = join(DIST, 'cli.js');
const EVERYTHING = `"${process.execPath}" "${join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')}"`;
const TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, '--stdio', EVERYTHING, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('CLI: complete and read with a wrong or missing name (server-everything)', function () {
  this.timeout(60_000);
  before(() => ensureBuilt());

  it('read of a template without --args is exit 2 naming its variables', () => {
    const r = run('read', TEMPLATE);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /this is a URI template; give its variables with --args, e\.g\. --args '\{"resourceId":"…"\}' \(its variables: resourceId\)/,
    );
  });

  it('complete template with a variable the template lacks is exit 2 naming its variables', () => {
    const r = run('complete', 'template', TEMPLATE, 'id');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /the template has no variable "id" \(its variables: resourceId\)/);
  });

  it("complete prompt with an argument or a prompt that is none is exit 2 naming the prompt's arguments or the prompts", () => {
    const arg = run('complete', 'prompt', 'completable-prompt', 'team');
    assert.equal(arg.code, 2, arg.stderr);
    assert.match(arg.stderr, /the prompt has no argument "team" \(its arguments: department, name\)/);
    const prompt = run('complete', 'prompt', 'completable', 'department');
    assert.equal(prompt.code, 2, prompt.stderr);
    assert.match(prompt.stderr, /lists no such prompt \(its prompts: simple-prompt, args-prompt, completable-prompt, resource-prompt\)/);
  });

  it('no suggestion for a real argument is said on stderr (exit 0, nothing on stdout)', () => {
    const r = run('complete', 'prompt', 'completable-prompt', 'department', 'zzz');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^server-everything suggests nothing for department of prompt completable-prompt starting "zzz"$/m);
  });
});
