/**
 * The bridge for VS Code's own MCP client (Copilot's agent, any chat using VS Code's MCP tools): an
 * `McpServerDefinitionProvider` offering one `McpHttpServerDefinition` per server in chat
 * (`chatExposure.ts`), each pointing at the loopback endpoint (`core/bridge/loopbackEndpoint.ts`)
 * that the extension host serves on 127.0.0.1. The endpoint starts when a server is first offered;
 * the window's bearer token is minted in `resolveMcpServerDefinition`, when VS Code starts a server
 * (it may cache definitions between windows, so the URL and the token are set there again).
 *
 * Under the default rule (`modernOnly`) a server whose era nobody knows yet is offered too, and decided
 * when VS Code starts it: VS Code reads the definitions as soon as the provider is registered (that is,
 * at activation), so probing there would connect every server at start; it starts a definition
 * (`resolveMcpServerDefinition`) only when chat needs its tools. There the server's era is learnt
 * (bounded by `ERA_WAIT_MS`); one VS Code can serve itself is not started (`undefined`: VS Code leaves
 * it stopped, and no tool of it reaches chat) and leaves the definitions.
 *
 * `version` is a digest of the server's tool list once the bridge has listed it: a tool list that
 * changes fires `onDidChangeMcpServerDefinitions`, and VS Code offers to refresh the tools.
 *
 * Stable API only (`lm.registerMcpServerDefinitionProvider`, VS Code 1.101+).
 */
import * as vscode from 'vscode';
import { OfferedServers } from '../../core/chat/offeredServers';
import type { BridgeTarget } from '../../core/bridge/bridgeServer';
import type { LoopbackEndpoint } from '../../core/bridge/loopbackEndpoint';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { ServerEntry } from '../servers/serverEntry';
import type { RoundTripLog } from '../shared/roundTripLog';
import type { ChatCalls } from './chatCalls';
import { bridgedLabel, type ChatExposure } from './chatExposure';
import { callableTools, isAppOnlyTool } from '../../core/connection/toolVisibility';
import { notificationText } from '../shared/notificationText';
import { errorMessage, HostError } from '../../core/util/errors';
import { callWithRoundTrips } from '../../core/mrtr/driver';
import { appsEnabled } from '../apps/appsSetting';
import type { ChatSkills, SkillOffer } from './chatSkills';

/**
 * The endpoint's module, loaded on first use: it carries the SDK's server side, which activation
 * never needs (`dist/mcp-roundtrip-bridge.js`, see scripts/build.mjs).
 */
function endpointModule(): typeof import('../../core/bridge/loopbackEndpoint') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../../core/bridge/loopbackEndpoint') as typeof import('../../core/bridge/loopbackEndpoint');
}

/** The provider id (`contributes.mcpServerDefinitionProviders`). */
export const BRIDGE_PROVIDER_ID = 'mcpRoundtrip.bridge';

