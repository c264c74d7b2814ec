/** The `mcpRoundtrip.apps.enabled` setting (whether MCP Apps are advertised to servers and rendered), and the **Open App** button of a chat result. */
import * as vscode from 'vscode';

/** The setting's id. */
export const APPS_ENABLED_SETTING = 'mcpRoundtrip.apps.enabled';

/** True unless the person turned MCP Apps off (`mcpRoundtrip.apps.enabled`, default true). */
export function appsEnabled(): boolean {
  return vscode.workspace.getConfiguration('mcpRoundtrip').get<boolean>('apps.enabled', true) !== false;
}

/** The command of the **Open App** button under a `@roundtrip` result whose tool has an MCP App. */
export const OPEN_CHAT_APP_COMMAND = 'mcpRoundtrip.chat.openApp';

/** The argument of {@link OPEN_CHAT_APP_COMMAND}: the call whose app opens beside the chat. */
export interface ChatAppCall {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
  result: Record<string, unknown>;
}
