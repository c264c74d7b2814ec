/**
 * A tool call asked from chat (by VS Code's MCP client through the bridge, or by `@roundtrip`): the
 * host's MRTR driver against the real server, every round answered in the round panel (headed "asked
 * from chat", opened beside the chat), one call from chat at a time in the panel, every leg in the
 * round-trip log, and a progress line per round saying where to answer. The panel closes when the
 * call ends, however it ends.
 */
import { PanelQueue } from '../../core/chat/panelQueue';
import { queuedProgressText, roundProgressText } from '../../core/chat/progressText';
import type { HostEvent } from '../../core/log/events';
import { callWithRoundTrips, newFlowId } from '../../core/mrtr/driver';
import type { InputProvider } from '../../core/inputs/inputProvider';
import { callLimits } from '../commands/runCall';
import type { ChatPanels } from '../roundPanel/roundPanels';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { ServerEntry } from '../servers/serverEntry';
import { notificationText } from '../shared/notificationText';
import type { RoundTripLog } from '../shared/roundTripLog';

/** The heading of a round panel whose call was asked from chat. */
export const ASKED_FROM_CHAT = 'asked from chat';

/** What a call from chat is given. */
export interface ChatCallOptions {
  /** Cancels the call (the chat's stop button, VS Code's `notifications/cancelled`). */
  signal: AbortSignal;
  /** Shows one progress line in the chat (already safe to show: one line, no links). */
  progress(text: string): void;
}

/** Runs tool calls asked from chat, one at a time in the round panel. */
export class ChatCalls {
  private readonly queue = new PanelQueue();

  /**
   * @param provider the host's input provider (forms and reviews in the panel, roots from the workspace)
   */
  constructor(
    private readonly registry: ServerRegistry,
    private readonly log: RoundTripLog,
    private readonly panels: ChatPanels,
    private readonly provider: InputProvider,
  ) {}

  /**
   * Call a tool of `entry` with round trips.
   * @param params `{name, arguments}` (and optionally `_meta`)
   * @returns the complete result, exactly as the server sent it
   * @throws HostError (server, protocol, connection, declined, roundLimit, timeLimit, cancelled, ...)
   */
  async callTool(entry: ServerEntry, params: Record<string, unknown>, options: ChatCallOptions): Promise<Record<string, unknown>> {
    const { maxRounds, timeoutMs, legIdleMs } = callLimits(this.log);
    const say = (text: string) => options.progress(notificationText(text, 240));
    const flowId = newFlowId();
    this.panels.markAskedFrom(flowId, ASKED_FROM_CHAT);
    const onEvent = (e: HostEvent) => {
      this.log.event(e);
      const text = roundProgressText(e, Math.round(timeoutMs / 1000));
      if (text) say(text);
    };
    try {
      const conn = await this.registry.connection(entry);
      const r = await callWithRoundTrips(conn, 'tools/call', params, {
        provider: this.queue.provider(this.provider, (round) => say(queuedProgressText(round))),
        flowId,
        maxRounds,
        timeoutMs,
        legIdleMs,
        signal: options.signal,
        onEvent,
        onProgress: (p) => p.message && say(`${entry.name}: ${p.message}`),
      });
      return r.result;
    } finally {
      this.panels.endFlow(flowId);
      this.queue.end(flowId);
      this.registry.touch();
    }
  }
}
