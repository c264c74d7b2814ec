/**
 * `prompt <name>` and `read <uriTemplate>` at a terminal: the arguments or variables not given are
 * asked, Tab completing each through the server's `completion/complete` (server-everything's
 * `completable-prompt` and its dynamic text template, for real); without a terminal, a template's
 * variables not given are a usage error naming them.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { askPromptArguments, askTemplateVariables } from '../../../src/cli/promptArguments';
import { runCli } from '../../../src/cli/main';
import { createPrompter } from '../../../src/cli/terminalPrompt';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { NO_INPUTS } from '../../../src/core/inputs/inputProvider';
import { ROOT } from '../../support/build';
import { terminalInput } from '../../support/terminal';

const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A terminal in raw mode: what the host writes, and what the person types. */
function terminal() {
  const input = terminalInput();
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => {
    text += d.toString();
  });
  return { input, out, text: () => text, type: (s: string) => input.write(s) };
}

/** Resolves once the terminal's text matches `re`. */
async function shown(t: { text: () => string; out: PassThrough }, re: RegExp): Promise<void> {
  while (!re.test(t.text())) await new Promise((resolve) => t.out.once('data', resolve));
}

describe('CLI prompt arguments at the terminal (server-everything)', function () {
  this.timeout(30_000);
  let conn: ServerConnection;
  before(() => {
    conn = new ServerConnection(
      { transport: 'stdio', name: 'server-everything', command: process.execPath, args: [EVERYTHING] },
      { provider: NO_INPUTS },
    );
  });
  after(() => conn.close());

  it('Tab completes an argument from completion/complete, narrowed by the arguments given before it', async () => {
    const t = terminal();
    const ask = createPrompter(t.out, t.input);
    const answered = askPromptArguments(conn, 'completable-prompt', {}, { ask, out: t.out, signal: new AbortController().signal });
    await shown(t, /department \(required\): /);
    t.type('Eng\t');
    await shown(t, /Engineering/);
    t.type('\r');
    await shown(t, /name \(required\): /);
    t.type('B\t');
    await shown(t, /Bob/);
    t.type('\r');
    assert.deepEqual(await answered, { department: 'Engineering', name: 'Bob' });
    assert.match(t.text(), /server-everything prompt completable-prompt takes arguments \(Tab suggests; /);
  });

  it('arguments given in --args are not asked; a required one left empty is asked again', async () => {
    const t = terminal();
    const ask = createPrompter(t.out, t.input);
    const answered = askPromptArguments(
      conn,
      'completable-prompt',
      { department: 'Sales' },
      { ask, out: t.out, signal: new AbortController().signal },
    );
    await shown(t, /name \(required\): /);
    t.type('\r');
    await shown(t, /Required: type a value \(Tab suggests\)/);
    t.type('Zed\r');
    assert.deepEqual(await answered, { department: 'Sales', name: 'Zed' });
    assert.doesNotMatch(t.text(), /department \(required\)/);
  });

  it("read <uriTemplate> asks the template's variables, Tab completing from the server's ref/resource completion", async () => {
    const t = terminal();
    const ask = createPrompter(t.out, t.input);
    const template = 'demo://resource/dynamic/text/{resourceId}';
    // What Tab asked the server (its suggestion for a valid id is the id itself: nothing new on screen).
    const session = await conn.ensureConnected();
    const asked: unknown[] = [];
    const real = session.client.complete.bind(session.client);
    session.client.complete = (params: unknown, options: unknown) => {
      asked.push(params);
      return real(params as never, options as never);
    };
    const answered = askTemplateVariables(conn, template, {}, { ask, out: t.out, signal: new AbortController().signal });
    await shown(t, /resourceId \(required\): /);
    t.type('\r');
    await shown(t, /Required: type a value \(Tab suggests\)/);
    t.type('7\t');
    while (!asked.length) await new Promise((resolve) => setImmediate(resolve));
    t.type('\r');
    assert.deepEqual(await answered, { resourceId: '7' });
    session.client.complete = real;
    assert.deepEqual(asked, [
      { ref: { type: 'ref/resource', uri: template }, argument: { name: 'resourceId', value: '7' }, context: { arguments: {} } },
    ]);
    assert.match(
      t.text(),
      /server-everything template demo:\/\/resource\/dynamic\/text\/\{resourceId\} has a variable \(Tab suggests; :cancel cancels\)/,
    );
  });

  it('read <uriTemplate> through the CLI: on a terminal the variable is asked and the resource read; without one, exit 2 naming it', async () => {
    const template = 'demo://resource/dynamic/text/{resourceId}';
    const t = terminal();
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (d: Buffer) => (out += d.toString()));
    const run = runCli(['--stdio', `"${process.execPath}" "${EVERYTHING}"`, 'read', template], {
      stdout,
      stderr: t.out,
      stdinIsTTY: true,
      stdin: t.input,
    });
    await shown(t, /resourceId \(required\): /);
    t.type('5\r');
    assert.equal(await run, 0, t.text());
    assert.match(out, /^Resource 5: This is a plaintext resource created at /);
    const piped = new PassThrough();
    let err = '';
    piped.on('data', (d: Buffer) => (err += d.toString()));
    const code = await runCli(['--stdio', `"${process.execPath}" "${EVERYTHING}"`, 'read', template], {
      stdout: new PassThrough(),
      stderr: piped,
      stdinIsTTY: false,
    });
    assert.equal(code, 2);
    assert.match(err, /this is a URI template; give its variables with --args.*\(its variables: resourceId\)/);
  });
});
