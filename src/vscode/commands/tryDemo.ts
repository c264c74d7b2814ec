/**
 * **Try the Demo**: the walkthrough's first step in one click: the built-in demo server's `plan_trip`,
 * whose rounds show every kind of input (a form, a sampling review, roots), run as Call Tool… runs it.
 * When the demo server is off, says so and offers its setting.
 */
import * as vscode from 'vscode';
import { callTool } from './commands';
import { listItems } from './pickAndRun';
import type { CallDeps } from './runCall';

/** The demo server's name and the tool the walkthrough runs. */
export const DEMO_SERVER = 'demo';
export const DEMO_TOOL = 'plan_trip';
/** The button that opens the demo server's setting. */
export const OPEN_SETTING = vscode.l10n.t('Open Setting');

/** Run the demo's `plan_trip` (its arguments form first, then its rounds in the round panel). */
export async function tryDemo(deps: CallDeps): Promise<void> {
  const entry = deps.registry.get(DEMO_SERVER);
  if (!entry || entry.def.source.kind !== 'demo') {
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t('The built-in demo server is off. Turn on "{0}" to try it.', 'mcpRoundtrip.demoServer.enabled'),
      OPEN_SETTING,
    );
    if (choice === OPEN_SETTING) await vscode.commands.executeCommand('workbench.action.openSettings', 'mcpRoundtrip.demoServer.enabled');
    return;
  }
  const tools = await listItems(deps, entry, 'tools');
  if (!tools) return;
  const tool = tools.find((t) => t.name === DEMO_TOOL);
  if (!tool) return void vscode.window.showErrorMessage(vscode.l10n.t('The demo server does not list {0}.', DEMO_TOOL));
  await callTool(deps, entry, tool);
}
