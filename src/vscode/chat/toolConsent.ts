/**
 * `@roundtrip` asks before it runs a tool the model called, as VS Code's own agent does for MCP
 * tools: a tool's description or an earlier result can tell the model to call a tool the person never
 * meant to run (on any server in chat). A modal dialog names the tool, its server and the arguments;
 * **Allow in this Session** runs that tool of that server without asking again until the window closes;
 * in a trusted workspace, **Always Allow This Tool** and, for a tool the server marks read-only
 * (`readOnlyHint`), **Always Allow Read-Only Tools of This Server** keep a lasting rule
 * (`chatPermissions.ts`). A call that needs input still asks for it in the round panel, whatever was
 * allowed here.
 */
import * as vscode from 'vscode';
import type { ChatRule } from '../../core/chat/chatRules';
import { errorMessage } from '../../core/util/errors';
import { oneLine } from '../../core/util/shownText';
import { shownText } from '../../core/util/shownText';
import type { ChatPermissions, RuleServer } from './chatPermissions';

/** The answers of the consent dialog, as its buttons read. */
export const RUN = vscode.l10n.t('Run');
export const ALLOW_IN_SESSION = vscode.l10n.t('Allow in this Session');
export const ALWAYS_ALLOW_TOOL = vscode.l10n.t('Always Allow This Tool');
export const ALWAYS_ALLOW_READ_ONLY = vscode.l10n.t('Always Allow Read-Only Tools of This Server');

/** Characters of the arguments shown in the dialog; the rest is counted. */
const SHOWN_ARGUMENT_CHARS = 1500;

/** The tools the person allowed for this window, by server and tool, and the lasting rules. */
export class ChatToolConsent {
  private readonly allowed = new Set<string>();

  /**
   * @param permissions the lasting rules (none: only this session's)
   * @param warn told when a rule could not be kept (the call still runs: the person allowed it)
   */
  constructor(
    private readonly permissions?: ChatPermissions,
    private readonly warn: (text: string) => void = () => {},
  ) {}

  /**
   * Whether the person lets the model's call run: at once when the tool was allowed for this session
   * or by a lasting rule, else after the dialog (dismissed: not run).
   * @param args the arguments the model gave (shown as JSON, cut at {@link SHOWN_ARGUMENT_CHARS})
   * @param readOnly the server marks the tool `readOnlyHint: true`
   */
  async mayRun(server: RuleServer, tool: string, args: Record<string, unknown>, readOnly = false): Promise<boolean> {
    const key = `${server.name}\u0000${tool}`;
    if (this.allowed.has(key) || this.permissions?.allowing(server, tool, readOnly)) return true;
    const json = JSON.stringify(args, null, 2);
    const shown = shownText(json, SHOWN_ARGUMENT_CHARS);
    const name = oneLine(server.name, 100);
    const lasting = this.permissions?.available ? [ALWAYS_ALLOW_TOOL, ...(readOnly ? [ALWAYS_ALLOW_READ_ONLY] : [])] : [];
    const readOnlyNote = readOnly
      ? `\n\n${vscode.l10n.t("The server marks this tool read-only (readOnlyHint). That is the server's word, not a guarantee.")}`
      : '';
    const detail = `${vscode.l10n.t("The chat's model asks @roundtrip to call the tool {0} of the MCP server {1} with these arguments:", oneLine(tool, 100), name)}\n\n${shown}${readOnlyNote}`;
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Run {0} ({1})?', oneLine(tool, 100), name),
      { modal: true, detail },
      RUN,
      ALLOW_IN_SESSION,
      ...lasting,
    );
    const rule: ChatRule | undefined =
      answer === ALWAYS_ALLOW_TOOL ? { tool } : answer === ALWAYS_ALLOW_READ_ONLY ? { readOnlyTools: true } : undefined;
    if (rule && this.permissions) {
      await this.permissions
        .add(server, rule)
        .catch((e: unknown) => this.warn(`could not keep the chat rule for ${name}: ${errorMessage(e)}`));
    }
    if (answer === ALLOW_IN_SESSION || rule) this.allowed.add(key);
    return answer === RUN || answer === ALLOW_IN_SESSION || !!rule;
  }

  /** Forget this session's allowances of `server` (all servers when none is given): Reset Chat Permissions. */
  resetSession(server?: string): void {
    if (server === undefined) return this.allowed.clear();
    for (const key of [...this.allowed]) if (key.startsWith(`${server}\u0000`)) this.allowed.delete(key);
  }
}
