/**
 * The call history of this workspace: the core's {@link HistoryStore} kept in VS Code's workspace
 * storage (`ExtensionContext.workspaceState`, so it survives reloads and stays with the workspace),
 * sized by `mcpRoundtrip.history.size`, with typed values kept only when
 * `mcpRoundtrip.history.keepValues` is on (off by default; secret fields never).
 */
import * as vscode from 'vscode';
import { newHistoryId, type CallOrigin } from '../../core/history/callRecord';
import { CallRecorder } from '../../core/history/callRecorder';
import { type AnsweredBy } from '../../core/history/recordingProvider';
import { HistoryStore, historySize, type HistoryStorage } from '../../core/history/historyStore';
import { historyFile, migrateHistory } from '../../core/history/historyFile';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { MrtrMethod } from '../../core/inputs/inputProvider';
import { HostError, errorMessage } from '../../core/util/errors';
import { userAutoApprove } from '../sampling/sampler';
import { userSetting } from '../shared/userSettings';

/** What a recorder may be told beyond the call (see {@link WorkspaceHistory.recorder}). */
export interface RecorderOptions {
  argumentsSchema?: unknown;
  scripted?: ReadonlySet<string>;
  onSecrets?: (values: string[]) => void;
  from?: CallOrigin;
}

/** The workspace storage key of the history (earlier versions; without a workspace storage folder). */
export const HISTORY_KEY = 'mcpRoundtrip.history';
/** The history's file in the workspace's storage folder (JSON lines, oldest first). */
export const HISTORY_FILE = 'call-history.jsonl';

const config = () => vscode.workspace.getConfiguration('mcpRoundtrip');

/** Who answered, as the history says it: the person, the workspace folders, an auto-approval. */
function answeredBy(server: string): AnsweredBy {
  return (method) => {
    if (method === 'elicitation/create') return 'you';
    if (method === 'roots/list') return 'workspace folders';
    return userAutoApprove()[server] === true ? 'auto-approved' : 'you (reviewed)';
  };
}

/**
 * Where the history is kept: a JSON lines file in the workspace's storage folder (a call appended, not
 * the whole history written again), the history of earlier versions moved there from the workspace
 * state once; the workspace state itself when there is no such folder (no workspace open) or it
 * cannot be made.
 */
function historyStorage(context: vscode.ExtensionContext): HistoryStorage {
  const state: HistoryStorage = {
    get: () => context.workspaceState.get(HISTORY_KEY),
    set: (v) => context.workspaceState.update(HISTORY_KEY, v),
  };
  const dir = context.storageUri?.fsPath;
  if (!dir) return state;
  try {
    mkdirSync(dir, { recursive: true });
    const file = historyFile(path.join(dir, HISTORY_FILE));
    void migrateHistory(state, file);
    return file;
  } catch {
    return state;
  }
}

/** The history of this workspace, and a recorder per call. */
export class WorkspaceHistory implements vscode.Disposable {
  readonly store: HistoryStore;
  private readonly sub: vscode.Disposable;

  constructor(context: vscode.ExtensionContext) {
    this.store = new HistoryStore(historyStorage(context), () => this.size);
    this.sub = vscode.workspace.onDidChangeConfiguration(
      (e) => e.affectsConfiguration('mcpRoundtrip.history.size') && void this.store.applyLimit(),
    );
  }

  /** How many calls are kept (the setting, bounded; 0 keeps none). */
  get size(): number {
    return historySize(config().get('history.size'));
  }

  /**
   * A recorder for one call (also when the history keeps nothing: it tells the log which values to mask).
   * @param options.argumentsSchema the tool's `inputSchema` (its secret arguments are not kept)
   * @param options.scripted keys answered by saved answers (the history says so)
   * @param options.onSecrets told each secret value as it is given
   * @param options.from where the call was asked (the view shows it)
   */
  recorder(
    server: string,
    method: MrtrMethod,
    target: string,
    params: Record<string, unknown>,
    options: RecorderOptions = {},
  ): CallRecorder {
    const by = answeredBy(server);
    const { scripted } = options;
    return new CallRecorder({
      id: newHistoryId(),
      server,
      method,
      target,
      params,
      argumentsSchema: options.argumentsSchema,
      from: options.from,
      keepValues: userSetting('history.keepValues') === true,
      answeredBy: scripted?.size ? (m, ctx) => (scripted.has(ctx.key) ? 'saved answers' : by(m, ctx)) : by,
      onSecrets: options.onSecrets,
    });
  }

  /**
   * Keep the call of `recorder` (ended) in the history, unless its size is 0; a storage failure is
   * told to `warn`, never the call's failure.
   * @param outcome the complete result, or the error the call ended with
   * @returns whether it was kept
   */
  keep(
    recorder: CallRecorder,
    era: 'modern' | 'legacy' | undefined,
    outcome: { result?: Record<string, unknown>; error?: unknown },
    warn: (text: string) => void,
  ): boolean {
    if (this.size === 0) return false;
    const e = outcome.error;
    const failure = e === undefined ? undefined : { kind: e instanceof HostError ? e.kind : 'error', message: errorMessage(e) };
    const record = recorder.finish(outcome.result, era, failure);
    this.store.add(record).then(undefined, (err: unknown) => warn(`could not keep ${record.id} in the call history: ${errorMessage(err)}`));
    return true;
  }

  dispose(): void {
    this.sub.dispose();
  }
}