/** The bridge: definitions for VS Code, the endpoint behind them. */
export class McpBridge implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private endpoint?: Promise<LoopbackEndpoint>;
  private started?: LoopbackEndpoint;
  /** What VS Code last read, and each server's tool-list version. */
  private readonly offered = new OfferedServers();
  /** One target per server entry (an entry is replaced when its definition changes). */
  private readonly targets = new WeakMap<ServerEntry, BridgeTarget>();
  private readonly subs: vscode.Disposable[];

  constructor(
    private readonly registry: ServerRegistry,
    private readonly exposure: ChatExposure,
    private readonly calls: ChatCalls,
    private readonly log: RoundTripLog,
    private readonly version: string,
    private readonly skills?: ChatSkills,
    private readonly ready: Promise<void> = Promise.resolve(),
  ) {
    this.subs = [this.changed, exposure.onDidChange(() => this.refresh())];
  }

  /** The bridged URL of `server`, once the endpoint runs. */
  urlOf(server: string): string | undefined {
    return this.started?.url(server);
  }

  /** The endpoint's port, once it runs (for tests and the log). */
  get port(): number | undefined {
    return this.started?.port;
  }

  /** The servers in chat and those still to be decided (`ChatExposure.offered`); connects none of them. */
  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    await this.ready;
    const offered = this.exposure.offered();
    this.offered.provided(offered.map((e) => e.name));
    if (offered.length === 0) return [];
    const endpoint = await this.start();
    return offered.map(
      (e) =>
        new vscode.McpHttpServerDefinition(bridgedLabel(e.name), vscode.Uri.parse(endpoint.url(e.name)), {}, this.offered.version(e.name)),
    );
  }

  /**
   * VS Code starts `def`: a server still to be decided is probed first (at most `ERA_WAIT_MS`, or until
   * `token` is cancelled).
   * @returns `def` with the endpoint's URL and a fresh bearer token, or `undefined` when the server is
   *   not in chat (VS Code then leaves it stopped)
   */
  async resolveMcpServerDefinition(
    def: vscode.McpHttpServerDefinition,
    token?: vscode.CancellationToken,
  ): Promise<vscode.McpHttpServerDefinition | undefined> {
    const named = (e: ServerEntry) => bridgedLabel(e.name) === def.label;
    const pending = this.exposure.pending().filter(named);
    if (pending.length) {
      const abort = new AbortController();
      const sub = token?.onCancellationRequested(() => abort.abort());
      await this.exposure.learnEras(pending, abort.signal);
      sub?.dispose();
    }
    const entry = this.exposure.exposed().find(named);
    if (!entry) {
      const known = this.registry.list().find(named);
      const why = known ? this.exposure.of(known).reason : 'it is no longer configured';
      this.log.info(`chat asked to start "${def.label}", which is not started: ${why} (mcpRoundtrip.chat.exposeServers)`);
      this.refresh();
      return undefined;
    }
    const endpoint = await this.start();
    def.uri = vscode.Uri.parse(endpoint.url(entry.name));
    def.headers = { ...def.headers, Authorization: `Bearer ${endpoint.mintToken()}` };
    this.log.info(`[${entry.name}] offered to VS Code's chat through the bridge at ${endpoint.url(entry.name)}`);
    return def;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    void this.endpoint?.then((e) => e.close()).catch(() => {});
  }

  /** Fire when the servers offered or their tool lists changed. */
  private refresh(): void {
    if (this.offered.changed(this.names())) this.changed.fire();
  }

  private names(): string[] {
    return this.exposure.offered().map((e) => e.name);
  }

  private start(): Promise<LoopbackEndpoint> {
    this.endpoint ??= endpointModule()
      .LoopbackEndpoint.start({
        version: this.version,
        target: (id) => this.target(id),
        onWarning: (m) => this.log.warn(`chat bridge: ${m}`),
      })
      .then(
        (e) => (this.started = e),
        (e) => {
          this.endpoint = undefined;
          throw e;
        },
      );
    return this.endpoint;
  }

  /** The bridged server behind path id `id` (a server's name), while it is offered. */
  private target(id: string): BridgeTarget | undefined {
    const entry = this.exposure.exposed().find((e) => e.name === id);
    if (!entry) return undefined;
    let target = this.targets.get(entry);
    if (!target) this.targets.set(entry, (target = this.newTarget(entry)));
    return target;
  }

  private newTarget(entry: ServerEntry): BridgeTarget {
    // The server's enabled skills, as of its last tools/list: `read_skill` and `read_skill_file` beside its tools.
    let skills: SkillOffer | undefined;
    // The names of the server's app-only tools, as of its last tools/list: never run for a model, even
    // when asked by name (VS Code keeps tool lists across windows, so a call may come before a listing).
    let appOnly: Set<unknown> | undefined;
    const listOwn = async () => {
      const all = (await (await this.registry.connection(entry)).list('tools')) as { name?: unknown }[];
      appOnly = new Set(all.filter(isAppOnlyTool).map((t) => t.name));
      return callableTools(all);
    };
    return {
      name: entry.name,
      instructions: () => entry.connection?.instructions,
      listTools: async () => {
        const own = await listOwn();
        skills = await this.skills?.offer([entry]);
        // A tool of the server's own by either name keeps it: a skill tool never shadows one.
        if (skills && own.some((t) => typeof t.name === 'string' && skills!.handles(t.name))) skills = undefined;
        const tools = [...own, ...(skills?.tools.map((t) => ({ ...t, description: `${t.description}\n\n${skills!.intro}` })) ?? [])];
        if (this.offered.listed(entry.name, tools, this.names())) this.changed.fire();
        return tools;
      },
      // VS Code's own chat reads the app a bridged tool names (`_meta.ui` passes through unchanged).
      readAppResource: async (uri, signal) => {
        if (!appsEnabled()) throw new HostError('usage', 'MCP Apps are off (mcpRoundtrip.apps.enabled)');
        const conn = await this.registry.connection(entry);
        this.log.info(`[${entry.name}] bridge: resources/read ${uri} (an app for VS Code's chat)`);
        return (await callWithRoundTrips(conn, 'resources/read', { uri }, { provider: conn.provider, signal })).result;
      },
      callTool: async (params, signal, progress) => {
        if (!appOnly) await listOwn();
        if (appOnly!.has(params.name)) {
          // l10n-exempt: read by the model, not shown to people.
          const text = `${String(params.name)} of ${entry.name} is called only by its MCP App (its _meta.ui.visibility is ["app"]), never by a model`;
          return { content: [{ type: 'text', text }], isError: true };
        }
        const offer = skills;
        if (!offer || typeof params.name !== 'string' || !offer.handles(params.name))
          return this.calls.callTool(entry, params, { signal, progress, from: 'bridge' });
        try {
          const r = await offer.run(params.name, params.arguments, signal);
          return { content: [{ type: 'text', text: r.forModel }] };
        } catch (e) {
          return { content: [{ type: 'text', text: notificationText(errorMessage(e), 600) }], isError: true };
        }
      },
    };
  }
}
