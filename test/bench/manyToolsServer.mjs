// A stdio server with many tools for test/bench/manyTools.ts: `node manyToolsServer.mjs [count]
// [--legacy]` lists `count` tools (default 10 000) in pages of 200, each with a long description and a
// large input schema (20 properties, each described), about 2.5 KB a tool. 2026-07-28 by default
// (server/discover); `--legacy` answers as a 2025-11-25 server that declares `tools.listChanged`. Raw
// newline-delimited JSON-RPC, so the server's own time is small beside the client's.
import { createInterface } from 'node:readline';

const count = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 10_000);
const legacy = process.argv.includes('--legacy');
const PAGE = 200;
const words = 'fetches lists updates and reports the state of a resource in the remote service with care '.repeat(6);
const tool = (i) => ({
  name: `tool_${i}`,
  title: `Tool ${i}`,
  description: `Tool ${i}: ${words}`.slice(0, 520),
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 20 }, (_, p) => [
        `field_${p}`,
        { type: p % 3 ? 'string' : 'integer', description: `Field ${p} of tool ${i}: what it selects, in a sentence or two.` },
      ]),
    ),
    required: ['field_0', 'field_1'],
  },
});
// Pages are built once, as text: the server answers at the pace of its pipe, not of its JSON.
const pages = [];
for (let start = 0; start < count; start += PAGE) {
  const tools = Array.from({ length: Math.min(PAGE, count - start) }, (_, k) => tool(start + k));
  const next = start + PAGE < count ? String(start + PAGE) : undefined;
  pages.push(JSON.stringify({ tools, ...(next ? { nextCursor: next } : {}), ...(legacy ? {} : { resultType: 'complete' }) }));
}
const send = (id, resultText) => process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultText}}\n`);
const capabilities = { tools: { listChanged: true }, prompts: {} };
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined || m.method === undefined) return;
  const p = m.params ?? {};
  if (m.method === 'server/discover') {
    if (legacy)
      return process.stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } })}\n`,
      );
    return send(
      m.id,
      JSON.stringify({
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities,
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'many-tools', version: '1.0.0' } },
      }),
    );
  }
  if (m.method === 'initialize')
    return send(
      m.id,
      JSON.stringify({ protocolVersion: p.protocolVersion, capabilities, serverInfo: { name: 'many-tools', version: '1.0.0' } }),
    );
  if (m.method === 'tools/list') return send(m.id, pages[Number(p.cursor ?? 0) / PAGE] ?? pages[0]);
  if (m.method === 'prompts/list') return send(m.id, JSON.stringify(legacy ? { prompts: [] } : { resultType: 'complete', prompts: [] }));
  process.stdout.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } })}\n`,
  );
});
