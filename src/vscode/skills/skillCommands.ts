/**
 * The Servers view's skill commands: **Inspect Skill**, **Enable Skill** and **Disable Skill**
 * (`mcpRoundtrip.skill.inspect`, `.enable`, `.disable`), on a skill node.
 */
import * as vscode from 'vscode';
import type { ServerRegistry } from '../servers/serverRegistry';
import { ServerSkills, type SkillNode } from './serverSkills';

/** Register the skills of the host's servers and their commands; @returns them, for the Servers view */
export function registerSkills(context: vscode.ExtensionContext, registry: ServerRegistry): ServerSkills {
  const skills = new ServerSkills(context.globalState);
  const isSkill = (node: unknown): node is SkillNode => (node as { kind?: unknown } | undefined)?.kind === 'skill';
  context.subscriptions.push(
    skills,
    vscode.commands.registerCommand('mcpRoundtrip.skill.inspect', async (node: unknown) =>
      isSkill(node) ? skills.inspect(await registry.connection(node.entry), node.skill) : undefined,
    ),
    vscode.commands.registerCommand('mcpRoundtrip.skill.enable', (node: unknown) =>
      isSkill(node) ? skills.setEnabled(node.skill, true) : undefined,
    ),
    vscode.commands.registerCommand('mcpRoundtrip.skill.disable', (node: unknown) =>
      isSkill(node) ? skills.setEnabled(node.skill, false) : undefined,
    ),
  );
  return skills;
}
