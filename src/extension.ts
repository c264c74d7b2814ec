/**
 * MCP Roundtrip's composition root: activation only builds the parts and registers the commands,
 * the view and the providers; nothing connects until a server is used. What it returns is the API
 * of `testApi.ts`.
 */
import * as vscode from 'vscode';
import { checkFormContent } from './core/elicitation/formCheck';
import { apiCall, CallRoutes, openBareWebviewsOnRequest, reportActivation, type McpRoundtripApi } from './testApi';
import { addServer, callTool, getPrompt, openConfiguration, readResource, restartServer } from './vscode/commands/commands';
import type { CallDeps } from './vscode/commands/runCall';
import { vscodeInputs } from './vscode/inputs/inputProvider';
import { openResourceLink } from './vscode/results/links';
import { ResultPresenter } from './vscode/results/resultPresenter';
import { createRoundPanels } from './vscode/roundPanel/roundPanels';
import { createSampler } from './vscode/sampling/sampler';
import { ServerRegistry } from './vscode/servers/serverRegistry';
import { ServersView, type ServerTreeNode } from './vscode/servers/serversView';
import { RoundTripLog } from './vscode/shared/roundTripLog';

/**
 * Build the host's parts and register its commands, view and providers (nothing connects yet).
 * @returns the API of `testApi.ts`
 */
export function activate(context: vscode.ExtensionContext): McpRoundtripApi {
  const activationStarted = performance.now(); // bench hook, see reportActivation
  const log = new RoundTripLog();
  const ui = createRoundPanels(context, log);
  const provider = vscodeInputs(ui, createSampler(ui, log), log);
  const routes = new CallRoutes(provider);
  const registry = new ServerRegistry(context, log, () => ({
    provider: routes.provider,
    clientInfo: { name: 'mcp-roundtrip', version: String(context.extension.packageJSON.version ?? '0.0.0') },
    onEvent: log.event,
    onWire: vscode.workspace.getConfiguration('mcpRoundtrip').get<boolean>('log.wire') ? (server, dir, msg) => log.wire(server, dir, msg) : undefined,
    checkFormContent,
  }));
  // A resource_link clicked in a result is read from the server that returned it.
  const readLinked = async (server: string, uri: string) => {
    const entry = registry.get(server);
    if (entry) await readResource(deps, entry, uri);
  };
  const results = new ResultPresenter(context.extensionUri, (uri, server) => void openResourceLink(uri, server, readLinked));
  const deps: CallDeps = { registry, log, ui, results };
  const view = new ServersView(registry);
  // Reading the configuration is cheap and starts nothing; do it after activation returns.
  const ready = new Promise<void>((resolve) => setImmediate(() => void registry.reload().then(resolve, resolve)));
  // A command can be what activated us: it must see the servers, so it waits for the first load.
  const cmd = (id: string, f: (...args: never[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: never[]) => (await ready, f(...args))));
  cmd('mcpRoundtrip.callTool', () => callTool(deps));
  cmd('mcpRoundtrip.getPrompt', () => getPrompt(deps));
  cmd('mcpRoundtrip.readResource', () => readResource(deps));
  cmd('mcpRoundtrip.showLog', () => log.show());
  cmd('mcpRoundtrip.restartServer', () => restartServer(deps));
  cmd('mcpRoundtrip.addServer', () => addServer());
  cmd('mcpRoundtrip.openConfiguration', () => openConfiguration(context));
  cmd('mcpRoundtrip.view.refresh', () => registry.reload());
  cmd('mcpRoundtrip.view.restart', (node: ServerTreeNode) => node?.kind === 'server' && restartServer(deps, node.entry));
  cmd('mcpRoundtrip.view.run', (node: ServerTreeNode) => {
    if (!node || node.kind === 'message' || node.kind === 'server') return;
    if (node.kind === 'tool') return callTool(deps, node.entry, node.item);
    if (node.kind === 'prompt') return getPrompt(deps, node.entry, node.item);
    return readResource(deps, node.entry, String(node.item.uri));
  });
  context.subscriptions.push(log, ui, registry, results, view, vscode.window.createTreeView('mcpRoundtrip.servers', { treeDataProvider: view, showCollapseAll: true }));
  reportActivation(activationStarted, log);
  context.subscriptions.push(openBareWebviewsOnRequest(log));
  return { registry, log, ready, provider, call: apiCall(deps, ready, routes) };
}

/** Nothing to do: every part is disposed through `context.subscriptions`. */
export function deactivate(): void {}
