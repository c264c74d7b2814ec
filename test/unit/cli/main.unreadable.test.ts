/**
 * A server that writes what cannot be read: a line that answers no request cannot end the call, so
 * the call ends at its time limit and the host then says what it could not read (review); a message
 * over the size limit fails its call at once, naming the limit.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/main';

const SERVER = `
import { createInterface } from 'node:readline';
const out = (s) => process.stdout.write(s + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'server/discover') out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'odd', version: '1' } } }));
  else if (m.method === 'tools/call' && m.params.name === 'huge') out(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { resultType: 'input_required', requestState: 'x'.repeat(11 * 1024 * 1024) } }));
  else if (m.method === 'tools/call') out('garbage that answers nothing');
});
`;

describe('CLI: an answer the host cannot read (review)', function () {
  this.timeout(30_000);

  it('the time-limit error says the server sent something unreadable, instead of only "did not answer"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-unreadable-'));
    const file = join(dir, 'odd.mjs');
    writeFileSync(file, SERVER);
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await runCli(['--stdio', `"${process.execPath}" "${file}"`, 'call', 't', '--timeout-ms', '1500'], {
      stdout,
      stderr,
      stdinIsTTY: false,
    });
    assert.equal(code, 4, err);
    assert.match(
      err,
      /exceeded its time limit of 1500 ms .*; meanwhile: odd sent a message the host cannot read: a line on stdout: it is not valid JSON/,
    );
    assert.equal(err.split('\n').filter(Boolean).length, 2, err); // still one line per leg
  });

  it('a message over the limit (10 MiB): its call fails at once, the error names the limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-unreadable-'));
    const file = join(dir, 'odd.mjs');
    writeFileSync(file, SERVER);
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await runCli(['--stdio', `"${process.execPath}" "${file}"`, 'call', 'huge'], {
      stdout: new PassThrough(),
      stderr,
      stdinIsTTY: false,
    });
    assert.equal(code, 1, err);
    assert.match(
      err,
      /odd sent an answer to tools\/call huge that the host cannot read: a line on stdout is longer than 10 MiB \(MAX_MESSAGE_BYTES\)/,
    );
  });
});
