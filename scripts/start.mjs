// `npm start`: open a real VS Code with the extension and the built-in demo server.
// The desktop `code` when it is on PATH; otherwise code-server (installed once into the cache by
// scripts/host/install.mjs) on 127.0.0.1, printing the URL to open. Ctrl-C stops it.
//   node scripts/start.mjs [--workspace <dir>] [--port <n>] [--code-server]
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { root, stageExtension } from './stage.mjs';

const { values } = parseArgs({
  options: { workspace: { type: 'string' }, port: { type: 'string' }, 'code-server': { type: 'boolean', default: false } },
});
const workspace = path.resolve(values.workspace ?? path.join(root, 'examples', 'demo-workspace'));

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const hasCode =
  !values['code-server'] && spawnSync(process.platform === 'win32' ? 'where' : 'which', ['code'], { stdio: 'ignore' }).status === 0;
if (hasCode) {
  console.log(`Opening VS Code with the extension (development mode) on ${workspace}`);
  const child = spawn('code', [`--extensionDevelopmentPath=${root}`, workspace], { stdio: 'inherit', shell: process.platform === 'win32' });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const { launchCodeServer } = await import('./host/launch.mjs');
  console.log('No `code` on PATH: using code-server (installed once into the cache; the first time takes a few minutes).');
  const staged = stageExtension(path.join(root, 'out', 'staged-extension'));
  const host = await launchCodeServer({ workspace, extensionDirs: [staged], port: values.port ? Number(values.port) : 0, quiet: false });
  console.log(
    `\nMCP Roundtrip is running in VS Code (code-server). Open:\n\n  ${host.workbenchUrl}\n\nThen F1 → "MCP Roundtrip: Call Tool…" → demo. Logs: ${host.logsDir}\nPress Ctrl-C to stop.`,
  );
  const stop = async () => {
    await host.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Stay up until Ctrl-C even when stdout is not a terminal (piped, redirected, a process manager):
  // nothing else keeps the event loop alive, and exiting would take code-server down with us.
  setInterval(() => {}, 1 << 30);
}
