// The demo server (dist/demo-server-main.js, loaded by bin.ts): pick the transport, serve, log to stderr (stdout is the wire on stdio).
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { config as zodConfig } from 'zod/v4/core';
import { parseDemoArgs, USAGE, type DemoTransport } from './args';
import { readDemoConfig, type DemoConfig } from './config';
import { demoServerFactory } from './server';

function log(message: string): void {
  process.stderr.write(`[mcp-roundtrip-demo] ${message}\n`);
}

function fail(message: string): never {
  log(message);
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let transport: DemoTransport;
  let config: DemoConfig;
  try {
    transport = parseDemoArgs(process.argv.slice(2));
    config = readDemoConfig();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (transport.kind === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return;
  }

  const factory = demoServerFactory(config);
  const onerror = (error: Error) => log(`error: ${error.message}`);
  const keyNote = config.keySource === 'env' ? 'shared key from MCP_ROUNDTRIP_DEMO_KEY' : 'random per-process key';
  const settings = `requestState: ${keyNote}, TTL ${config.ttlSeconds} s`;

  if (transport.kind === 'stdio') {
    // A stdio server lives as long as its one client: zod compiling a fast path for each schema on
    // first use (new Function) costs a cold call more than it saves. The HTTP server keeps it.
    zodConfig({ jitless: true });
    // serveStdio (not a bare StdioServerTransport) serves both eras: 2026-07-28 and the 2025 handshake.
    serveStdio(factory, { onerror });
    log(`serving MCP on stdio (${settings})`);
    return;
  }

  // Loaded only here: the HTTP stack (node:http, the SDK's web-standard handler, which loads fetch's
  // implementation) is a sixth of a stdio server's start.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startHttp } = require('./http') as typeof import('./http');
  const endpoint = await startHttp(factory, transport.port, onerror);
  // Tests parse this line to learn the port picked for --http 0.
  log(`listening on ${endpoint.url} (${settings})`);
  const stop = () => {
    void endpoint.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  log(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
