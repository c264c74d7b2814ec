// The shape every demo tool is written in, and how a raw tools/call reaches it.
import type { CallToolResult, ClientCapabilities, InputRequiredResult, ServerContext, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { openRound, type DemoDeps, type Round } from './round';

/** What a tool handler returns: a final result or another round. */
export type ToolOutcome = CallToolResult | InputRequiredResult;

/**
 * A demo tool as written: metadata shown to users, argument schema, the client capabilities the
 * whole flow needs, and `run`, called once per round with parsed arguments and the {@link Round}.
 * `S` is the payload the tool carries between rounds in `requestState`.
 */
export interface ToolDefinition<A extends z.ZodObject, S> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly args: A;
  readonly needs: ClientCapabilities;
  readonly annotations?: ToolAnnotations;
  run(args: z.output<A>, round: Round<S>): Promise<ToolOutcome>;
}

/**
 * A registered demo tool with its types erased, ready for the server.
 *
 * `call(rawArgs, ctx, deps)`: invalid arguments give an `isError` result (spec: input validation is
 * a tool execution error); capability and state problems throw `ProtocolError` (-32021 / -32602),
 * which the tools/call handler lets through as JSON-RPC errors.
 */
export interface DemoTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodObject;
  readonly annotations?: ToolAnnotations;
  call(rawArgs: unknown, ctx: ServerContext, deps: DemoDeps): Promise<ToolOutcome>;
}

/** Erases a {@link ToolDefinition}'s type parameters behind {@link DemoTool}. */
export function defineTool<A extends z.ZodObject, S>(def: ToolDefinition<A, S>): DemoTool {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: def.args,
    annotations: def.annotations,
    async call(rawArgs, ctx, deps) {
      const parsed = def.args.safeParse(rawArgs ?? {});
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
        return errorResult(`Invalid arguments for tool ${def.name}: ${issues}`);
      }
      // The binding digests the parsed arguments: a pure function of what the client sent.
      const round = await openRound<S>(
        ctx,
        deps,
        { method: 'tools/call', name: def.name, args: parsed.data },
        def.needs,
        `Tool ${def.name}`,
      );
      return def.run(parsed.data, round);
    },
  };
}

/** A plain text tool result. */
export function textResult(text: string, structuredContent?: Record<string, unknown>): CallToolResult {
  return structuredContent === undefined ? { content: [{ type: 'text', text }] } : { content: [{ type: 'text', text }], structuredContent };
}

/** A tool execution error (`isError: true`) with one text block. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
