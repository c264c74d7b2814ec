// The least a Node client can do to speak 2026-07-28 to a stdio server, the floor the bench sets hosts
// beside (rawClient.mjs for a cold call, scale.ts's soak): spawn it, write newline-delimited JSON-RPC
// by hand with `_meta` on every request, match answers by id. No SDK, no checks, no limits.
import { spawn } from 'node:child_process';

/**
 * Starts `server` (a script run by this Node) as a stdio server.
 * @param {string} server the server's script path
 * @param {string} clientName the clientInfo name sent in `_meta`
 * @returns {{ request: (method: string, params: Record<string, unknown>) => Promise<{ result?: Record<string, any>; error?: unknown }>, close: () => Promise<void> }}
 *   `request` resolves to the answer with its id; `close` ends the server's stdin and resolves when it exits
 */
export function rawStdio(server, clientName) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: clientName, version: '0' },
    'io.modelcontextprotocol/clientCapabilities': { roots: {} },
  };
  const child = spawn(process.execPath, [server], { stdio: ['pipe', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const pending = new Map();
  let id = 0;
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const m = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      pending.get(m.id)?.(m);
      pending.delete(m.id);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      pending.set(++id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } })}\n`);
    });
  const close = async () => {
    child.stdin.end();
    await exited;
  };
  return { request, close };
}
