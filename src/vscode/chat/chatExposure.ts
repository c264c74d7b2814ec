/**
 * Which servers are in VS Code's chat (`mcpRoundtrip.chat.exposeServers`, decided by
 * `core/chat/exposure.ts`), and whether VS Code's own policy lets them in (`core/chat/policy.ts`).
 *
 * The default rule needs a server's era. What a connection learnt is remembered across windows (by
 * the server's definition), and a server never used is connected once in the background to learn it,
 * unless that would ask the person something (an `${input:}` value), which a background step never does.
 * What is remembered, and by which key, is `rememberedEras.ts`.
 */
import * as vscode from 'vscode';
import { exposureOf, parseExposeSetting, type ExposeSetting, type Exposure, type ServerFacts } from '../../core/chat/exposure';
import { answersLegacyHandshake, probeEra } from '../../core/chat/eraProbe';
import { policyBlock, type BridgedIdentity } from '../../core/chat/policy';
import { errorMessage } from '../../core/util/errors';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { ServerEntry } from '../servers/serverEntry';
import type { ChatStatus } from '../servers/serversView';
import type { RoundTripLog } from '../shared/roundTripLog';
import { definitionKey, RememberedEras, type Remembered } from './rememberedEras';
import { userSetting } from '../shared/userSettings';

/** The label VS Code shows for a bridged server (its MCP tools are named `mcp_<label slug>_<tool>`). */
export function bridgedLabel(server: string): string {
  return `${server} (via MCP Roundtrip)`;
}

/** The servers in chat and why, kept current as servers, settings and what connections learn change. */
export class ChatExposure implements ChatStatus, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a server enters or leaves chat, or VS Code's policy changes. */
  readonly onDidChange = this.changed.event;
  private readonly probed = new Set<string>();
  /** What connections learnt of each server's era, across windows. */
  private readonly eras: RememberedEras;
  private readonly subs: vscode.Disposable[];
  private lastProblem?: string;

  /**
   * @param urlOf the bridged URL of a server, when the endpoint runs (for allow-list matching)
   */
  constructor(
    private readonly registry: ServerRegistry,
    memento: vscode.Memento,
    private readonly log: RoundTripLog,
    private readonly urlOf: (server: string) => string | undefined,
  ) {
    this.eras = new RememberedEras(memento);
    this.subs = [
      this.changed,
      registry.onDidChange(() => this.learn()),
      vscode.workspace.onDidChangeConfiguration(
        (e) => (e.affectsConfiguration('mcpRoundtrip.chat') || e.affectsConfiguration('chat.mcp')) && this.changed.fire(),
      ),
    ];
  }

  /** The setting (user settings only: a workspace never offers the person's servers to chat), its problem logged once. */
  setting(): ExposeSetting {
    const { setting, problem } = parseExposeSetting(userSetting('chat.exposeServers'));
    if (problem && problem !== this.lastProblem) this.log.warn(problem);
    this.lastProblem = problem;
    return setting;
  }

  /** Whether `entry` is in chat, and why. */
  of(entry: ServerEntry): Exposure {
    return exposureOf(this.setting(), this.facts(entry));
  }

  /** The servers in chat (policy aside). */
  exposed(): ServerEntry[] {
    const setting = this.setting();
    return this.registry.list().filter((e) => exposureOf(setting, this.facts(e)).exposed);
  }

  /** Why VS Code's own policy keeps `server` out of chat, or `undefined`. */
  policy(server: string): string | undefined {
    const c = vscode.workspace.getConfiguration('chat.mcp');
    const identity: BridgedIdentity = {
      name: bridgedLabel(server),
      url: this.urlOf(server) ?? `http://127.0.0.1:0/mcp/${encodeURIComponent(server)}`,
    };
    return policyBlock(
      { access: c.get('access'), allowedServers: c.get('allowedServers'), deniedServers: c.get('deniedServers') },
      identity,
    );
  }

  /** True when `entry` is offered to chat and VS Code's policy lets it in. */
  inChat(entry: ServerEntry): boolean {
    return this.of(entry).exposed && !this.policy(entry.name);
  }

  /** Why VS Code's policy keeps every offered server out of chat (e.g. `chat.mcp.access` is "none"), if it does. */
  blocked(): string | undefined {
    const reasons = this.exposed().map((e) => this.policy(e.name));
    return reasons.length && reasons.every(Boolean) ? reasons[0] : undefined;
  }

  /** The line the servers view shows about chat for `entry`. */
  describe(entry: ServerEntry): string {
    const x = this.of(entry);
    if (!x.exposed) return x.reason;
    const blocked = this.policy(entry.name);
    return blocked ? `offered to chat, but ${blocked}` : x.reason;
  }

  /**
   * Learn, once per window, what the default rule needs of each server nobody knows yet: its era
   * and for a 2026-07-28 server whether it also answers the 2025 handshake (`eraProbe.ts`), each on a
   * connection of its own that is closed again: the registry's connection is only read, never opened or
   * closed here (a call may start on it at any moment). Never for a server that would ask for an
   * `${input:}` value. Runs in the background; errors are logged.
   */
  async probe(): Promise<void> {
    if (this.setting() !== 'modernOnly') return;
    for (const entry of this.registry.list()) {
      const key = definitionKey(entry);
      if (this.probed.has(key) || !this.of(entry).needsProbe || JSON.stringify(entry.def).includes('${input:')) continue;
      this.probed.add(key);
      try {
        const spec = await this.registry.spec(entry);
        if (!this.facts(entry).era) this.eras.remember(entry, await probeEra(spec));
        this.learn();
        if (this.facts(entry).era === 'modern') this.eras.remember(entry, { legacyHandshake: await answersLegacyHandshake(spec) });
      } catch (e) {
        this.log.info(`[${entry.name}] could not tell whether it speaks only 2026-07-28 (for chat): ${errorMessage(e)}`);
      }
      this.changed.fire();
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }

  private facts(entry: ServerEntry): ServerFacts {
    const c = entry.connection;
    const remembered = this.eras.of(entry);
    const live: Remembered = c?.era ? { era: c.era, supportedVersions: c.supportedVersions } : {};
    return { name: entry.name, configuredEra: entry.def.era ?? 'auto', heldBack: entry.heldBack, ...remembered, ...live };
  }

  /** Remember what the connections learnt; tell listeners (a registry change may change who is in chat). */
  private learn(): void {
    for (const e of this.registry.list()) {
      const c = e.connection;
      if (c?.era) this.eras.remember(e, { era: c.era, supportedVersions: c.supportedVersions });
    }
    this.changed.fire();
  }
}
