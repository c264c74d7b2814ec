/**
 * Where the lasting chat rules (`core/chat/chatRules.ts`) are kept: a workspace's servers' in the
 * workspace's storage, the person's own servers' (user settings, the profile's `mcp.json`, the demo)
 * in the extension's global storage, so a rule for a user server holds in every workspace. In an
 * untrusted workspace there are none: none is offered, none applies, none is stored (a cloned
 * repository must not inherit or set what runs without asking). **Reset Chat Permissions** forgets
 * them (one server's, or all).
 */
import * as vscode from 'vscode';
import { allowingRule, readChatRules, withChatRule, withoutChatRules, type ChatRule, type ChatRules } from '../../core/chat/chatRules';
import type { ServerEntry } from '../servers/serverEntry';

/** The storage key of the rules (in both mementos). */
export const CHAT_RULES_KEY = 'mcpRoundtrip.chatRules';

/** What the permissions need of a server: its name and where it is defined. */
export type RuleServer = Pick<ServerEntry, 'name'> & { def: { source: { kind: string } } };

/** Whether `server` is the person's own (defined outside the workspace): its rules are kept user-level. */
export function isUserLevel(server: RuleServer): boolean {
  return ['demo', 'settings', 'userFile'].includes(server.def.source.kind);
}

/** The lasting chat rules of this workspace and of the person's own servers. */
export class ChatPermissions implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after a rule is added or reset (the Servers view lists them). */
  readonly onDidChange = this.changed.event;

  /**
   * @param workspace the workspace's storage (`ExtensionContext.workspaceState`)
   * @param user the extension's global storage (`ExtensionContext.globalState`)
   */
  constructor(
    private readonly workspace: vscode.Memento,
    private readonly user: vscode.Memento,
  ) {}

  /** Whether lasting rules may be offered and applied: only in a trusted workspace. */
  get available(): boolean {
    return vscode.workspace.isTrusted;
  }

  /** The rule that lets `tool` of `server` run without asking, if one does (never in an untrusted workspace). */
  allowing(server: RuleServer, tool: string, readOnly: boolean): ChatRule | undefined {
    if (!this.available) return undefined;
    return allowingRule(this.rules(server), server.name, tool, readOnly);
  }

  /**
   * Keep `rule` for `server`.
   * @throws Error in an untrusted workspace, or when the rule is out of bounds (`withChatRule`)
   */
  async add(server: RuleServer, rule: ChatRule): Promise<void> {
    if (!this.available) throw new Error('chat rules are not kept in an untrusted workspace');
    const memento = this.memento(server);
    await memento.update(CHAT_RULES_KEY, withChatRule(readChatRules(memento.get(CHAT_RULES_KEY)), server.name, rule));
    this.changed.fire();
  }

  /** Forget `server`'s rules, or every rule (this workspace's and the person's own servers') when none is given. */
  async reset(server?: string): Promise<void> {
    for (const memento of [this.workspace, this.user]) {
      const rules = readChatRules(memento.get(CHAT_RULES_KEY));
      const next = withoutChatRules(rules, server);
      if (Object.keys(next).length !== Object.keys(rules).length) await memento.update(CHAT_RULES_KEY, next);
    }
    this.changed.fire();
  }

  /** One line naming what `server` may run in chat without asking (`undefined`: nothing, or an untrusted workspace). */
  describe(server: RuleServer): string | undefined {
    const r = this.available ? this.rules(server)[server.name] : undefined;
    const allowed = r ? [...(r.readOnlyTools ? [vscode.l10n.t('read-only tools')] : []), ...r.tools] : [];
    return allowed.length ? vscode.l10n.t('always allowed in chat: {0}', allowed.join(', ')) : undefined;
  }

  /** How many rules `server` has (tools by name, and read-only tools as one). */
  count(server: RuleServer): number {
    if (!this.available) return 0;
    const r = this.rules(server)[server.name];
    return r ? r.tools.length + (r.readOnlyTools ? 1 : 0) : 0;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private memento(server: RuleServer): vscode.Memento {
    return isUserLevel(server) ? this.user : this.workspace;
  }

  private rules(server: RuleServer): ChatRules {
    return readChatRules(this.memento(server).get(CHAT_RULES_KEY));
  }
}
