/** The CLI's command line for what a server offers beyond calls: templates, read of a template, complete, --name, --roots. */
import assert from 'node:assert/strict';
import { parseCli, UsageError } from '../../../src/cli/args';

const STDIO = ['--stdio', 'node server.js'];
const usage = (argv: string[], message: RegExp) =>
  assert.throws(
    () => parseCli(argv),
    (e: unknown) => e instanceof UsageError && message.test(e.message),
    argv.join(' '),
  );

describe('CLI arguments: templates, read of a template, complete, --name, --roots', () => {
  it('templates lists the resource templates', () => {
    assert.deepEqual(parseCli([...STDIO, 'templates']).command, { kind: 'list', what: 'resourceTemplates' });
    usage([...STDIO, 'templates', 'x'], /templates takes no argument/);
  });

  it('read takes --args: the variables of a URI template', () => {
    assert.deepEqual(parseCli([...STDIO, 'read', 'demo://t/{id}', '--args', '{"id":"3"}']).command, {
      kind: 'read',
      uri: 'demo://t/{id}',
      args: { id: '3' },
    });
    assert.deepEqual(parseCli([...STDIO, 'read', 'demo://x']).command, { kind: 'read', uri: 'demo://x' });
  });

  it('complete prompt and complete template: the ref, the argument, the prefix and the --context', () => {
    assert.deepEqual(
      parseCli([...STDIO, 'complete', 'prompt', 'team', 'name', 'Al', '--context', '{"department":"Engineering"}']).command,
      {
        kind: 'complete',
        ref: { type: 'ref/prompt', name: 'team' },
        argument: { name: 'name', value: 'Al' },
        context: { department: 'Engineering' },
      },
    );
    assert.deepEqual(parseCli([...STDIO, 'complete', 'template', 'demo://t/{id}', 'id']).command, {
      kind: 'complete',
      ref: { type: 'ref/resource', uri: 'demo://t/{id}' },
      argument: { name: 'id', value: '' },
    });
  });

  it('complete: what is missing or wrong is named (exit 2)', () => {
    usage([...STDIO, 'complete'], /complete needs what to complete: complete prompt <name> <argument>/);
    usage([...STDIO, 'complete', 'tool', 'x', 'y'], /complete needs what to complete/);
    usage([...STDIO, 'complete', 'prompt', 'team'], /complete prompt team needs an argument name/);
    usage([...STDIO, 'complete', 'template'], /complete template needs a URI template/);
    usage([...STDIO, 'complete', 'prompt', 'team', 'name', 'Al', 'extra'], /unexpected argument "extra"/);
    usage([...STDIO, 'complete', 'prompt', 'team', 'name', '--context', '{"n":1}'], /--context values are strings; "n" is number/);
    usage([...STDIO, 'complete', 'prompt', 'team', 'name', '--context', '[]'], /--context must be a JSON object/);
    usage([...STDIO, 'tools', '--context', '{}'], /--context applies to complete only/);
  });

  it('--name names the server; without it a stdio server is named after its command', () => {
    assert.equal(parseCli([...STDIO, '--name', 'files', 'tools']).server?.name, 'files');
    assert.equal(parseCli(['--http', 'http://127.0.0.1:1/mcp', '--name', 'remote', 'tools']).server?.name, 'remote');
    assert.equal(parseCli(['--stdio', '/usr/local/bin/weather', 'tools']).server?.name, 'weather');
  });

  it('no --roots: no roots (the server keeps its own directories); --roots as given', () => {
    assert.deepEqual(parseCli([...STDIO, 'tools'], '/some/cwd').roots, []);
    assert.deepEqual(parseCli([...STDIO, 'tools', '--roots', '/a', '--roots', '/b']).roots, ['/a', '/b']);
  });
});
