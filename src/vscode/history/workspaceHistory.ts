/**
 * The call history of this workspace: the core's {@link HistoryStore} kept in VS Code's workspace
 * storage (`ExtensionContext.workspaceState`, so it survives reloads and stays with the workspace),
 * sized by `mcpRoundtrip.history.size`, with typed values kept only when
 * `mcpRoundtrip.history.keepValues` is on (off by default; secret fields never).
 */
import * as vscode from 'vscode';
import { newHistoryId } from '../../core/history/callRecord';
import { CallRecorder } from '../../core/history/callRecorder';
import { type AnsweredBy } from '../../core/history/recordingProvider';
import { HistoryStore, historySize, type HistoryStorage } from '../../core/history/historyStore';
import { historyFile, migrateHistory } from '../../core/history/historyFile';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { MrtrMethod } from '../../core/inputs/inputProvider';

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
    return config().get<Record<string, boolean>>('sampling.autoApprove', {})?.[server] === true ? 'auto-approved' : 'you (reviewed)';
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
   * @param scripted keys answered by saved answers (the history says so)
   * @param onSecrets told each secret value as it is given
   */
  recorder(
    server: string,
    method: MrtrMethod,
    target: string,
    params: Record<string, unknown>,
    argumentsSchema?: unknown,
    scripted?: ReadonlySet<string>,
    onSecrets?: (values: string[]) => void,
  ): CallRecorder {
    const by = answeredBy(server);
    return new CallRecorder({
      id: newHistoryId(),
      server,
      method,
      target,
      params,
      argumentsSchema,
      keepValues: config().get<boolean>('history.keepValues', false) === true,
      answeredBy: scripted?.size ? (m, ctx) => (scripted.has(ctx.key) ? 'saved answers' : by(m, ctx)) : by,
      onSecrets,
    });
  }

  dispose(): void {
    this.sub.dispose();
  }
}
