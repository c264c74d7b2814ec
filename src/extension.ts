/**
 * MCP Roundtrip's composition root: activation only builds the parts and registers the commands,
 * the view and the providers; nothing connects until a server is used. What it returns is the API
 * of `testApi.ts`.
 */
import * as vscode from 'vscode';
import { checkFormContent } from './core/elicitation/formCheck';
import { serverLogLevel } from './core/log/serverLogLevel';
import { apiCall, CallRoutes, chatApi, openBareWebviewsOnRequest, reportActivation, type McpRoundtripApi } from './testApi';
import { addServer, callTool, getPrompt, openConfiguration, readResource, restartServer } from './vscode/commands/commands';
import { pingServer } from './vscode/commands/pingServer';
import {
  clearHistory,
  openHistoryApp,
  openHistoryResult,
  runAgain,
  runSavedCall,
  saveCall,
  type HistoryDeps,
} from './vscode/commands/historyCommands';
import { AppViews } from './vscode/apps/appView';
import { OPEN_CHAT_APP_COMMAND, type ChatAppCall } from './vscode/apps/appsSetting';
import { callLimits } from './vscode/commands/runCall';
import { readTemplate } from './vscode/commands/templateRead';
import { tryDemo } from './vscode/commands/tryDemo';
import { openWalkthroughOnce } from './vscode/shared/walkthrough';
import { GlobalState } from './vscode/shared/globalState';
import { HistoryView, type HistoryNode } from './vscode/history/historyView';
import { SavedCallsFiles } from './vscode/history/savedCallsFiles';
import { WorkspaceHistory } from './vscode/history/workspaceHistory';
import { TasksView, cancelTaskRecord, openTaskResult, refreshTasks, workspaceTaskRecords } from './vscode/tasks/tasksView';
import type { TaskRecord } from './core/tasks/taskRecords';
import { vscodeInputs } from './vscode/inputs/inputProvider';
import { openResourceLink } from './vscode/results/links';
import { ResultPresenter } from './vscode/results/resultPresenter';
import { createRoundPanels } from './vscode/roundPanel/roundPanels';
import { SHOW_WAITING_ROUND, WaitingRounds } from './vscode/roundPanel/waitingRounds';
import { createSampler } from './vscode/sampling/sampler';
import { registerChat, resetChatPermissions } from './vscode/chat/registerChat';
import { ServerRegistry } from './vscode/servers/serverRegistry';
import { ServersView, type ServerTreeNode } from './vscode/servers/serversView';
import { RoundTripLog } from './vscode/shared/roundTripLog';
import { SignIns } from './vscode/oauth/signIns';
import { registerSkills } from './vscode/skills/skillCommands';
import { userSetting } from './vscode/shared/userSettings';

/**
 * Build the host's parts and register its commands, view and providers (nothing connects yet).
 * @returns the API of `testApi.ts`
 */
