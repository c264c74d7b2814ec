/**
 * The progress line a call from chat shows for each of its rounds: where to answer, and what ends a
 * round nobody answers. VS Code's chat has no timer of its own on a tool call, so the line says that
 * the panel's Cancel ends the call and that the call limit pauses while the person answers.
 * Shared by the bridge (`notifications/progress` to VS Code's MCP client) and `@roundtrip`.
 */
import type { HostEvent } from '../log/events';
import type { RoundInfo } from '../inputs/inputProvider';

/** Where rounds are answered, as the progress line names it. */
export const PANEL_NAME = 'the MCP Roundtrip panel';

/**
 * The progress line for one event of a call from chat, or `undefined` for events that change nothing
 * the person needs to know.
 * @param callLimitSeconds the call's limit of active time (`mcpRoundtrip.callTimeoutSeconds`)
 */
export function roundProgressText(e: HostEvent, callLimitSeconds: number): string | undefined {
  switch (e.kind) {
    case 'inputRequired': {
      if (e.inputs.length === 0) return `Round ${e.round}: ${e.server} is busy, retrying`;
      if (e.inputs.every((i) => i.method === 'roots/list'))
        return `Round ${e.round}: sharing your workspace folders (roots) with ${e.server}`;
      return `Round ${e.round}: answer in ${PANEL_NAME} (Cancel there ends the call; the ${callLimitSeconds} s call limit pauses while you answer)`;
    }
    case 'retry':
      return `Round ${e.round}: answers sent, waiting for ${e.server}`;
    default:
      return undefined;
  }
}

/** The progress line of a call whose round waits for another call from chat to leave the panel. */
export function queuedProgressText(round: RoundInfo): string {
  return `Round ${round.round}: waiting for ${PANEL_NAME}, where another call from chat is being answered`;
}
