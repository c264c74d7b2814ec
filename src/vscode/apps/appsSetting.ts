/** The `mcpRoundtrip.apps.enabled` setting: whether MCP Apps are advertised to servers and rendered. */
import * as vscode from 'vscode';

/** The setting's id. */
export const APPS_ENABLED_SETTING = 'mcpRoundtrip.apps.enabled';

/** True unless the person turned MCP Apps off (`mcpRoundtrip.apps.enabled`, default true). */
export function appsEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpRoundtrip').get<boolean>('apps.enabled', true) !== false;
}
