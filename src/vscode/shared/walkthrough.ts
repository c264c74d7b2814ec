/**
 * The walkthrough (`contributes.walkthroughs`, "Get Started with MCP Roundtrip") opens once, the first
 * time the extension starts in this profile: VS Code opens a new extension's walkthrough only when it
 * was installed from its own UI, not from the command line or a provisioned image.
 */
import * as vscode from 'vscode';

/** The walkthrough's id in `contributes.walkthroughs`. */
export const WALKTHROUGH_ID = 'mcpRoundtrip.gettingStarted';
/** The global storage key saying the walkthrough was opened once. */
export const WALKTHROUGH_SHOWN_KEY = 'mcpRoundtrip.walkthroughShown';

/**
 * Open the walkthrough unless it was opened before (in this profile), or VS Code's
 * `workbench.welcomePage.walkthroughs.openOnInstall` is off (the person, or a test host, does not want
 * walkthroughs to open by themselves). A failure to open it is not retried (the Welcome page lists it).
 * @param globalState where "opened once" is kept (`GlobalState`)
 * @returns whether it was opened now
 */
export async function openWalkthroughOnce(context: vscode.ExtensionContext, globalState: vscode.Memento): Promise<boolean> {
  if (globalState.get(WALKTHROUGH_SHOWN_KEY) === true) return false;
  if (vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true) === false) return false;
  await globalState.update(WALKTHROUGH_SHOWN_KEY, true);
  try {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false);
    return true;
  } catch {
    return false;
  }
}
