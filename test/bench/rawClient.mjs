// The floor of a cold call for test/bench/peers.mjs: the least a Node client can do to call a tool
// of a stdio server on 2026-07-28 (rawStdio.mjs) — server/discover, the call and its retries (roots
// answered with one directory, requestState echoed, the first state-only retry at once), print the
// text, end stdin, wait for the server to exit. No SDK, no checks.
//
//   node rawClient.mjs <server.js> <tool> <roots dir>
import { pathToFileURL } from 'node:url';
import { rawStdio } from './rawStdio.mjs';

const [server, tool, dir] = process.argv.slice(2);
const client = rawStdio(server, 'raw');
await client.request('server/discover', {});
let extra = {};
for (;;) {
  const { result: r, error } = await client.request('tools/call', { name: tool, arguments: {}, ...extra });
  if (!r) throw new Error(JSON.stringify(error));
  if (r.resultType !== 'input_required') {
    process.stdout.write(`${r.content?.[0]?.text ?? ''}\n`);
    break;
  }
  const inputResponses = Object.fromEntries(
    Object.keys(r.inputRequests ?? {}).map((k) => [k, { roots: [{ uri: pathToFileURL(dir).href, name: 'dir' }] }]),
  );
  extra = {
    ...(Object.keys(inputResponses).length ? { inputResponses } : {}),
    ...(r.requestState !== undefined ? { requestState: r.requestState } : {}),
  };
}
await client.close();
