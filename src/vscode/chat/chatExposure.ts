/**
 * Which servers are in VS Code's chat (`mcpRoundtrip.chat.exposeServers`, decided by
 * `core/chat/exposure.ts`), and whether VS Code's own policy lets them in (`core/chat/policy.ts`).
 *
 * The default rule needs a server's era. What a connection learnt is remembered across windows (by
 * the server's definition). A server nobody knows yet is connected once to learn it only when chat
 * needs the answer (VS Code starts its bridged definition, or `@roundtrip` lists its tools): activation
 * and changes of the server list connect nothing. Never a server that would ask the person something
 * (an `${input:}` value): the probe asks nothing. What is remembered, and by which key, is
 * `rememberedEras.ts`.
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

/** How many servers are probed at once when chat asks for many (each probe starts a process or two). */
const PROBES_AT_ONCE = 4;

/** How long chat waits for the eras it needs before deciding without them (a server still unknown stays out), ms. */
export const ERA_WAIT_MS = 25_000;

/** The servers in chat and why, kept current as servers, settings and what connections learn change. */
export class ChatExposure implements ChatStatus, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a server enters or leaves chat, or VS Code's policy changes. */
  readonly onDidChange = this.changed.event;
  /** The probe of each server definition started in this window (its result is in `eras`). */
  private readonly probed = new Map<string, Promise<void>>();
  /** The server definitions whose probe ended in this window: one that taught nothing is not tried again. */
  private readonly tried = new Set<string>();
  private probesRunning = 0;
  private readonly probesWaiting: (() => void)[] = [];
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
    // A registry change only records what connections learnt: it probes nothing.
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
   * The servers the default rule cannot place yet: their era (or whether a 2026-07-28 server also
   * answers the 2025 handshake) is unknown, and a probe may learn it (not one needing an `${input:}`
   * value, not one probed in vain in this window). Empty under any other setting.
   */
  pending(): ServerEntry[] {
    if (this.setting() !== 'modernOnly') return [];
    return this.registry.list().filter((e) => this.probeable(e));
  }

  /**
   * What the bridge offers VS Code: the servers in chat, and those still pending (`pending`), whose
   * definitions are decided when VS Code starts them (`learnEras`), so that offering them connects
   * nothing. In the registry's order.
   */
  offered(): ServerEntry[] {
    const setting = this.setting();
    return this.registry
      .list()
      .filter((e) => exposureOf(setting, this.facts(e)).exposed || (setting === 'modernOnly' && this.probeable(e)));
  }

  /**
   * Learn what the default rule needs of `entries` (those of them still pending), when chat needs it:
   * each server's era and, for a 2026-07-28 server, whether it also answers the 2025 handshake
   * (`eraProbe.ts`), on a connection of its own that is closed again (the registry's connection is only
   * read, never opened or closed here: a call may start on it at any moment). Once per server
   * definition per window, at most {@link PROBES_AT_ONCE} at a time; what is learnt is remembered across
   * windows. A failed probe is logged and leaves the server out of chat.
   * @param signal stops the wait (the probes go on, and their results are kept)
   * @param timeoutMs the longest wait, ms: a server still unknown then stays out of chat for now
   * @returns once every probe asked for ended, or the wait was stopped or timed out; never throws
   */
  async learnEras(entries: readonly ServerEntry[], signal?: AbortSignal, timeoutMs = ERA_WAIT_MS): Promise<void> {
    const probes = entries.filter((e) => this.probeable(e)).map((e) => this.probeOnce(e));
    if (probes.length === 0 || signal?.aborted) return;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      Promise.all(probes),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
        onAbort = resolve;
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
  }

  /** Whether the default rule waits for a probe of `entry` that has not ended in this window. */
  private probeable(entry: ServerEntry): boolean {
    return !!this.of(entry).needsProbe && !this.tried.has(definitionKey(entry)) && !JSON.stringify(entry.def).includes('${input:');
  }

  /** The probe of `entry`, started once per window (shared by everyone waiting for it). */
  private probeOnce(entry: ServerEntry): Promise<void> {
    const key = definitionKey(entry);
    let probe = this.probed.get(key);
    if (!probe) this.probed.set(key, (probe = this.probe(entry)));
    return probe;
  }

  private async probe(entry: ServerEntry): Promise<void> {
    // A probe ending hands its place to the next one waiting.
    if (this.probesRunning < PROBES_AT_ONCE) this.probesRunning++;
    else await new Promise<void>((resolve) => this.probesWaiting.push(resolve));
    try {
      const spec = await this.registry.spec(entry);
      if (!this.facts(entry).era) this.eras.remember(entry, await probeEra(spec));
      this.learn();
      if (this.facts(entry).era === 'modern' && this.facts(entry).legacyHandshake === undefined)
        this.eras.remember(entry, { legacyHandshake: await answersLegacyHandshake(spec) });
    } catch (e) {
      this.log.info(`[${entry.name}] could not tell whether it speaks only 2026-07-28 (for chat): ${errorMessage(e)}`);
    } finally {
      this.tried.add(definitionKey(entry));
      const next = this.probesWaiting.shift();
      if (next) next();
      else this.probesRunning--;
    }
    this.changed.fire();
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
