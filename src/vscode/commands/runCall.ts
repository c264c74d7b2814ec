/**
 * Runs one MRTR call from VS Code: a progress notification with Cancel, the round-trip log, the
 * panel closed when the call ends, the result shown. Cancel goes through the core's AbortSignal.
 */
import * as vscode from 'vscode';
import { HostError, errorMessage } from '../../core/util/errors';
import { notificationText } from '../shared/notificationText';
import type { HostEvent } from '../../core/log/events';
import type { MrtrMethod } from '../../core/mrtr/inputs';
import { callWithRoundTrips, targetOf } from '../../core/mrtr/driver';
import type { ArgumentsRequest, InputUi } from '../roundPanel/inputUi';
import type { RoundTripLog } from '../shared/roundTripLog';
import type { ResultPresenter } from '../results/resultPresenter';
import type { ServerEntry, ServerRegistry } from '../servers/serverRegistry';

/** What the commands and `runCall` work with. */
export interface CallDeps {
  registry: ServerRegistry;
  log: RoundTripLog;
  ui: InputUi;
  results: ResultPresenter;
}

/**
 * Call `method` on a server and show the result.
 * @param argumentsRequest the arguments form these params came from: its panel becomes the call's round panel
 * @returns the complete result, or undefined when the call failed or was cancelled (already reported)
 */
export async function runCall(deps: CallDeps, entry: ServerEntry, method: MrtrMethod, params: Record<string, unknown>, argumentsRequest?: ArgumentsRequest): Promise<Record<string, unknown> | undefined> {
  const target = targetOf(method, params);
  const config = vscode.workspace.getConfiguration('mcpRoundtrip');
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: notificationText(`${entry.name}: ${method === 'tools/call' ? 'calling' : method === 'prompts/get' ? 'getting prompt' : 'reading'} ${target}`, 200), cancellable: true },
    async (progress, token) => {
      const ac = new AbortController();
      const sub = token.onCancellationRequested(() => ac.abort());
      let flowId: number | undefined;
      const onEvent = (e: HostEvent) => {
        deps.log.event(e);
        if ('flowId' in e && flowId === undefined) {
          flowId = e.flowId;
          if (argumentsRequest) deps.ui.startCall(argumentsRequest, flowId);
        }
        if (e.kind === 'inputRequired') progress.report({ message: e.inputs.length ? `waiting for your answer (round ${e.round})` : `server busy, retrying (round ${e.round})` });
        else if (e.kind === 'retry') progress.report({ message: `sent answers, round ${e.round}` });
      };
      try {
        const conn = await deps.registry.connection(entry);
        const r = await callWithRoundTrips(conn, method, params, {
          maxRounds: config.get<number>('maxRounds', 10),
          timeoutMs: config.get<number>('callTimeoutSeconds', 300) * 1000,
          signal: ac.signal,
          onEvent,
          onProgress: (p) => progress.report({ message: notificationText(p.message ?? `${p.progress}${p.total ? ` / ${p.total}` : ''}`, 120) }),
        });
        if (flowId !== undefined) deps.ui.endFlow(flowId);
        await deps.results.show(entry.name, method, target, r.result);
        return r.result;
      } catch (e) {
        if (flowId !== undefined) deps.ui.endFlow(flowId);
        if (e instanceof HostError && e.kind === 'cancelled') {
          void vscode.window.showInformationMessage(notificationText(`${entry.name}: ${target} was cancelled.`));
        } else {
          // Not awaited: the progress notification must close when the call ends, not when the
          // person dismisses the error.
          void vscode.window.showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`), 'Show Round-Trip Log').then((action) => action && deps.log.show());
        }
        return undefined;
      } finally {
        if (argumentsRequest) deps.ui.endArguments(argumentsRequest);
        sub.dispose();
        deps.registry.touch();
      }
    },
  );
}
