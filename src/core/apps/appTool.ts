/**
 * Which tools have an MCP App, and who may call them. A tool names its app with `_meta.ui.resourceUri`
 * (or the older flat key `_meta["ui/resourceUri"]`, which hosts must still read), a `ui://` resource;
 * `_meta.ui.visibility` says whether the model, the app, or both may call it.
 *
 * Spec: MCP Apps extension (`io.modelcontextprotocol/ui`, 2026-01-26), "Tool metadata".
 */
import { isPlainObject } from '../util/json';

/** The extension's id: the key of its capability under `capabilities.extensions`. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The mime type an app's resource must carry (spec: "UI Resource"). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** Who may call a tool: the model (and a person), the app's own view, or both. */
export type ToolVisibility = 'model' | 'app';

/**
 * The `ui://` resource that holds `tool`'s app, or `undefined` when it has none. The nested
 * `_meta.ui.resourceUri` wins over the flat `_meta["ui/resourceUri"]`; a value that is not a `ui://`
 * URI with a non-empty rest is no app (a server's mistake must not make us read another scheme).
 */
export function appResourceUri(tool: unknown): string | undefined {
  if (!isPlainObject(tool) || !isPlainObject(tool._meta)) return undefined;
  const meta = tool._meta;
  const nested = isPlainObject(meta.ui) ? meta.ui.resourceUri : undefined;
  for (const uri of [nested, meta['ui/resourceUri']]) if (isAppUri(uri)) return uri;
  return undefined;
}

/** True for a `ui://` URI with something after the scheme (spec: UI resources use the `ui://` scheme). */
export function isAppUri(uri: unknown): uri is string {
  return typeof uri === 'string' && uri.startsWith('ui://') && uri.length > 'ui://'.length && uri.length <= 2048;
}

/**
 * Who may call `tool`: its `_meta.ui.visibility` when that is a non-empty list of known values, else
 * both (the spec's default; unknown entries are ignored, a list of only unknown entries means both).
 */
export function toolVisibility(tool: unknown): ToolVisibility[] {
  const both: ToolVisibility[] = ['model', 'app'];
  if (!isPlainObject(tool) || !isPlainObject(tool._meta) || !isPlainObject(tool._meta.ui)) return both;
  const v = tool._meta.ui.visibility;
  if (!Array.isArray(v)) return both;
  const known = both.filter((k) => v.includes(k));
  return known.length ? known : both;
}

/** True when an app's view may call `tool` (its visibility includes `"app"`). */
export function appMayCall(tool: unknown): boolean {
  return toolVisibility(tool).includes('app');
}

/** True when `tool` says it changes nothing (`annotations.readOnlyHint: true`); anything else asks first. */
export function isReadOnlyTool(tool: unknown): boolean {
  return isPlainObject(tool) && isPlainObject(tool.annotations) && tool.annotations.readOnlyHint === true;
}
