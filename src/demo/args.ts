// Command line of the demo server.

/** How to serve: stdio (default) or Streamable HTTP on a port (0 = any free port). */
export type DemoTransport = { kind: 'stdio' } | { kind: 'http'; port: number } | { kind: 'help' };

/** Usage text printed by `--help` and on bad arguments. */
export const USAGE = `Usage: demo-server [--http <port>]

  (no flag)      serve MCP on stdin/stdout (2026-07-28 and 2025 clients)
  --http <port>  serve Streamable HTTP at http://127.0.0.1:<port>/mcp (0 picks a free port)

Environment:
  MCP_ROUNDTRIP_DEMO_KEY          requestState HMAC key (>= 32 bytes); share it between processes
                                  that serve legs of the same flow. Default: random per process.
  MCP_ROUNDTRIP_DEMO_TTL_SECONDS  requestState lifetime in seconds (default 600).`;

/**
 * Parses the arguments after the script name. Throws an `Error` with a one-line reason for an
 * unknown flag, a missing port, or a port outside 0..65535.
 */
export function parseDemoArgs(argv: readonly string[]): DemoTransport {
  let transport: DemoTransport = { kind: 'stdio' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--http' || arg.startsWith('--http=')) {
      const value = arg === '--http' ? argv[++i] : arg.slice('--http='.length);
      if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65535) {
        throw new Error(`--http needs a port number between 0 and 65535 (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`);
      }
      transport = { kind: 'http', port: Number(value) };
      continue;
    }
    throw new Error(`Unknown argument ${JSON.stringify(arg)}`);
  }
  return transport;
}
