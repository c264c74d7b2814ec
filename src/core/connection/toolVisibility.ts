/**
 * Which listed tools a person or a model may call. A tool of the MCP Apps extension whose
 * `_meta.ui.visibility` is `["app"]` is called only by its app's own view, never offered as a tool.
 *
 * Spec: MCP Apps extension (SEP-1865), `_meta.ui.visibility`: `"model"` and/or `"app"`; absent means both.
 */
import { toolVisibility } from '../apps/appTool';

/** True for a tool that only its MCP App may call (its `_meta.ui.visibility` lacks `"model"`). */
export function isAppOnlyTool(tool: unknown): boolean {
  return !toolVisibility(tool).includes('model');
}

/** The tools a person or a model may be offered: all but the {@link isAppOnlyTool} ones. */
export function callableTools<T>(tools: readonly T[]): T[] {
  return tools.filter((t) => !isAppOnlyTool(t));
}
