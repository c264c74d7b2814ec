// The floor of a cold call for test/bench/peers.mjs: the least a Node client can do to call a tool
// of a stdio server on 2026-07-28 — spawn it, write server/discover, the call and its retries as
// hand-written JSON-RPC lines (roots answered with one directory, requestState echoed, the first
// state-only retry at once), print the text, end stdin, wait for the server to exit. No SDK, no checks.
//
//   node rawClient.mjs <server.js> <tool> <roots dir>
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const [server, tool, dir] = process.argv.slice(2);
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': { roots: {} } };
const child = spawn(process.execPath, [server], { stdio: ['pipe', 'pipe', 'ignore'] });
const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
let id = 0;
const call = (extra = {}) => send({ id: ++id, method: 'tools/call', params: { name: tool, arguments: {}, ...extra, _meta: meta } });
let buffer = '';
child.stdout.on('data', (chunk) => {
  buffer += chunk;
  for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
    const m = JSON.parse(buffer.slice(0, i));
    buffer = buffer.slice(i + 1);
    if (m.id === 'discover') {
      call();
      continue;
    }
    const r = m.result;
    if (!r) throw new Error(JSON.stringify(m.error));
    if (r.resultType === 'input_required') {
      const inputResponses = Object.fromEntries(Object.keys(r.inputRequests ?? {}).map((k) => [k, { roots: [{ uri: pathToFileURL(dir).href, name: 'dir' }] }]));
      call({ ...(Object.keys(inputResponses).length ? { inputResponses } : {}), ...(r.requestState !== undefined ? { requestState: r.requestState } : {}) });
    } else {
      process.stdout.write(`${r.content?.[0]?.text ?? ''}\n`);
      child.stdin.end();
    }
  }
});
child.on('exit', (code) => process.exit(code ?? 1));
send({ id: 'discover', method: 'server/discover', params: { _meta: meta } });
