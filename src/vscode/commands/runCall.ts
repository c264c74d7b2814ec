/**
 * Runs one MRTR call from VS Code: a progress notification with Cancel (once the call has run half a
 * second, `shared/delayedProgress.ts`), the round-trip log, the panel closed when the call ends, the
 * call kept in the history (`history/workspaceHistory.ts`), the result shown in the result view.
 * Cancel goes through the core's AbortSignal. A tool call the server runs as a task is followed to its
 * result (`core/tasks`): its status in the notification, Cancel sending `tasks/cancel`, the task kept in
 * the Tasks view (`tasks/taskStore.ts`).
 */
import * as vscode from 'vscode';
import type { CallRecorder } from '../../core/history/callRecorder';
import { HostError, errorMessage } from '../../core/util/errors';
import { isPlainObject } from '../../core/util/json';
import { withDelayedProgress } from '../shared/delayedProgress';
import { notificationText } from '../shared/notificationText';
import type { HostEvent } from '../../core/log/events';
import type { MrtrMethod } from '../../core/inputs/inputProvider';
import { callWithRoundTrips, newFlowId, targetOf, type RoundTripResult } from '../../core/mrtr/driver';
import { prefilledInputs } from '../../core/history/savedCallInputs';
import { callLimitsFrom, type CallLimits } from '../../core/mrtr/callLimits';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { WorkspaceHistory } from '../history/workspaceHistory';
import type { ArgumentsRequest, InputUi } from '../roundPanel/inputUi';
import type { RoundTripLog } from '../shared/roundTripLog';
import type { ResultPresenter } from '../results/resultPresenter';
import type { ShownCall } from '../../core/results/resultViewBuild';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { ServerEntry } from '../servers/serverEntry';
import type { AppViews } from '../apps/appView';
import { callToolFollowingTasks } from '../../core/tasks/toolTasks';
import { TASK_USES, type Task, type TaskUse } from '../../core/tasks/task';
import type { TaskRecords } from '../../core/tasks/taskRecords';

/** What the commands and `runCall` work with. */
export interface CallDeps {
  registry: ServerRegistry;
  log: RoundTripLog;
  ui: InputUi;
  results: ResultPresenter;
  /** The call history (none: calls are not kept). */
  history?: WorkspaceHistory;
  /** The MCP App views (none: results are shown as text only). */
  apps?: AppViews;
  /** The tasks this window started, kept in workspace storage (none: not kept). */
  tasks?: TaskRecords;
}

/** What a call may know beyond its params. */
export interface CallOptions {
  /** The tool as listed (its `inputSchema` marks secret arguments, its `outputSchema` checks the result). */
  tool?: { inputSchema?: unknown; outputSchema?: unknown };
  /**
   * A saved call's answers by `inputRequests` key: they only pre-fill its forms (the person submits);
   * roots and sampling are answered as for any call (`core/history/savedCallInputs.ts`).
   */
  prefill?: Record<string, unknown>;
  /** The arguments form these params came from: its panel becomes the call's round panel. */
  argumentsRequest?: ArgumentsRequest;
  /** The call's flow id, when its starter needs it before the call begins (else a new one). */
  flowId?: number;
}

/** The tool's `outputSchema`: from the listed tool, else listed now (only for a result with structured content). */
async function outputSchemaOf(
  conn: ServerConnection,
  method: MrtrMethod,
  params: Record<string, unknown>,
  result: Record<string, unknown>,
  tool?: CallOptions['tool'],
): Promise<unknown> {
  if (method !== 'tools/call') return undefined;
  if (tool) return tool.outputSchema;
  if (result.structuredContent === undefined) return undefined;
  const tools = await conn.list('tools').catch(() => []);
  const found = tools.find((t) => isPlainObject(t) && t.name === params.name) as { outputSchema?: unknown } | undefined;
  return found?.outputSchema;
}

/** Keep the call in the history (see {@link WorkspaceHistory.keep}); @returns whether it was kept */
function keep(
  deps: CallDeps,
  recorder: CallRecorder | undefined,
  conn: ServerConnection | undefined,
  outcome: { r?: RoundTripResult; error?: unknown },
): boolean {
  if (!recorder || !deps.history) return false;
  return deps.history.keep(recorder, conn?.era, { result: outcome.r?.result, error: outcome.error }, (t) => deps.log.warn(t));
}

/** The call-limit problems already in the log. */
const warnedLimits = new Set<string>();

/**
 * The limits of one call from the settings: `mcpRoundtrip.maxRounds` (retries),
 * `mcpRoundtrip.callTimeoutSeconds` (as ms; time spent answering is not counted) and
 * `mcpRoundtrip.legIdleSeconds` (as ms; a leg without an answer or progress that long fails), bounded
 * (`core/mrtr/callLimits.ts`); a value that is not a number, or out of bounds, is warned about in `log`
 * once (the default, or the nearest bound, used).
 */
export function callLimits(log: Pick<RoundTripLog, 'warn'>): CallLimits {
  const config = vscode.workspace.getConfiguration('mcpRoundtrip');
  const { problems, ...limits } = callLimitsFrom(
    config.get<unknown>('maxRounds'),
    config.get<unknown>('callTimeoutSeconds'),
    config.get<unknown>('legIdleSeconds'),
  );
  // Read at every call: each problem is said once, not once per call.
  for (const p of problems) {
    if (warnedLimits.has(p)) continue;
    warnedLimits.add(p);
    log.warn(p);
  }
  return limits;
}

/**
 * The setting `mcpRoundtrip.tasks.use`: when a tool that accepts tasks is called as one. A value it does
 * not name is warned about in `log` once, and the default (`whenRequired`) used.
 */
