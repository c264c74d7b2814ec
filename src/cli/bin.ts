#!/usr/bin/env node
/**
 * The `mcp-roundtrip` executable (dist/cli.js). It starts the `--stdio` server first thing, then
 * loads the host (dist/cli-main.js, `main.ts`, through V8's code cache: `compileCache.ts`) while that
 * server starts: both take about as long, and one after the other they were most of a cold call.
 * Nothing else happens here; a command line the host will refuse starts nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { parseCli } from './args';
import { loadHost } from './compileCache';

/**
 * The `--stdio` server of `argv`, spawned as the host's stdio transport would (the host's environment,
 * stdin/stdout/stderr piped); `undefined` for `--http`, a bad command line, or Windows (where the
 * SDK's transport resolves `.cmd` launchers itself: the host then starts the server as usual).
 */
function startStdioServer(argv: string[]): ChildProcess | undefined {
  if (process.platform === 'win32') return undefined;
  let server;
  try {
    server = parseCli(argv).server;
  } catch {
    return undefined;
  }
  if (server.transport !== 'stdio') return undefined;
  return spawn(server.command, server.args ?? [], {
    env: { ...process.env, ...(server.env ?? {}) },
    cwd: server.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
  });
}

const early = startStdioServer(process.argv.slice(2));
loadHost(join(__dirname, 'cli-main.js')).runAsExecutable(early);
