/**
 * What `activate` returns: the API that the integration tests, the benchmark and other extensions
 * use. Kept apart from the composition root (`extension.ts`), which only registers.
 *
 * - `call` runs a tool, prompt or resource the way the commands do, without the pickers and the
 *   arguments form, and may answer that call's inputs with a provider of its own (routed by flow id);
 * - `chat`: the servers offered to VS Code's chat, the bridge's port, and the name VS Code's MCP
 *   client gives a bridged tool (for `vscode.lm.invokeTool`);
 * - the bench hook: with `MCP_ROUNDTRIP_BENCH_FILE` set, activation reports its own duration, and a
 *   bare webview panel opens on request (the reference of the round panel's time to its first field).
 */
import { appendFileSync, existsSync, readFileSync, renameSync, rmSync, watch, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';
import type { HostEvent } from './core/log/events';
import { bridgedToolPrefix } from './core/chat/toolNames';
import type { InputContext, InputProvider, MrtrMethod } from './core/inputs/inputProvider';
import { newFlowId } from './core/mrtr/driver';
import { bridgedLabel } from './vscode/chat/chatExposure';
import type { ChatParts } from './vscode/chat/registerChat';
import { runCall, type CallDeps } from './vscode/commands/runCall';
import type { ServerRegistry } from './vscode/servers/serverRegistry';
import type { RoundTripLog } from './vscode/shared/roundTripLog';

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
  /**
   * A fingerprint (SHA-256, first 16 hex digits) of the access token kept in secret storage for
   * `server`, or undefined when it is not signed in: lets a test tell which token is stored without
   * the token ever leaving secret storage.
   */
  signInFingerprint(server: string): Promise<string | undefined>;
  /** MCP Roundtrip in VS Code's chat. */
  chat: ChatApi;
}

/** What the chat side offers tests (and other extensions). */
export interface ChatApi {
  /** The servers offered to chat (by `mcpRoundtrip.chat.exposeServers`), by name. */
  exposed(): string[];
  /** The port of the bridge's loopback endpoint, once it listens. */
  bridgePort(): number | undefined;
  /**
   * The name VS Code's MCP client gives `tool` of bridged server `server` in `vscode.lm.tools`
   * (`mcp_<label slug>_<tool>`), once VS Code started that server; for `vscode.lm.invokeTool`.
   */
  bridgedTool(server: string, tool: string): string | undefined;
}

