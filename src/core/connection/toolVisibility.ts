/**
 * Which listed tools a person or a model may call. A tool of the MCP Apps extension whose
 * `_meta.ui.visibility` is `["app"]` is called only by its app's own view, never offered as a tool.
 *
 * Spec: MCP Apps extension (SEP-1865), `_meta.ui.visibility`: `"model"` and/or `"app"`; absent means both.
 */
import { isPlainObject } from '../util/json';

/** True for a tool that only its MCP App may call (`_meta.ui.visibility` is exactly `["app"]`). */
export function isAppOnlyTool(tool: unknown): boolean {
  if (!isPlainObject(tool) || !isPlainObject(tool._meta)) return false;
  const ui = tool._meta.ui;
  if (!isPlainObject(ui) || !Array.isArray(ui.visibility)) return false;
  return ui.visibility.length > 0 && ui.visibility.every((v) => v === 'app');
}

/** The tools a person or a model may be offered: all but the {@link isAppOnlyTool} ones. */
export function callableTools<T>(tools: readonly T[]): T[] {
  return tools.filter((t) => !isAppOnlyTool(t));
}
