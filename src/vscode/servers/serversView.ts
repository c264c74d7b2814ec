/**
 * The MCP Roundtrip view in the activity bar: servers (state, era, protocol version, last error),
 * and under each its tools, prompts, resources and resource templates, then its saved calls, with inline run and restart actions.
 * Expanding a server connects to it (that is the user asking); nothing connects before.
 */
import * as vscode from 'vscode';
import { taskMark } from '../../core/tasks/task';
import type { SavedCall } from '../../core/history/savedCalls';
import { errorMessage } from '../../core/util/errors';
import { serverDetail } from './serverDetail';
import { grantText, signedInText } from '../../core/oauth/signedInText';
import type { ServerRegistry } from './serverRegistry';
import type { ServerEntry } from './serverEntry';
import { callableTools } from '../../core/connection/toolVisibility';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { ServerSkills, SkillNode } from '../skills/serverSkills';
import { declinedLine } from '../../core/skills/skillText';

/** A node of the servers tree: a server, one of its tools, prompts, resources or resource templates, or a message line. */
export type ServerTreeNode =
  | { kind: 'server'; entry: ServerEntry }
  | { kind: 'tool' | 'prompt' | 'resource' | 'template'; entry: ServerEntry; item: Record<string, unknown> }
  | { kind: 'message'; text: string; error?: boolean }
  | { kind: 'savedCall'; entry: ServerEntry; call: SavedCall }
  | SkillNode;

const ICONS = { tool: 'tools', prompt: 'comment-discussion', resource: 'file', template: 'file-symlink-file' } as const;

/** The saved calls listed under each server (`history/savedCallsFiles.ts`). */
export interface SavedCallSource {
  forServer(server: string): SavedCall[];
  /** One sentence per saved-calls file that could not be read or parsed (shown at the top of the view). */
  fileProblems?(): readonly string[];
  readonly onDidChange: vscode.Event<void>;
}

/** What the view shows about VS Code's chat: each server's place there, and what blocks the bridge. */
export interface ChatStatus {
  /** One line: whether the server is in chat, and why (not). */
  describe(entry: ServerEntry): string;
  /** True when the server is offered to chat and nothing blocks it. */
  inChat(entry: ServerEntry): boolean;
  /** Why VS Code's policy keeps every bridged server out of chat, if it does. */
  blocked(): string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/** Which servers have a round waiting for the person (`roundPanel/waitingRounds.ts`): the view marks them. */
export interface WaitingStatus {
  waits(server: string): boolean;
  readonly onDidChange: vscode.Event<void>;
}

/** The lasting chat rules of each server (`chat/chatPermissions.ts`): the view lists them. */
export interface ChatRulesStatus {
  /** One line naming what the server may run in chat without asking, if anything. */
  describe(entry: ServerEntry): string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/** The tree of the Servers view: servers, and under each its tools, prompts and resources. */
export class ServersView implements vscode.TreeDataProvider<ServerTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ServerTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subs: vscode.Disposable[];
  /** Each server's line as last drawn ({@link itemSignature}), by server name. */
  private readonly drawn = new Map<string, string>();
  /** The tree item id of each node handed out by {@link getChildren} ({@link withIds}). */
  private readonly ids = new WeakMap<ServerTreeNode, string>();
  /** The server nodes of the latest listing, by name (a redraw names the node VS Code holds now). */
  private readonly servers = new Map<string, ServerTreeNode & { kind: 'server' }>();

