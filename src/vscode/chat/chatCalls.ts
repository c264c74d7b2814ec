/**
 * A tool call asked from chat (by VS Code's MCP client through the bridge, or by `@roundtrip`): the
 * host's MRTR driver against the real server, every round answered in the round panel (headed "asked
 * from chat", opened beside the chat), one call from chat at a time in the panel, every leg in the
 * round-trip log, and a progress line per round saying where to answer. The panel closes when the
 * call ends, however it ends. The call is kept in the Call History like any call, marked with where
 * it was asked (`@roundtrip` or the bridge), so Run Again and Save Call work on it.
 */
import { PanelQueue } from '../../core/chat/panelQueue';
import { queuedProgressText, roundProgressText } from '../../core/chat/progressText';
import type { HostEvent } from '../../core/log/events';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { CallOrigin } from '../../core/history/callRecord';
import { newFlowId, targetOf } from '../../core/mrtr/driver';
import type { InputProvider } from '../../core/inputs/inputProvider';
import { callLimits, taskProgressText, taskUse } from '../commands/runCall';
import { callToolFollowingTasks } from '../../core/tasks/toolTasks';
import type { TaskRecords } from '../../core/tasks/taskRecords';
import type { WorkspaceHistory } from '../history/workspaceHistory';
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
  /** Where the call was asked: `chat` (`@roundtrip`, the default) or `bridge` (VS Code's agent). */
  from?: Extract<CallOrigin, 'chat' | 'bridge'>;
  /** The tool's `inputSchema`, when the caller has it (its secret arguments are not kept in the history). */
  inputSchema?: unknown;
}

/** Runs tool calls asked from chat, one at a time in the round panel. */
export class ChatCalls {
  private readonly queue = new PanelQueue();

  /**
   * @param provider the host's input provider (forms and reviews in the panel, roots from the workspace)
   * @param history the call history (none: calls from chat are not kept)
   * @param tasks the tasks this window started (none: not kept)
   */
  constructor(
    private readonly registry: ServerRegistry,
    private readonly log: RoundTripLog,
    private readonly panels: ChatPanels,
    private readonly provider: InputProvider,
    private readonly history?: WorkspaceHistory,
    private readonly tasks?: TaskRecords,
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
    const recorder = this.history?.recorder(entry.name, 'tools/call', targetOf('tools/call', params), params, {
      argumentsSchema: options.inputSchema,
      onSecrets: (v) => this.log.secrets.add(v),
      from: options.from ?? 'chat',
    });
    // Named in the log only when the history keeps the call (a size of 0 keeps none).
    const historyId = recorder && this.history!.size > 0 ? recorder.id : undefined;
    let conn: ServerConnection | undefined;
    const onEvent = (e: HostEvent) => {
      this.log.event(e);
      recorder?.onEvent(e);
      const text = roundProgressText(e, Math.round(timeoutMs / 1000));
      if (text) say(text);
    };
    try {
      conn = await this.registry.connection(entry);
      const queued = this.queue.provider(this.provider, (round) => say(queuedProgressText(round)));
      // A tool the server runs as a task is followed to its result, its status on the chat's progress line.
      const r = await callToolFollowingTasks(conn, params, {
        provider: recorder ? recorder.provider(queued) : queued,
        flowId,
        historyId,
        maxRounds,
        timeoutMs,
        legIdleMs,
        signal: options.signal,
        onEvent,
        onProgress: (p) => p.message && say(`${entry.name}: ${p.message}`),
        use: taskUse(this.log),
        onTask: (t) => {
          this.tasks?.record(t, targetOf('tools/call', params));
          say(`${entry.name}: ${taskProgressText(t)}`);
        },
      });
      if (recorder) this.history!.keep(recorder, conn.era, { result: r.result }, (t) => this.log.warn(t));
      return r.result;
    } catch (e) {
      if (recorder) this.history!.keep(recorder, conn?.era, { error: e }, (t) => this.log.warn(t));
      throw e;
    } finally {
      this.panels.endFlow(flowId);
      this.queue.end(flowId);
      this.registry.touch();
    }
  }
}