export function activate(context: vscode.ExtensionContext): McpRoundtripApi {
  const activationStarted = performance.now(); // bench hook, see reportActivation
  const log = new RoundTripLog();
  const waiting = new WaitingRounds();
  const ui = createRoundPanels(context, log, waiting);
  const provider = vscodeInputs(ui, createSampler(ui, log), log, (params, ctx) => apps.elicitationApp(params, ctx));
  const routes = new CallRoutes(provider);
  const signIns = new SignIns(context, () => registry, log);
  const registry: ServerRegistry = new ServerRegistry(context, log, () => ({
    provider: routes.provider,
    clientInfo: { name: 'mcp-roundtrip', version: String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0') },
    onEvent: (e) => (log.event(e), signIns.onEvent(e)),
    oauth: signIns.host,
    onWire: userSetting('log.wire') === true ? (server, dir, msg) => log.wire(server, dir, msg) : undefined,
    checkFormContent,
    logLevel: serverLogLevel(vscode.workspace.getConfiguration('mcpRoundtrip').get('log.serverLevel')),
  }));
  // A resource_link clicked in a result is read from the server that returned it.
  const readLinked = async (server: string, uri: string) => {
    const entry = registry.get(server);
    if (entry) await readResource(deps, entry, uri);
  };
  const results = new ResultPresenter(
    context.extensionUri,
    (uri, server) => void openResourceLink(uri, server, readLinked),
    (t) => log.warn(t),
  );
  const history = new WorkspaceHistory(context);
  const tasks = workspaceTaskRecords(context.workspaceState);
  const savedCalls = new SavedCallsFiles(log);
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
  const apps = new AppViews(context.extensionUri, { registry, log, ui, results, limits: () => callLimits(log) }, version);
  const deps: HistoryDeps & { tasks: typeof tasks } = { registry, log, ui, results, history, savedCalls, apps, tasks };
  // Reading the configuration is cheap and starts nothing; do it after activation returns.
  const ready = new Promise<void>((resolve) =>
    setImmediate(
      () =>
        void Promise.all([registry.reload(), savedCalls.reload()]).then(
          () => resolve(),
          () => resolve(),
        ),
    ),
  );
  // Every part that keeps something across windows reads it through this one wrapper.
  const globalState = new GlobalState(context.globalState);
  const skills = registerSkills(context, globalState, registry);
  const chat = registerChat(context, globalState, registry, log, ui, provider, ready, history, skills, tasks);
  const view = new ServersView(registry, savedCalls, chat.exposure, waiting, chat.permissions, skills);
  const historyView = new HistoryView(history);
  const tasksView = new TasksView(tasks);
  // A command can be what activated us: it must see the servers, so it waits for the first load.
  const cmd = (id: string, f: (...args: never[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: never[]) => (await ready, f(...args))));
  cmd('mcpRoundtrip.callTool', () => callTool(deps));
  cmd('mcpRoundtrip.getPrompt', () => getPrompt(deps));
  cmd('mcpRoundtrip.readResource', () => readResource(deps));
  cmd('mcpRoundtrip.showLog', () => log.show());
  cmd('mcpRoundtrip.restartServer', () => restartServer(deps));
  // The palette's (no argument) and a server's context menu (its tree node).
  cmd('mcpRoundtrip.pingServer', (node?: ServerTreeNode) => pingServer(deps, node?.kind === 'server' ? node.entry : undefined));
  cmd('mcpRoundtrip.addServer', () => addServer());
  cmd('mcpRoundtrip.openConfiguration', () => openConfiguration(context));
  cmd('mcpRoundtrip.signOut', () => signIns.signOut());
  cmd('mcpRoundtrip.clearSignIns', () => signIns.clear());
  cmd('mcpRoundtrip.view.refresh', () => registry.reload());
  cmd('mcpRoundtrip.view.restart', (node: ServerTreeNode) => node?.kind === 'server' && restartServer(deps, node.entry));
  cmd('mcpRoundtrip.view.run', (node: ServerTreeNode) => {
    if (!node || node.kind === 'message' || node.kind === 'server' || node.kind === 'savedCall' || node.kind === 'skill') return;
    if (node.kind === 'tool') return callTool(deps, node.entry, node.item);
    if (node.kind === 'prompt') return getPrompt(deps, node.entry, node.item);
    if (node.kind === 'template') return readTemplate(deps, node.entry, node.item);
    return readResource(deps, node.entry, String(node.item.uri));
  });
  const call = (node: HistoryNode | undefined) => (node?.kind === 'call' ? history.store.get(node.record.id) : undefined);
  cmd('mcpRoundtrip.history.open', (node: HistoryNode) => (call(node) ? openHistoryResult(deps, call(node)!) : undefined));
  cmd('mcpRoundtrip.history.runAgain', (node: HistoryNode) => (call(node) ? runAgain(deps, call(node)!) : undefined));
  cmd('mcpRoundtrip.history.openApp', (node: HistoryNode) => (call(node) ? openHistoryApp(deps, call(node)!) : undefined));
  cmd(OPEN_CHAT_APP_COMMAND, (app?: ChatAppCall) => (app ? apps.showFromChat(app) : undefined));
  cmd('mcpRoundtrip.history.saveCall', (node: HistoryNode) => (call(node) ? saveCall(deps, call(node)!) : undefined));
  cmd('mcpRoundtrip.history.clear', () => clearHistory(deps));
  const taskOf = (r: TaskRecord | undefined) => (r && typeof r.id === 'string' ? tasks.get(r.server, r.id) : undefined);
  cmd('mcpRoundtrip.tasks.openResult', (r?: TaskRecord) => (taskOf(r) ? openTaskResult(deps, taskOf(r)!) : undefined));
  cmd('mcpRoundtrip.tasks.cancel', (r?: TaskRecord) => (taskOf(r) ? cancelTaskRecord(deps, taskOf(r)!) : undefined));
  cmd('mcpRoundtrip.tasks.refresh', () => refreshTasks(deps));
  cmd(SHOW_WAITING_ROUND, () => waiting.show());
  cmd('mcpRoundtrip.tryDemo', () => tryDemo(deps));
  cmd('mcpRoundtrip.resetChatPermissions', (node?: ServerTreeNode) =>
    resetChatPermissions(chat, node?.kind === 'server' ? node.entry.name : undefined),
  );
  cmd('mcpRoundtrip.runSavedCall', (saved?: { name?: unknown; location?: unknown }) =>
    runSavedCall(
      deps,
      typeof saved?.name === 'string' && typeof saved.location === 'string' ? { name: saved.name, location: saved.location } : undefined,
    ),
  );
  context.subscriptions.push(
    log,
    ui,
    waiting,
    registry,
    results,
    apps,
    view,
    history,
    savedCalls,
    historyView,
    vscode.window.createTreeView('mcpRoundtrip.servers', { treeDataProvider: view, showCollapseAll: true }),
    vscode.window.createTreeView('mcpRoundtrip.history', { treeDataProvider: historyView, showCollapseAll: true }),
    tasksView,
  );
  // After a reload the kept tasks are listed; their statuses are read afresh the first time the view is shown.
  const tasksTree = vscode.window.createTreeView('mcpRoundtrip.tasks', { treeDataProvider: tasksView });
  let tasksRefreshed = false;
  const refreshOnce = () => {
    if (tasksRefreshed || !tasksTree.visible) return;
    tasksRefreshed = true;
    void ready.then(() => refreshTasks(deps));
  };
  context.subscriptions.push(tasksTree, tasksTree.onDidChangeVisibility(refreshOnce));
  refreshOnce();
  reportActivation(activationStarted, log);
  context.subscriptions.push(openBareWebviewsOnRequest(log));
  void openWalkthroughOnce(context, globalState);
  return {
    registry,
    log,
    ready,
    provider,
    call: apiCall(deps, ready, routes),
    signInFingerprint: (server) => signIns.fingerprint(server),
    chat: chatApi(chat),
  };
}

/** Nothing to do: every part is disposed through `context.subscriptions`. */
export function deactivate(): void {}