  constructor(
    private readonly registry: ServerRegistry,
    private readonly savedCalls?: SavedCallSource,
    private readonly chat?: ChatStatus,
    private readonly waiting?: WaitingStatus,
    private readonly chatRules?: ChatRulesStatus,
    private readonly skills?: ServerSkills,
  ) {
    const refresh = () => this.changed.fire(undefined);
    this.subs = [
      registry.onDidChange(refresh),
      ...(waiting ? [waiting.onDidChange(refresh)] : []),
      ...(chatRules ? [chatRules.onDidChange(refresh)] : []),
      ...(savedCalls ? [savedCalls.onDidChange(refresh)] : []),
      ...(chat ? [chat.onDidChange(refresh)] : []),
      ...(skills ? [skills.onDidChange(refresh)] : []),
    ];
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Draw `node`'s line again if it would read otherwise than when last drawn. */
  private redrawIfChanged(node: ServerTreeNode & { kind: 'server' }): void {
    if (this.drawn.get(node.entry.name) !== itemSignature(this.serverItem(node.entry)))
      this.changed.fire(this.servers.get(node.entry.name) ?? node);
  }

  /**
   * Give each of `nodes` (the children of the node whose id is `parent`) a tree item id that stays the
   * same across refreshes: VS Code then keeps a row's handle, so a click on a row (or its inline
   * action) drawn before a refresh still reaches the command with its node. Without ids VS Code makes
   * handles from labels and positions, and a refresh while the old rows are still registered gave the
   * same server another handle: an expanded row's children were asked of a handle gone ("No tree item
   * with id"), and a command ran with no node at all.
   */
  private withIds<T extends ServerTreeNode>(parent: string, nodes: T[]): T[] {
    const seen = new Map<string, number>();
    for (const node of nodes) {
      const base = `${parent}/${nodeKey(node)}`;
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      // Two nodes alike (a server listing the same tool twice) still get ids of their own.
      this.ids.set(node, n ? `${base}#${n}` : base);
    }
    return nodes;
  }

  /** A server's line: its name, state, marks and tooltip. */
  private serverItem(e: ServerEntry): vscode.TreeItem {
    const t = new vscode.TreeItem(e.name, e.heldBack ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
    const c = e.connection;
    const waits = !!this.waiting?.waits(e.name);
    const rules = this.chatRules?.describe(e);
    const grant = e.def.url ? grantText(e.def.oauth) : undefined;
    t.description = `${waits ? `${vscode.l10n.t('waits for you')} · ` : ''}${serverDetail(e)}${grant ? ` · ${grant.split(':')[0]}` : ''}${this.chat?.inChat(e) ? ` · ${vscode.l10n.t('in chat')}` : ''}${rules ? ` · ${rules}` : ''}`;
    t.tooltip = new vscode.MarkdownString();
    t.tooltip.appendText(`${e.name}\n${e.def.source.location}\n`);
    if (c?.serverInfo) t.tooltip.appendText(`${vscode.l10n.t('server: {0} {1}', c.serverInfo.name, c.serverInfo.version)}\n`);
    if (c?.era) t.tooltip.appendText(`${vscode.l10n.t('era: {0}, protocol {1}', c.era, c.protocolVersion ?? '?')}\n`);
    if (grant) t.tooltip.appendText(`${grant}\n`);
    if (e.signIn)
      t.tooltip.appendText(
        `${signedInText(e.signIn)}${e.signIn.expiresAt ? vscode.l10n.t(', token valid until {0}', new Date(e.signIn.expiresAt).toLocaleString()) : ''}\n`,
      );
    if (e.heldBack) t.tooltip.appendText(e.heldBack);
    if (c?.status.message ?? e.error) t.tooltip.appendText(`${vscode.l10n.t('last error: {0}', c?.status.message ?? e.error ?? '')}\n`);
    if (this.chat) t.tooltip.appendText(vscode.l10n.t('chat: {0}', this.chat.describe(e)));
    if (rules) t.tooltip.appendText(`\n${rules} (${vscode.l10n.t('MCP Roundtrip: Reset Chat Permissions forgets them')})`);
    if (waits)
      t.tooltip.appendText(`\n${vscode.l10n.t('A round waits for your answer: MCP Roundtrip: Show Waiting Round brings it forward.')}`);
    t.iconPath = new vscode.ThemeIcon(
      waits
        ? 'bell-dot'
        : e.heldBack
          ? 'shield'
          : e.error || c?.state === 'error'
            ? 'error'
            : c?.state === 'connected'
              ? 'vm-running'
              : c?.state === 'closed'
                ? 'debug-disconnect'
                : 'server',
    );
    t.contextValue = `mcpRoundtrip.server${e.heldBack ? '.heldBack' : ''}`;
    return t;
  }

  getTreeItem(node: ServerTreeNode): vscode.TreeItem {
    const t = this.itemOf(node);
    const id = this.ids.get(node);
    if (id) t.id = id;
    return t;
  }

  private itemOf(node: ServerTreeNode): vscode.TreeItem {
    if (node.kind === 'message') {
      const t = new vscode.TreeItem(node.text);
      t.iconPath = new vscode.ThemeIcon(node.error ? 'error' : 'info');
      t.tooltip = node.text;
      return t;
    }
    if (node.kind === 'savedCall') {
      const t = new vscode.TreeItem(node.call.name);
      const file = vscode.workspace.asRelativePath(node.call.location);
      t.description = vscode.l10n.t('saved: {0} · {1}', node.call.target, file);
      t.tooltip = `${vscode.l10n.t('from {0}', node.call.location)}\n${node.call.method} ${node.call.target}${node.call.answers ? `\n${vscode.l10n.t('pre-fills the forms {0}', Object.keys(node.call.answers).join(', '))}` : ''}`;
      t.iconPath = new vscode.ThemeIcon('bookmark');
      t.contextValue = 'mcpRoundtrip.savedCall';
      t.command = { command: 'mcpRoundtrip.runSavedCall', title: vscode.l10n.t('Run Saved Call'), arguments: [node.call] };
      return t;
    }
    if (node.kind === 'skill') return this.skills!.treeItem(node);
    if (node.kind === 'server') {
      const t = this.serverItem(node.entry);
      this.drawn.set(node.entry.name, itemSignature(t));
      return t;
    }
    const it = node.item;
    const label = String(it.title ?? it.name ?? it.uri ?? it.uriTemplate ?? '?');
    const t = new vscode.TreeItem(label);
    t.description =
      it.title && it.name
        ? String(it.name)
        : node.kind === 'resource'
          ? String(it.uri ?? '')
          : node.kind === 'template'
            ? String(it.uriTemplate ?? '')
            : undefined;
    t.tooltip = typeof it.description === 'string' ? it.description : undefined;
    // A tool that needs or accepts tasks says so (`[task: required]`), in the description and the tooltip.
    const mark = node.kind === 'tool' ? taskMark(it) : '';
    if (mark) {
      t.description = t.description ? `${String(t.description)} ${mark}` : mark;
      t.tooltip = t.tooltip ? `${t.tooltip}\n${mark}` : mark;
    }
    t.iconPath = new vscode.ThemeIcon(ICONS[node.kind]);
    t.contextValue = `mcpRoundtrip.${node.kind}`;
    t.command = { command: 'mcpRoundtrip.view.run', title: vscode.l10n.t('Run'), arguments: [node] };
    return t;
  }

  async getChildren(node?: ServerTreeNode): Promise<ServerTreeNode[]> {
    if (!node) {
      const servers = this.registry.list().map((entry) => ({ kind: 'server' as const, entry }));
      this.servers.clear();
      for (const s of servers) this.servers.set(s.entry.name, s);
      const blocked = this.chat?.blocked();
      // A configuration file that could not be read is said here, never a silent absence (its servers or calls are missing).
      const problems: ServerTreeNode[] = [...this.registry.problems, ...(this.savedCalls?.fileProblems?.() ?? [])].map((p) => ({
        kind: 'message',
        text: vscode.l10n.t('Configuration problem: {0}', p),
        error: true,
      }));
      return this.withIds(ROOT_ID, [
        ...(blocked ? [{ kind: 'message' as const, text: vscode.l10n.t("Not in VS Code's chat: {0}", blocked), error: true }] : []),
        ...problems,
        ...servers,
      ]);
    }
    if (node.kind !== 'server') return [];
    return this.withIds(this.ids.get(node) ?? `${ROOT_ID}/${nodeKey(node)}`, await this.serverChildren(node));
  }

  /** A server's tools, prompts, resources, templates and skills, then its saved calls (or why none). */
  private async serverChildren(node: ServerTreeNode & { kind: 'server' }): Promise<ServerTreeNode[]> {
    const e = node.entry;
    if (e.heldBack) return [{ kind: 'message', text: e.heldBack }];
    const saved: ServerTreeNode[] = (this.savedCalls?.forServer(e.name) ?? []).map((call) => ({ kind: 'savedCall', entry: e, call }));
    try {
      const conn = await this.registry.connection(e);
      const caps = () => conn.serverCapabilities ?? {};
      const out: ServerTreeNode[] = [];
      const tools = callableTools((await conn.list('tools')) as Record<string, unknown>[]);
      out.push(...tools.map((item) => ({ kind: 'tool' as const, entry: e, item })));
      if (caps().prompts)
        out.push(
          ...((await conn.list('prompts')) as Record<string, unknown>[]).map((item) => ({ kind: 'prompt' as const, entry: e, item })),
        );
      if (caps().resources)
        out.push(
          ...((await conn.list('resources')) as Record<string, unknown>[]).map((item) => ({ kind: 'resource' as const, entry: e, item })),
          ...(await templatesOf(conn)).map((item) => ({ kind: 'template' as const, entry: e, item })),
        );
      if (this.skills) out.push(...(await skillsOf(this.skills, conn, e)));
      // The connection's state (era, version) is known now: the server line is drawn again when it
      // reads otherwise (always firing would have the view list the children again, and again).
      setImmediate(() => this.redrawIfChanged(node));
      return out.length ? [...out, ...saved] : [{ kind: 'message', text: vscode.l10n.t('no tools, prompts or resources') }, ...saved];
    } catch (err) {
      setImmediate(() => this.redrawIfChanged(node));
      return [{ kind: 'message', text: errorMessage(err), error: true }, ...saved];
    }
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}

/**
 * A server's skills, then one warning line for each entry declined as invalid (never loaded); a failed
 * listing is one message line (its tools and resources are still shown).
 */
async function skillsOf(skills: ServerSkills, conn: ServerConnection, entry: ServerEntry): Promise<ServerTreeNode[]> {
  try {
    const { nodes, declined } = await skills.listed(conn, entry);
    return [...nodes, ...declined.map((d): ServerTreeNode => ({ kind: 'message', text: declinedLine(d), error: true }))];
  } catch (err) {
    return [{ kind: 'message', text: vscode.l10n.t('skills: {0}', errorMessage(err)), error: true }];
  }
}

/** The id of the tree's root, the prefix of every item id. */
const ROOT_ID = 'mcpRoundtrip.servers';

/** What tells a node from its siblings: its kind and its name (or URI, or text). */
function nodeKey(node: ServerTreeNode): string {
  switch (node.kind) {
    case 'server':
      return `server:${node.entry.name}`;
    case 'message':
      return `message:${node.text}`;
    case 'savedCall':
      return `savedCall:${node.call.name}`;
    case 'skill':
      return `skill:${node.skill.uri}`;
    default:
      return `${node.kind}:${String(node.item.name ?? node.item.uri ?? node.item.uriTemplate ?? '')}`;
  }
}

/** A server's resource templates; none when listing them fails (the resources are still shown). */
async function templatesOf(conn: ServerConnection): Promise<Record<string, unknown>[]> {
  try {
    return ((await conn.list('resourceTemplates')) as Record<string, unknown>[]).filter((t) => typeof t.uriTemplate === 'string');
  } catch {
    return [];
  }
}

/** What a tree item shows (label, description, tooltip, icon), to tell whether a redraw changes anything. */
function itemSignature(t: vscode.TreeItem): string {
  const tip = t.tooltip instanceof vscode.MarkdownString ? t.tooltip.value : t.tooltip;
  const icon = t.iconPath instanceof vscode.ThemeIcon ? t.iconPath.id : '';
  return JSON.stringify([t.label, t.description, tip, icon]);
}
