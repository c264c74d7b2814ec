/**
 * MCP Roundtrip: activation only registers commands, the view and providers; nothing connects until
 * a server is used.
 */
import * as vscode from 'vscode';
import { appendFileSync } from 'node:fs';
import type { HostEvent } from './core/log/events';
import { checkFormContent } from './core/elicitation/formCheck';
import type { InputContext, InputProvider, MrtrMethod } from './core/mrtr/inputs';
import { runCall, type CallDeps } from './vscode/commands/runCall';
import { addServer, callTool, getPrompt, openConfiguration, readResource, restartServer } from './vscode/commands/commands';
import { vscodeInputs } from './vscode/inputs/inputProvider';
import { openResourceLink } from './vscode/results/links';
import { RoundTripLog } from './vscode/shared/roundTripLog';
import { ResultPresenter } from './vscode/results/resultPresenter';
import { createRoundPanels } from './vscode/roundPanel/roundPanels';
import { createSampler } from './vscode/sampling/sampler';
import { ServerRegistry } from './vscode/servers/serverRegistry';
import { ServersView, type ServerTreeNode } from './vscode/servers/serversView';

/** What tests (and other extensions) may use. */
export interface McpRoundtripApi {
  registry: ServerRegistry;
  log: RoundTripLog;
  /** Resolves once the first server list is loaded. */
  ready: Promise<void>;
  /** The host's input provider: forms and sampling through the round panel, roots from the workspace folders. */
  provider: InputProvider;
  /**
   * API for tests and other extensions: run `method` on the server named `server` the way the commands
   * do (`runCall`: progress, round-trip log, `maxRounds` and the time limit from the settings, result
   * shown), without the pickers and the arguments form. `options.provider` answers this call's inputs
   * instead of the host's provider (the capabilities declared to the server stay the host's).
   * Resolves when the call ends, without waiting for an error notification to be dismissed.
   */
  call(server: string, method: MrtrMethod, params: Record<string, unknown>, options?: { provider?: InputProvider }): Promise<CallOutcome>;
}

/** How a call made through {@link McpRoundtripApi.call} ended. */
export interface CallOutcome {
  /** The complete result, when the call succeeded. */
  result?: Record<string, unknown>;
  /** Why it failed (server unusable, JSON-RPC error, round or time limit, cancelled), when it did. */
  error?: { kind: string; message: string };
  /** The call's round-trip events, in order (what the log shows). */
  events: HostEvent[];
}

export function activate(context: vscode.ExtensionContext): McpRoundtripApi {
  const activationStarted = performance.now(); // bench hook, see reportActivation
  const log = new RoundTripLog();
  const ui = createRoundPanels(context, log);
  const sampler = createSampler(ui, log);
  const provider = vscodeInputs(ui, sampler, log);
  // Test hook (api.call): a call may bring its own provider; its inputs are routed to it by flow id.
  const callProviders = new Map<number, InputProvider>();
  const answerer = (ctx: InputContext) => callProviders.get(ctx.round.flowId) ?? provider;
  const routed: InputProvider = {
    get capabilities() {
      return provider.capabilities;
    },
    elicit: (params, ctx) => answerer(ctx).elicit(params, ctx),
    sample: (params, ctx) => answerer(ctx).sample(params, ctx),
    listRoots: (ctx) => answerer(ctx).listRoots(ctx),
  };
  const registry = new ServerRegistry(context, log, () => ({
    provider: routed,
    clientInfo: { name: 'mcp-roundtrip', version: String(context.extension.packageJSON.version ?? '0.0.0') },
    onEvent: log.event,
    onWire: vscode.workspace.getConfiguration('mcpRoundtrip').get<boolean>('log.wire') ? (server, dir, msg) => log.wire(server, dir, msg) : undefined,
    checkFormContent,
  }));
  const deps: CallDeps = { registry, log, ui, results: undefined! };
  deps.results = new ResultPresenter(context.extensionUri, (uri, server) =>
    void openResourceLink(uri, server, async (s, u) => {
      const entry = registry.get(s);
      if (entry) await readResource(deps, entry, u);
    }),
  );
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
  context.subscriptions.push(log, ui, registry, deps.results, view, vscode.window.createTreeView('mcpRoundtrip.servers', { treeDataProvider: view, showCollapseAll: true }));
  /** See {@link McpRoundtripApi.call}. */
  const call: McpRoundtripApi['call'] = async (server, method, params, options = {}) => {
    await ready;
    const entry = registry.get(server);
    const events: HostEvent[] = [];
    if (!entry) return { error: { kind: 'usage', message: `no server named "${server}"` }, events };
    try {
      await registry.connection(entry); // what runCall does first; failing here would leave runCall awaiting its notification
    } catch (e) {
      return { error: { kind: 'connection', message: (e as Error).message }, events };
    }
    let flowId: number | undefined;
    return new Promise<CallOutcome>((resolve) => {
      const end = (outcome: Omit<CallOutcome, 'events'>) => {
        if (flowId !== undefined) callProviders.delete(flowId);
        resolve({ ...outcome, events });
      };
      // The log runCall writes to, seeing this call's events: the first one names the flow.
      const tap = Object.assign(Object.create(log) as RoundTripLog, {
        event: (e: HostEvent) => {
          log.event(e);
          events.push(e);
          if ('flowId' in e && flowId === undefined) {
            flowId = e.flowId;
            if (options.provider) callProviders.set(flowId, options.provider);
          }
          if (e.kind === 'error') end({ error: { kind: e.errorKind, message: e.message } });
        },
      });
      void runCall({ ...deps, log: tap }, entry, method, params).then(
        (result) => end(result ? { result } : { error: { kind: 'unknown', message: 'the call failed (see the round-trip log)' } }),
        (e) => end({ error: { kind: 'unknown', message: (e as Error).message } }),
      );
    });
  };
  reportActivation(activationStarted, log);
  return { registry, log, ready, provider, call };
}

export function deactivate(): void {}

// --- Bench hook (test/bench, issue 9) --------------------------------------------------------------

/**
 * When the environment variable `MCP_ROUNDTRIP_BENCH_FILE` is set, logs `activated in X ms` (from
 * `activate()` entry to just before it returns, `performance.now()`) and appends
 * `{"activationMs": X, "pid": ..., "at": ...}` as one JSON line to that file, which `npm run bench`
 * reads. Without the variable it does nothing.
 */
function reportActivation(startedAt: number, log: RoundTripLog): void {
  const file = process.env.MCP_ROUNDTRIP_BENCH_FILE;
  if (!file) return;
  const activationMs = performance.now() - startedAt;
  log.info(`activated in ${activationMs.toFixed(2)} ms`);
  try {
    appendFileSync(file, `${JSON.stringify({ activationMs, pid: process.pid, at: Date.now() })}\n`);
  } catch (e) {
    log.warn(`could not write the activation time to ${file}: ${(e as Error).message}`);
  }
}
