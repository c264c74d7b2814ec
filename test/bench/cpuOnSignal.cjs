// A --require hook for test/bench/taskIdle.mjs: the CLI process appends its CPU time so far
// (process.cpuUsage(), µs) to MCP_ROUNDTRIP_BENCH_CPU_FILE each time it gets SIGUSR2, and does nothing
// else, so that what it costs between two samples is the CLI's own. Only the CLI's process records
// (NODE_OPTIONS reaches the server it spawns too).
'use strict';
const file = process.env.MCP_ROUNDTRIP_BENCH_CPU_FILE;
if (file && /(^|[\\/])cli\.js$/.test(process.argv[1] ?? '')) {
  process.on('SIGUSR2', () => {
    const { user, system } = process.cpuUsage();
    require('node:fs').appendFileSync(file, `${JSON.stringify({ user, system, at: Date.now() })}\n`);
  });
}
