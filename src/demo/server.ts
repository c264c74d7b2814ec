// The server factory: one McpServer with every demo tool, prompt and resource registered.
import { McpServer, type Implementation, type McpServerFactory } from '@modelcontextprotocol/server';
import { version } from '../../package.json';
import type { DemoConfig } from './config';
import { registerCodeReview } from './prompts/codeReview';
import { registerSecretNote } from './resources/secretNote';
import type { DemoDeps } from './round';
import { installToolCallHandler } from './toolCall';
import { DEMO_TOOLS } from './tools';

/** `serverInfo` of the demo server. */
export const DEMO_SERVER_INFO: Implementation = { name: 'mcp-roundtrip-demo', title: 'MCP Roundtrip demo server', version };

const INSTRUCTIONS =
  'A demo server for Multi Round-Trip Requests (MCP 2026-07-28). Every tool, the code_review prompt and the ' +
  'demo://secret-note resource ask the host for input (forms, a sign-in URL, a model completion, workspace roots) ' +
  'before they answer. Nothing is booked, connected or written for real.';

/**
 * Creates one demo server instance with every tool, prompt and resource registered.
 *
 * Instances hold no flow state (everything between rounds is in the signed `requestState`), so the
 * factory may be called per HTTP request or per stdio connection, in any number of processes that
 * share `config.key`.
 */
export function createDemoServer(config: DemoConfig): McpServer {
  const server = new McpServer(DEMO_SERVER_INFO, { instructions: INSTRUCTIONS });
  const deps: DemoDeps = { config, server };
  for (const tool of DEMO_TOOLS) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations },
      // Only reached if installToolCallHandler below were removed; kept so the registration is complete.
      (args, ctx) => tool.call(args, ctx, deps),
    );
  }
  installToolCallHandler(server, DEMO_TOOLS, deps);
  registerCodeReview(server, deps);
  registerSecretNote(server, deps);
  return server;
}

/** A factory for `serveStdio` / `createMcpHandler`: a fresh {@link createDemoServer} per serving unit. */
export function demoServerFactory(config: DemoConfig): McpServerFactory {
  return () => createDemoServer(config);
}
