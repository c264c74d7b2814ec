/** CLI details found in review: --help on stdout, server names in the log, a wrong --answers entry is exit 2. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { stdioServerName } from '../../../src/cli/args';
import { runCli } from '../../../src/cli/main';

const dir = mkdtempSync(join(tmpdir(), 'mcp-rt-cli-review-'));
const LOG = join(dir, 'received.log');
/** Asks one form (an integer `n`, required) and records every tools/call it receives. */
const SERVER = `
import { createInterface } from 'node:readline';
import { appendFileSync } from 'node:fs';
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'server/discover') out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'f', version: '1' } } });
  else if (m.method === 'tools/call') {
    appendFileSync(${JSON.stringify(LOG)}, JSON.stringify(m.params.inputResponses ?? null) + '\\n');
    if (m.params.inputResponses) out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'complete', content: [{ type: 'text', text: 'ok' }] } });
    else out({ jsonrpc: '2.0', id: m.id, result: { resultType: 'input_required', inputRequests: { q: { method: 'elicitation/create', params: { mode: 'form', message: 'n?', requestedSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } } } } });
  }
});
`;
const serverFile = join(dir, 'form-server.mjs');
writeFileSync(serverFile, SERVER);

async function cli(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runCli(args, { stdout, stderr, stdinIsTTY: false });
  return { code, out, err };
}

describe('CLI review details', function () {
  this.timeout(30_000);

  it('--help prints the usage on stdout and exits 0', async () => {
    const r = await cli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^usage: mcp-roundtrip/);
    assert.equal(r.err, '');
  });

  it('a stdio server is named after the script or package a launcher runs, not "node" or "npx"', () => {
    assert.equal(stdioServerName('node', ['dist/demo-server.js']), 'demo-server');
    assert.equal(stdioServerName('npx', ['-y', '@modelcontextprotocol/server-everything@latest']), 'server-everything');
    assert.equal(stdioServerName('uvx', ['mcp-server-git', '--repo', '.']), 'mcp-server-git');
    assert.equal(stdioServerName('/usr/local/bin/weather', ['--verbose']), 'weather');
    assert.equal(stdioServerName('node', []), 'node');
  });

  it('an --answers entry that does not fit the request (a string for an integer) is exit 2 naming the key; nothing is sent', async () => {
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify({ q: { action: 'accept', content: { n: '5' } } }));
    writeFileSync(LOG, '');
    const r = await cli(['--stdio', `"${process.execPath}" "${serverFile}"`, 'call', 't', '--answers', answers]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--answers "q" does not fit the elicitation\/create request of form-server: n: /);
    assert.deepEqual(readFileSync(LOG, 'utf8').split('\n').filter(Boolean), ['null'], 'only the first leg reached the server');
  });
});
