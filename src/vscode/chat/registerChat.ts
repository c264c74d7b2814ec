/**
 * MCP Roundtrip in VS Code's chat: the bridge for VS Code's own MCP client and the `@roundtrip`
 * participant, both over one runner of calls from chat and one decision of which servers are in
 * chat. Registering
 * starts nothing: the endpoint listens once a server is offered, servers connect when used (or once,
 * when chat first needs to know whether they speak only 2026-07-28: `chatExposure.ts`).
 */
import * as vscode from 'vscode';
import type { InputProvider } from '../../core/inputs/inputProvider';
import { oneLine } from '../../core/util/shownText';
import type { WorkspaceHistory } from '../history/workspaceHistory';
import type { ChatPanels } from '../roundPanel/roundPanels';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { RoundTripLog } from '../shared/roundTripLog';
import type { TaskRecords } from '../../core/tasks/taskRecords';
import { ChatCalls } from './chatCalls';
import { ChatExposure } from './chatExposure';
import { ChatPermissions } from './chatPermissions';
import { BRIDGE_PROVIDER_ID, McpBridge } from './mcpBridge';
import { createParticipant } from './participant';
import { ChatToolConsent } from './toolConsent';
import { ChatSkills } from './chatSkills';
import type { ServerSkills } from '../skills/serverSkills';

/** The chat parts, for the servers view and the test API. */
export interface ChatParts {
  exposure: ChatExposure;
  bridge: McpBridge;
  calls: ChatCalls;
  /** The lasting chat rules (listed in the Servers view, reset by Reset Chat Permissions). */
  permissions: ChatPermissions;
  consent: ChatToolConsent;
}

/**
 * Register the bridge's MCP server definition provider and `@roundtrip`.
 * @param ready resolves once the first server list is loaded (the bridge's definitions wait for it, so VS Code's first read lists the servers)
 * @param history the call history, where calls from chat are kept too
 */
export function registerChat(
  context: vscode.ExtensionContext,
  globalState: vscode.Memento,
  registry: ServerRegistry,
  log: RoundTripLog,
  panels: ChatPanels,
  provider: InputProvider,
  ready: Promise<void>,
  history?: WorkspaceHistory,
  skills?: ServerSkills,
  tasks?: TaskRecords,
): ChatParts {
  const calls = new ChatCalls(registry, log, panels, provider, history, tasks);
  const chatSkills = skills && new ChatSkills(skills, registry);
  let bridge: McpBridge | undefined;
  const exposure = new ChatExposure(registry, globalState, log, (server) => bridge?.urlOf(server));
  bridge = new McpBridge(
    registry,
    exposure,
    calls,
    log,
    String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
    chatSkills,
    ready,
  );
  const permissions = new ChatPermissions(context.workspaceState, globalState);
  const consent = new ChatToolConsent(permissions, (t) => log.warn(t));
  const participant = createParticipant({
    registry,
    exposure,
    calls,
    imageDir: vscode.Uri.joinPath(context.globalStorageUri, 'chat-images'),
    consent,
    skills: chatSkills,
  });
  context.subscriptions.push(
    exposure,
    bridge,
    participant,
    permissions,
    vscode.lm.registerMcpServerDefinitionProvider(BRIDGE_PROVIDER_ID, bridge),
  );
  return { exposure, bridge, calls, permissions, consent };
}

/**
 * **Reset Chat Permissions**: forget the lasting chat rules and this session's allowances, of `server`
 * (from the Servers view) or of every server (from the palette); `@roundtrip` asks again.
 */
export async function resetChatPermissions(parts: Pick<ChatParts, 'permissions' | 'consent'>, server?: string): Promise<void> {
  parts.consent.resetSession(server);
  await parts.permissions.reset(server);
  void vscode.window.showInformationMessage(
    server === undefined
      ? vscode.l10n.t('Chat permissions reset: @roundtrip asks again before it runs any tool.')
      : vscode.l10n.t('Chat permissions of {0} reset: @roundtrip asks again before it runs its tools.', oneLine(server, 100)),
  );
}
