// Loaded with `node --require` (NODE_OPTIONS) by test/bench/peers.mjs into every Node process of one
// run: at exit, appends this process's peak RSS (process.resourceUsage().maxRSS, KB) and argv to the
// file named by MCP_ROUNDTRIP_BENCH_RSS_FILE, one JSON line per process.
'use strict';
const { appendFileSync } = require('node:fs');
const file = process.env.MCP_ROUNDTRIP_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      appendFileSync(
        file,
        `${JSON.stringify({ pid: process.pid, ppid: process.ppid, argv: process.argv.slice(1), maxRssKB: process.resourceUsage().maxRSS })}\n`,
      );
    } catch {
      /* a benchmark aid: never break the process */
    }
  });
}
