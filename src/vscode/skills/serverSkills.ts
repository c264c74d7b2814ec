/**
 * Skills (SEP-2640) in VS Code: each server's skills under it in the Servers view (name, description,
 * files and bytes, dynamic or not), **Inspect Skill** (its `SKILL.md`, read-only, after a verified
 * read) and **Enable Skill** / **Disable Skill**; a skill is loaded for a model only after the modal
 * approval (`approvalText`), through the core's one loader.
 */
import * as vscode from 'vscode';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { SkillSummary } from '../../core/skills/skillEntry';
import { SkillLoader, type SkillApproval, type SkillApprovalRequest } from '../../core/skills/skillLoader';
import { SkillRegistry } from '../../core/skills/skillRegistry';
import { approvalText, LOAD_SKILL, LOAD_SKILL_ALLOW_TOOLS, skillLine, skillTooltip } from '../../core/skills/skillText';
import { errorMessage } from '../../core/util/errors';
import type { ServerEntry } from '../servers/serverEntry';

/** The scheme of the read-only documents Inspect Skill opens. */
export const SKILL_DOCUMENT_SCHEME = 'mcp-roundtrip-skill';

/** The Servers view's node of one skill. */
export interface SkillNode {
  kind: 'skill';
  entry: ServerEntry;
  skill: SkillSummary;
}

/** Where the disabled skills are kept (global state): `server\nuri` keys. */
const DISABLED_KEY = 'mcpRoundtrip.skills.disabled';

/** The extension ID of the Skills extension a server declares in its capabilities. */
const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/**
 * The skills of the host's servers in VS Code: their listing for the tree, enablement, Inspect, and
 * the loader whose approval is a modal.
 */
export class ServerSkills implements vscode.Disposable {
  readonly registry = new SkillRegistry(() => this.changed.fire());
  readonly loader: SkillLoader;
  private readonly documents = new Map<string, string>();
  private readonly docChanged = new vscode.EventEmitter<vscode.Uri>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a skill is enabled or disabled. */
  readonly onDidChange = this.changed.event;
  private readonly provider: vscode.Disposable;

  constructor(private readonly state: vscode.Memento) {
    this.loader = new SkillLoader(this.registry, askApproval);
    const documents = this.documents;
    this.provider = vscode.workspace.registerTextDocumentContentProvider(SKILL_DOCUMENT_SCHEME, {
      onDidChange: this.docChanged.event,
      provideTextDocumentContent: (uri) => documents.get(uri.toString()) ?? '',
    });
  }

  /** The skill nodes of a connected server; none when it does not declare the Skills extension. */
  async nodes(conn: ServerConnection, entry: ServerEntry): Promise<SkillNode[]> {
    return (await this.listed(conn, entry)).nodes;
  }

  /**
   * A connected server's skill nodes, and the entries the SDK refused as invalid (`declined`: the
   * URI when it had one, and why); both empty when the server does not declare the Skills extension.
   */
  async listed(conn: ServerConnection, entry: ServerEntry): Promise<{ nodes: SkillNode[]; declined: { uri?: string; reason: string }[] }> {
    // Whether it serves skills is known once connected (the Servers view has connected already; chat may not have).
    await conn.ensureConnected();
    const extensions = (conn.serverCapabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    if (!extensions?.[SKILLS_EXTENSION]) return { nodes: [], declined: [] };
    const listing = await this.registry.list(conn);
    return { nodes: listing.skills.map((skill) => ({ kind: 'skill' as const, entry, skill })), declined: listing.invalid };
  }

  /** The tree item of a skill node. */
  treeItem(node: SkillNode): vscode.TreeItem {
    const enabled = this.isEnabled(node.skill);
    const t = new vscode.TreeItem(node.skill.name);
    t.description = skillLine(node.skill, enabled);
    t.tooltip = skillTooltip(node.skill);
    t.iconPath = new vscode.ThemeIcon(node.skill.refused ? 'warning' : 'book');
    t.contextValue = `mcpRoundtrip.skill.${enabled ? 'enabled' : 'disabled'}`;
    return t;
  }

  /** A skill is enabled (offered to a model) unless the person disabled it. */
  isEnabled(skill: Pick<SkillSummary, 'server' | 'uri'>): boolean {
    return !this.disabled().includes(`${skill.server}\n${skill.uri}`);
  }

  /** Enable or disable a skill (kept across sessions). */
  async setEnabled(skill: Pick<SkillSummary, 'server' | 'uri'>, enabled: boolean): Promise<void> {
    const k = `${skill.server}\n${skill.uri}`;
    const rest = this.disabled().filter((d) => d !== k);
    await this.state.update(DISABLED_KEY, enabled ? rest : [...rest, k]);
    this.changed.fire();
  }

  /**
   * Inspect Skill: read its `SKILL.md` verified and open it read-only. A refused skill shows why
   * (an error message naming the file and the reason); nothing of it is shown.
   */
  async inspect(conn: ServerConnection, skill: SkillSummary): Promise<vscode.TextDocument | undefined> {
    try {
      const loaded = await this.loader.inspect(conn, skill.uri);
      const uri = vscode.Uri.from({
        scheme: SKILL_DOCUMENT_SCHEME,
        path: `/${encodeURIComponent(conn.name)}/${encodeURIComponent(skill.name)}/SKILL.md`,
      });
      this.documents.set(uri.toString(), loaded.text);
      this.docChanged.fire(uri);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: true });
      return doc;
    } catch (e) {
      void vscode.window.showErrorMessage(`MCP Roundtrip: ${errorMessage(e)}`);
      return undefined;
    }
  }

  private disabled(): string[] {
    const v = this.state.get<unknown>(DISABLED_KEY);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  dispose(): void {
    this.provider.dispose();
    this.docChanged.dispose();
    this.changed.dispose();
  }
}

/** The approval modal: the skill, its server, its files and the tools its frontmatter asks for. */
async function askApproval(request: SkillApprovalRequest): Promise<SkillApproval> {
  const { message, detail, buttons } = approvalText(request);
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  return { load: answer === LOAD_SKILL || answer === LOAD_SKILL_ALLOW_TOOLS, allowTools: answer === LOAD_SKILL_ALLOW_TOOLS };
}
