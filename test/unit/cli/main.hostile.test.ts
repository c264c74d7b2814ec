/**
 * The CLI in front of a hostile server (review): server text on stdout and stderr cannot drive the
 * terminal (escape sequences, C1 controls, bidi overrides) and a listed item stays one line.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';

const ESC = '\u001b';
const EVIL = `${ESC}[2J${ESC}]0;PWNED\u0007${ESC}[31mred\u009b31m \u202Eexe.txt`;
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A modern-era stdio server whose every string carries EVIL. */
const SERVER = `
import { createInterface } from 'node:readline';
const EVIL = ${JSON.stringify(EVIL)};
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'server/discover') out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, prompts: {} }, serverInfo: { name: 'evil', version: '1' } } });
  else if (m.method === 'tools/list') out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'private', tools: [{ name: 't' + EVIL, title: 'line one\\nline two ' + EVIL, description: EVIL, inputSchema: { type: 'object' } }] } });
  else if (m.method === 'tools/call') out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'result ' + EVIL + '\\nsecond line' }] } });
  else if (m.id !== undefined) out({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no ' + EVIL } });
});
`;

const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-cli-hostile-'));
const serverFile = join(dir, 'evil.mjs');
writeFileSync(serverFile, SERVER);
const STDIO = `"${process.execPath}" "${serverFile}"`;

async function cli(args: string[], stdoutIsTTY: boolean) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runCli(['--stdio', STDIO, ...args], { stdout, stderr, stdinIsTTY: false, stdoutIsTTY });
  return { code, out, err };
}

describe('CLI: hostile server text (review)', function () {
  this.timeout(30_000);

  it('a result printed on a terminal carries no escape sequence, C1 control or bidi override; line breaks stay', async () => {
    const r = await cli(['call', 't'], true);
    assert.equal(r.code, 0, r.err);
    assert.ok(!UNSAFE.test(r.out), JSON.stringify(r.out));
    assert.match(r.out, /^result .*red.*\nsecond line\n$/);
  });

  it('a piped result is exactly what the server sent', async () => {
    const r = await cli(['call', 't'], false);
    assert.equal(r.out, `result ${EVIL}\nsecond line\n`);
  });

  it('tools: one line per tool, whatever its title and description hold', async () => {
    const r = await cli(['tools'], true);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.split('\n').filter(Boolean).length, 1, JSON.stringify(r.out));
    assert.ok(!UNSAFE.test(r.out), JSON.stringify(r.out));
  });

  it('--json: the same value, with C1 controls, separators and bidi overrides written as \\u escapes', async () => {
    const r = await cli(['tools', '--json'], true);
    assert.ok(!UNSAFE.test(r.out), JSON.stringify(r.out));
    assert.deepEqual(JSON.parse(r.out)[0].description, EVIL);
  });

  it('an error message from the server is one safe line on stderr', async () => {
    const r = await cli(['prompts'], true);
    assert.equal(r.code, 1);
    assert.equal(r.err.split('\n').filter(Boolean).length, 1, r.err);
    assert.ok(!UNSAFE.test(r.err), JSON.stringify(r.err));
  });
});
