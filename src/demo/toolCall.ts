// tools/call served by the demo itself, so -32602 and -32021 reach the client as JSON-RPC errors.
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';
import type { DemoDeps } from './round';
import { errorResult, type DemoTool } from './tool';

/**
 * Replaces McpServer's `tools/call` handler with one that dispatches to `tools`.
 *
 * Why: McpServer turns every error a tool throws into an `isError` result, but a refused
 * `requestState` (-32602) and a missing client capability (-32021) are protocol errors the spec
 * answers as JSON-RPC errors. This handler lets `ProtocolError`s through and turns any other
 * failure into an `isError` result, as McpServer would. tools/list still comes from McpServer's
 * registrations. Call after every `registerTool` (McpServer installs its handler on the first one).
 *
 * The low-level server still wraps this handler with the SDK's MRTR seam: capability checks of
 * returned `inputRequests`, and the legacy shim that turns `input_required` into real requests on
 * 2025 connections.
 */
export function installToolCallHandler(server: McpServer, tools: readonly DemoTool[], deps: DemoDeps): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.server.setRequestHandler('tools/call', async (request, ctx) => {
    const tool = byName.get(request.params.name);
    if (tool === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    try {
      const outcome = await tool.call(request.params.arguments, ctx, deps);
      return isInputRequiredResult(outcome) ? outcome : server.server.projectCallToolResult(outcome, undefined);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      return errorResult(`Tool ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}
