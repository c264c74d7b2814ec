/**
 * The Servers view's skill commands: **Inspect Skill**, **Enable Skill** and **Disable Skill**
 * (`mcpRoundtrip.skill.inspect`, `.enable`, `.disable`), on a skill node. Inspect Skill run without a
 * node (from the Command Palette, by keyboard) asks which skill of the connected servers.
 */
import * as vscode from 'vscode';
import type { ServerRegistry } from '../servers/serverRegistry';
import { ServerSkills, type SkillNode } from './serverSkills';

/**
 * Register the skills of the host's servers and their commands; @returns them, for the Servers view
 * @param globalState where the skills' enabled states are kept across windows (`GlobalState`)
 */
export function registerSkills(context: vscode.ExtensionContext, globalState: vscode.Memento, registry: ServerRegistry): ServerSkills {
  const skills = new ServerSkills(globalState);
  const isSkill = (node: unknown): node is SkillNode => (node as { kind?: unknown } | undefined)?.kind === 'skill';
  context.subscriptions.push(
    skills,
    vscode.commands.registerCommand('mcpRoundtrip.skill.inspect', async (node: unknown) => {
      const picked = isSkill(node) ? node : await pickSkill(registry, skills);
      return picked ? skills.inspect(await registry.connection(picked.entry), picked.skill) : undefined;
    }),
    vscode.commands.registerCommand('mcpRoundtrip.skill.enable', (node: unknown) =>
      isSkill(node) ? skills.setEnabled(node.skill, true) : undefined,
    ),
    vscode.commands.registerCommand('mcpRoundtrip.skill.disable', (node: unknown) =>
      isSkill(node) ? skills.setEnabled(node.skill, false) : undefined,
    ),
  );
  return skills;
}

/**
 * The skill to inspect, picked among those of the servers connected now (none is connected for it:
 * expanding a server in the Servers view is how the person asks to connect). Undefined when the
 * person dismisses the pick, or when no connected server lists a skill (an information message says
 * so and what to do).
 */
async function pickSkill(registry: ServerRegistry, skills: ServerSkills): Promise<SkillNode | undefined> {
  const nodes: SkillNode[] = [];
  for (const entry of registry.list()) {
    if (entry.heldBack || entry.connection?.state !== 'connected') continue;
    try {
      nodes.push(...(await skills.nodes(entry.connection, entry)));
    } catch {
      // Its listing failed: the Servers view says why under the server; the others are still offered.
    }
  }
  if (!nodes.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('MCP Roundtrip: no connected server lists a skill. Expand a server in the Servers view to connect to it.'),
    );
    return undefined;
  }
  const items = nodes.map((node) => ({ label: node.skill.name, description: node.entry.name, detail: node.skill.description, node }));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('The skill to inspect'), matchOnDescription: true });
  return picked?.node;
}
