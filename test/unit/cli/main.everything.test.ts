/**
 * The CLI against a 2025-era server nobody here wrote, `@modelcontextprotocol/server-everything`
 * (a devDependency, over stdio; it pushes its requests): a missing `--answers` entry is exit 3,
 * Ctrl-C at its form is exit 130, a person answering past the call's limit is not counted, and a long
 * operation under a leg idle limit shorter than it completes, its progress on stderr.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { runHostCli } from '../../support/hostile';
import { DIST, ensureBuilt } from '../../support/build';

const EVERYTHING = `node ${join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js')}`;

/** Run the CLI with a terminal: `type(err, stdin)` is called on each stderr write and may type lines. */
async function atTerminal(
  args: string[],
  type: (err: string, stdin: PassThrough) => void,
): Promise<{ code: number; out: string; err: string }> {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => {
    err += d.toString();
    type(err, stdin);
  });
  const code = await runCli(args, { stdout, stderr, stdinIsTTY: true, stdin });
  stdin.end();
  return { code, out, err };
}

describe('CLI: server-everything (2025 era)', function () {
  this.timeout(60_000);

  it('a pushed form with no --answers entry is exit 3, naming the key', async () => {
    const answers = join(mkdtempSync(join(tmpdir(), 'mcp-rt-')), 'answers.json');
    writeFileSync(answers, '{}');
    const r = await runHostCli(['--stdio', EVERYTHING, '--answers', answers, 'call', 'trigger-elicitation-request']);
    assert.equal(r.code, 3, r.err);
    assert.match(
      r.err,
      /no answer for input "0" \(elicitation\/create\) asked by server-everything in round 0 of tools\/call trigger-elicitation-request; add it to --answers/,
    );
    assert.doesNotMatch(r.err, /complete/);
  });

  it('Ctrl-C at its pushed form is exit 130', async () => {
    let typed = false;
    const r = await atTerminal(['--stdio', EVERYTHING, 'call', 'trigger-elicitation-request'], (err, stdin) => {
      if (!typed && /String \(text; required\): /.test(err)) {
        typed = true;
        stdin.write('\x03');
      }
    });
    assert.ok(typed, r.err);
    assert.equal(r.code, 130, r.err);
    assert.match(r.err, /✖ \[server-everything\] tools\/call trigger-elicitation-request .*cancelled at the terminal/);
  });

  it("answering its pushed form after the call's limit has passed: exit 0, the time waiting for the user said", async () => {
    let asked: number | undefined;
    let typed = false;
    // The limit covers the connection too: 5 s keeps a spawn on a busy machine inside it.
    const r = await atTerminal(['--stdio', EVERYTHING, '--timeout-ms', '5000', 'call', 'trigger-elicitation-request'], (err, stdin) => {
      if (asked === undefined && /String \(text; required\): /.test(err)) {
        asked = Date.now();
        // The person types after twice the call's limit (a timer standing for the person, not a wait for a state).
        setTimeout(() => {
          typed = true;
          stdin.write('Ada Lovelace\n' + '\n'.repeat(20));
        }, 10_000);
      }
    });
    assert.ok(typed, r.err);
    assert.equal(r.code, 0, r.err);
    const waited = /complete id=\S+ after 0 round\(s\): total \S+ s, (\S+) s waiting for the user/.exec(r.err);
    assert.ok(waited && Number(waited[1]) >= 10, r.err);
  });

  it('trigger-long-running-operation longer than --leg-idle-ms completes, its progress on stderr', async () => {
    const r = await runHostCli([
      '--stdio',
      EVERYTHING,
      '--leg-idle-ms',
      '4000',
      'call',
      'trigger-long-running-operation',
      '--args',
      '{"duration":8,"steps":8}',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /Long running operation completed\. Duration: 8 seconds, Steps: 8\./);
    assert.match(r.err, /^progress 1\/8\nprogress 2\/8\n(?:progress \d\/8\n){5}progress 8\/8$/m);
    const quiet = await runHostCli([
      '--stdio',
      EVERYTHING,
      '--quiet',
      'call',
      'trigger-long-running-operation',
      '--args',
      '{"duration":1,"steps":2}',
    ]);
    assert.equal(quiet.code, 0, quiet.err);
    assert.doesNotMatch(quiet.err, /progress/);
  });

  it('ping: server-everything (2025 era) answers ping; the demo (2026-07-28, which has no ping) is said to have answered server/discover', async () => {
    const legacy = await runHostCli(['--stdio', EVERYTHING, 'ping']);
    assert.equal(legacy.code, 0, legacy.err);
    assert.match(legacy.out, /^pong from server-everything in \d+ ms\n$/);
    ensureBuilt();
    const modern = await runHostCli(['--stdio', `"${process.execPath}" "${join(DIST, 'demo-server.js')}"`, 'ping']);
    assert.equal(modern.code, 0, modern.err);
    assert.match(modern.out, /^demo-server speaks 2026-07-28, which has no ping: it answered server\/discover when connecting\n$/);
    assert.equal((await runHostCli(['--stdio', EVERYTHING, 'ping', 'x'])).code, 2);
  });
});
