/**
 * `prompt <name>` at a terminal: the arguments not given are asked, Tab completing each through the
 * server's `completion/complete` (server-everything's `completable-prompt`, for real).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { askPromptArguments } from '../../../src/cli/promptArguments';
import { createPrompter } from '../../../src/cli/terminalPrompt';
import { ServerConnection } from '../../../src/core/connection/serverConnection';
import { NO_INPUTS } from '../../../src/core/inputs/inputProvider';
import { ROOT } from '../../support/build';

const EVERYTHING = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** A terminal in raw mode: what the host writes, and what the person types. */
function terminal() {
  const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => {} });
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
});