/** {@link ChatApi} over the chat parts. */
export function chatApi(chat: ChatParts): ChatApi {
  return {
    exposed: () => chat.exposure.exposed().map((e) => e.name),
    bridgePort: () => chat.bridge.port,
    bridgedTool: (server, tool) => {
      const prefix = bridgedToolPrefix(bridgedLabel(server));
      return vscode.lm.tools.find(
        (t) => t.name.startsWith(prefix.stem) && prefix.rest.test(t.name.slice(prefix.stem.length)) && t.name.endsWith(`_${tool}`),
      )?.name;
    },
  };
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

/**
 * The host's provider, except for the calls made through {@link McpRoundtripApi.call} with a provider
 * of their own: their inputs go to that one, by flow id. The capabilities are always the host's.
 */
export class CallRoutes {
  private readonly byFlow = new Map<number, InputProvider>();
  /** The provider the connections use. */
  readonly provider: InputProvider;

  constructor(host: InputProvider) {
    const answerer = (ctx: InputContext) => this.byFlow.get(ctx.round.flowId) ?? host;
    this.provider = {
      get capabilities() {
        return host.capabilities;
      },
      elicit: (params, ctx) => answerer(ctx).elicit(params, ctx),
      sample: (params, ctx) => answerer(ctx).sample(params, ctx),
      listRoots: (ctx) => answerer(ctx).listRoots(ctx),
      urlDone: (params, ctx) => answerer(ctx).urlDone?.(params, ctx) ?? Promise.resolve(),
    };
  }

  /** Answer flow `flowId`'s inputs with `provider`. */
  route(flowId: number, provider: InputProvider): void {
    this.byFlow.set(flowId, provider);
  }

  /** The flow ended. */
  unroute(flowId: number): void {
    this.byFlow.delete(flowId);
  }
}

/** {@link McpRoundtripApi.call} over the host's call machinery. */
export function apiCall(deps: CallDeps, ready: Promise<void>, routes: CallRoutes): McpRoundtripApi['call'] {
  const { registry, log } = deps;
  return async (server, method, params, options = {}) => {
    await ready;
    const entry = registry.get(server);
    const events: HostEvent[] = [];
    if (!entry) return { error: { kind: 'usage', message: `no server named "${server}"` }, events };
    try {
      await registry.connection(entry); // what runCall does first; failing here would leave runCall awaiting its notification
    } catch (e) {
      return { error: { kind: 'connection', message: (e as Error).message }, events };
    }
    const flowId = newFlowId();
    if (options.provider) routes.route(flowId, options.provider);
    return new Promise<CallOutcome>((resolve) => {
      const end = (outcome: Omit<CallOutcome, 'events'>) => {
        routes.unroute(flowId);
        resolve({ ...outcome, events });
      };
      // The log runCall writes to, seeing this call's events.
      const tap = Object.assign(Object.create(log) as RoundTripLog, {
        event: (e: HostEvent) => {
          log.event(e);
          events.push(e);
          if (e.kind === 'error') end({ error: { kind: e.errorKind, message: e.message } });
        },
      });
      void runCall({ ...deps, log: tap }, entry, method, params, { flowId }).then(
        (result) => end(result ? { result } : { error: { kind: 'unknown', message: 'the call failed (see the round-trip log)' } }),
        (e) => end({ error: { kind: 'unknown', message: (e as Error).message } }),
      );
    });
  };
}

/** The view type of the benchmark's bare webview (see {@link openBareWebviewsOnRequest}). */
export const BARE_WEBVIEW_VIEW_TYPE = 'mcpRoundtrip.benchBareWebview';
/** The one item of the quick pick that opens a bare webview asked for with `.bare-picked`. */
export const BARE_WEBVIEW_PICK = 'Open a bare webview';

/** The one item of the quick pick that opens the bare tool list asked for with `.bare-tools`. */
export const BARE_TOOLS_PICK = 'Open the bare tool list';

/** One row of the bare tool list (`.bare-tools`): what the Call Tool picker shows of a tool. */
interface BareRow {
  label: string;
  description?: string;
  detail?: string;
}

/**
 * The extension host's heap in use after a full collection, bytes. V8's `gc` is exposed for this call
 * only through its flags (the bench hook's, never a person's session).
 */
function heapAfterCollection(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/**
 * The bench hook's reference panel: with `MCP_ROUNDTRIP_BENCH_FILE` set, each time a file named like it
 * plus `.bare` appears, the extension deletes it and opens a bare webview panel (one paragraph,
 * "Bare webview", no script, nothing allowed by its CSP), logging `bench: bare webview opened` as it
 * calls `createWebviewPanel`. With `.bare-picked` instead, it first shows a quick pick whose one item is
 * {@link BARE_WEBVIEW_PICK}, and opens the panel when that item is picked: the workbench is then
 * closing a quick pick as the panel is created, as it is when a round panel opens after the person
 * picked a tool. The benchmark times the round panel against that panel's first paint, in the same
 * editor and run. With `.bare-app` (its content an MCP App's HTML), it opens that HTML, scripts enabled,
 * as the document of a bare webview, logging `bench: bare app webview opened`: the reference of the app
 * view's first paint (test/bench/appPaint.ts). With `.bare-tools` (its content a JSON array of
 * `{label, description, detail}` rows), it first shows a quick pick whose one item is
 * {@link BARE_TOOLS_PICK}; when that item is picked it logs `bench: bare tool list opened` and shows
 * those rows in a bare `createQuickPick` (matching on description and detail, as Call Tool's picker
 * does): the reference of the palette's tool list (test/bench/palette.ts). With `.heap`, it writes
 * `{"heapUsed": bytes}` (the extension host's heap after a full collection) to a file named like the
 * request plus `.json`. Without the variable it does nothing.
 * @returns what stops watching
 */
export function openBareWebviewsOnRequest(log: RoundTripLog): vscode.Disposable {
  const file = process.env.MCP_ROUNDTRIP_BENCH_FILE;
  if (!file) return new vscode.Disposable(() => {});
  const requests = new Map([
    [`${basename(file)}.bare`, false],
    [`${basename(file)}.bare-picked`, true],
  ]);
  const appRequest = `${basename(file)}.bare-app`;
  const toolsRequest = `${basename(file)}.bare-tools`;
  const heapRequest = `${basename(file)}.heap`;
  let panel: vscode.WebviewPanel | undefined;
  const open = () => {
    panel?.dispose();
    log.info('bench: bare webview opened');
    panel = vscode.window.createWebviewPanel(
      BARE_WEBVIEW_VIEW_TYPE,
      'Bare webview',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { enableScripts: false },
    );
    panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'"><title>Bare webview</title></head><body><p>Bare webview</p></body></html>`;
    panel.onDidDispose(() => (panel = undefined));
  };
  // The reference of the app view's first paint: the app's HTML, as it is, the document of a bare webview.
  const openBareApp = (request: string) => {
    if (!existsSync(request)) return;
    const html = readFileSync(request, 'utf8');
    rmSync(request, { force: true });
    panel?.dispose();
    log.info('bench: bare app webview opened');
    panel = vscode.window.createWebviewPanel(BARE_WEBVIEW_VIEW_TYPE, 'Bare app', vscode.ViewColumn.Active, { enableScripts: true });
    panel.webview.html = html;
    panel.onDidDispose(() => (panel = undefined));
  };
  // The reference of the palette's tool list: the same rows in a bare quick pick, opened as an item
  // of a first quick pick is picked, as Call Tool's list opens as its server is picked.
  const openBareTools = (request: string) => {
    if (!existsSync(request)) return;
    const rows = JSON.parse(readFileSync(request, 'utf8')) as BareRow[];
    rmSync(request, { force: true });
    void vscode.window.showQuickPick([BARE_TOOLS_PICK], { placeHolder: 'Bench: the reference tool list' }).then((item) => {
      if (!item) return;
      log.info('bench: bare tool list opened');
      const pick = vscode.window.createQuickPick();
      pick.placeholder = 'Bench: a bare quick pick';
      pick.matchOnDescription = true;
      pick.matchOnDetail = true;
      pick.items = rows.map((r) => ({ label: r.label, description: r.description, detail: r.detail }));
      pick.onDidHide(() => pick.dispose());
      pick.show();
    });
  };
  const writeHeap = (request: string) => {
    if (!existsSync(request)) return;
    rmSync(request, { force: true });
    let answer: { heapUsed?: number; error?: string };
    try {
      answer = { heapUsed: heapAfterCollection() };
    } catch (e) {
      answer = { error: (e as Error).message };
    }
    writeFileSync(`${request}.json.tmp`, JSON.stringify(answer));
    renameSync(`${request}.json.tmp`, `${request}.json`);
  };
  const watcher = watch(dirname(file), { persistent: false }, (_event, name) => {
    if (name === appRequest) return openBareApp(join(dirname(file), name));
    if (name === toolsRequest) return openBareTools(join(dirname(file), name));
    if (name === heapRequest) return writeHeap(join(dirname(file), name));
    const picked = name === null ? undefined : requests.get(name);
    if (picked === undefined || !existsSync(join(dirname(file), name!))) return;
    rmSync(join(dirname(file), name!), { force: true });
    if (!picked) return open();
    void vscode.window.showQuickPick([BARE_WEBVIEW_PICK], { placeHolder: 'Bench: the reference panel' }).then((item) => item && open());
  });
  return new vscode.Disposable(() => {
    watcher.close();
    panel?.dispose();
  });
}

/**
 * The bench hook (`npm run bench`): when the environment variable `MCP_ROUNDTRIP_BENCH_FILE` is set,
 * logs `activated in X ms` (from `activate()` entry to just before it returns, `performance.now()`)
 * and appends `{"activationMs": X, "pid": ..., "at": ...}` as one JSON line to that file. Without the
 * variable it does nothing.
 */
export function reportActivation(startedAt: number, log: RoundTripLog): void {
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
