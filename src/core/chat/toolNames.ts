/**
 * The names `@roundtrip` gives the servers' tools when it hands them to the chat's model. Model APIs
 * accept only `[A-Za-z0-9_-]{1,64}` as a tool name, and two servers may have tools of the same name,
 * so each name is `<server>_<tool>`, cleaned, cut and made unique with a short digest.
 */
import { createHash } from 'node:crypto';

/** Longest tool name model APIs accept. */
export const MAX_TOOL_NAME = 64;

/** One tool of one server, as the model sees it and as the host calls it. */
export interface NamedTool {
  /** The name given to the model. */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
}

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_');
const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);

/**
 * Model-facing names for `tools` (`[A-Za-z0-9_-]{1,64}`, unique), in the same order.
 * @param tools each tool's server and its name on that server
 */
export function modelToolNames(tools: readonly { server: string; tool: string }[]): NamedTool[] {
  const used = new Set<string>();
  return tools.map(({ server, tool }) => {
    let name = clean(`${server}_${tool}`);
    if (name.length > MAX_TOOL_NAME || used.has(name)) name = `${name.slice(0, MAX_TOOL_NAME - 9)}_${digest(`${server}\u0000${tool}`)}`;
    used.add(name);
    return { name, server, tool };
  });
}

/**
 * The prefix VS Code 1.139 gives the tools of an MCP server labelled `label` in `lm.tools`: `mcp_`, the
 * label lowercased with every run of other characters than `[a-z0-9_.-]` made `_`, cut to 13
 * characters, then `_` (or a number and `_` when another server took the same stem). What follows
 * the stem is matched by `rest` up to the tool's own name.
 */
export function bridgedToolPrefix(label: string): { stem: string; rest: RegExp } {
  return {
    stem: `mcp_${label
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '_')
      .slice(0, 13)}`,
    rest: /^\d*_/,
  };
}
