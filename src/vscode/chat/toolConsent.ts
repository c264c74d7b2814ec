/**
 * `@roundtrip` asks before it runs a tool the model called, as VS Code's own agent does for MCP
 * tools: a tool's description or an earlier result can tell the model to call a tool the person never
 * meant to run (on any server in chat). A modal dialog names the tool, its server and the arguments;
 * **Allow in this Session** runs that tool of that server without asking again until the window closes.
 * A call that needs input still asks for it in the round panel, whatever was allowed here.
 */
import * as vscode from 'vscode';
import { oneLine } from '../../core/util/shownText';
import { shownText } from '../../core/util/shownText';

/** The answers of the consent dialog, as its buttons read. */
export const RUN = 'Run';
export const ALLOW_IN_SESSION = 'Allow in this Session';

/** Characters of the arguments shown in the dialog; the rest is counted. */
const SHOWN_ARGUMENT_CHARS = 1500;

/** The tools the person allowed for this window, by server and tool. */
export class ChatToolConsent {
  private readonly allowed = new Set<string>();

  /**
   * Whether the person lets the model's call run: at once when the tool was allowed for this session,
   * else after the dialog (dismissed: not run).
   * @param args the arguments the model gave (shown as JSON, cut at {@link SHOWN_ARGUMENT_CHARS})
   */
  async mayRun(server: string, tool: string, args: Record<string, unknown>): Promise<boolean> {
    const key = `${server}\u0000${tool}`;
    if (this.allowed.has(key)) return true;
    const json = JSON.stringify(args, null, 2);
    const shown = shownText(json, SHOWN_ARGUMENT_CHARS);
    const detail = `The chat's model asks @roundtrip to call the tool ${oneLine(tool, 100)} of the MCP server ${oneLine(server, 100)} with these arguments:\n\n${shown}`;
    const answer = await vscode.window.showWarningMessage(
      `Run ${oneLine(tool, 100)} (${oneLine(server, 100)})?`,
      { modal: true, detail },
      RUN,
      ALLOW_IN_SESSION,
    );
    if (answer === ALLOW_IN_SESSION) this.allowed.add(key);
    return answer === RUN || answer === ALLOW_IN_SESSION;
  }
}