export function taskUse(log: Pick<RoundTripLog, 'warn'>): TaskUse {
  const value = vscode.workspace.getConfiguration('mcpRoundtrip').get<unknown>('tasks.use');
  if (value === undefined || (TASK_USES as readonly unknown[]).includes(value)) return (value as TaskUse | undefined) ?? 'whenRequired';
  const problem = `mcpRoundtrip.tasks.use must be one of ${TASK_USES.join(', ')}; ${JSON.stringify(value)} is not (whenRequired used)`;
  if (!warnedLimits.has(problem)) {
    warnedLimits.add(problem);
    log.warn(problem);
  }
  return 'whenRequired';
}

/** A task's status for a progress line: `task <id>: working — <message>` (the caller bounds it). */
export function taskProgressText(task: Task): string {
  const status = task.status === 'input_required' ? vscode.l10n.t('waiting for your answer') : task.status;
  return vscode.l10n.t('task {0}: {1}', task.id, status) + (task.statusMessage ? ` — ${task.statusMessage}` : '');
}

/**
 * Call `method` on a server and show the result.
 * @returns the complete result, or undefined when the call failed or was cancelled (already reported)
 */
export async function runCall(
  deps: CallDeps,
  entry: ServerEntry,
  method: MrtrMethod,
  params: Record<string, unknown>,
  options: CallOptions = {},
): Promise<Record<string, unknown> | undefined> {
  const target = targetOf(method, params);
  const recorder = deps.history?.recorder(entry.name, method, target, params, {
    argumentsSchema: options.tool?.inputSchema,
    onSecrets: (v) => deps.log.secrets.add(v),
    from: 'palette',
  });
  // Named in the log only when the history keeps the call (a size of 0 keeps none).
  const historyId = recorder && deps.history!.size > 0 ? recorder.id : undefined;
  return withDelayedProgress(
    notificationText(
      `${entry.name}: ${method === 'tools/call' ? vscode.l10n.t('calling {0}', target) : method === 'prompts/get' ? vscode.l10n.t('getting prompt {0}', target) : vscode.l10n.t('reading {0}', target)}`,
      200,
    ),
    async (progress, signal, callEnded) => {
      const flowId = options.flowId ?? newFlowId();
      const onEvent = (e: HostEvent) => {
        deps.log.event(e);
        recorder?.onEvent(e);
        if (e.kind === 'inputRequired')
          progress.report({
            message: e.inputs.length
              ? vscode.l10n.t('waiting for your answer (round {0})', e.round)
              : vscode.l10n.t('server busy, retrying (round {0})', e.round),
          });
        else if (e.kind === 'retry') progress.report({ message: vscode.l10n.t('sent answers, round {0}', e.round) });
      };
      let conn: ServerConnection | undefined;
      let kept = false;
      try {
        conn = await deps.registry.connection(entry);
        const answerer = options.prefill ? prefilledInputs(options.prefill, conn.provider) : conn.provider;
        // The arguments form's panel becomes the call's, for its rounds.
        if (options.argumentsRequest) deps.ui.startCall(options.argumentsRequest, flowId);
        const callOptions = {
          provider: recorder ? recorder.provider(answerer) : answerer,
          flowId,
          historyId,
          ...callLimits(deps.log),
          signal,
          onEvent,
          onProgress: (p: { progress: number; total?: number; message?: string }) =>
            progress.report({ message: notificationText(p.message ?? `${p.progress}${p.total ? ` / ${p.total}` : ''}`, 120) }),
        };
        const r: RoundTripResult =
          method === 'tools/call'
            ? await callToolFollowingTasks(conn, params, {
                ...callOptions,
                use: taskUse(deps.log),
                onTask: (t) => {
                  deps.tasks?.record(t, target);
                  progress.report({ message: notificationText(taskProgressText(t), 120) });
                },
              })
            : await callWithRoundTrips(conn, method, params, callOptions);
        callEnded();
        deps.ui.endFlow(flowId);
        kept = keep(deps, recorder, conn, { r });
        const shown: ShownCall = {
          server: entry.name,
          method,
          target,
          result: r.result,
          era: conn.era,
          rounds: r.rounds,
          totalMs: r.totalMs,
          waitingMs: r.waitingMs,
          historyId: kept ? historyId : undefined,
          outputSchema: await outputSchemaOf(conn, method, params, r.result, options.tool),
        };
        // A tool with an MCP App: the app is its result view (the text is one click away: Show as Text).
        // Only one view opens: a text view loading beside the app would slow the app's first paint.
        const appShown =
          method === 'tools/call' &&
          !!deps.apps &&
          typeof params.name === 'string' &&
          (await deps.apps.show(
            { entry, tool: params.name, arguments: isPlainObject(params.arguments) ? params.arguments : {}, result: r.result, text: shown },
            { quiet: true },
          ));
        if (appShown) deps.results.notifyError(shown);
        else await deps.results.show(shown);
        return r.result;
      } catch (e) {
        callEnded();
        deps.ui.endFlow(flowId);
        if (!kept) keep(deps, recorder, conn, { error: e });
        if (e instanceof HostError && e.kind === 'cancelled') {
          void vscode.window.showInformationMessage(notificationText(`${entry.name}: ${vscode.l10n.t('{0} was cancelled.', target)}`));
        } else {
          // Not awaited: the progress notification must close when the call ends, not when the
          // person dismisses the error.
          void vscode.window
            .showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`), vscode.l10n.t('Show Round-Trip Log'))
            .then((action) => action && deps.log.show());
        }
        return undefined;
      } finally {
        if (options.argumentsRequest) deps.ui.endArguments(options.argumentsRequest);
        deps.registry.touch();
      }
    },
  );
}
