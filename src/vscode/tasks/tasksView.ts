/**
 * Tasks that outlive a window: the tool calls a server ran as tasks from this workspace, kept in
 * workspace storage (`core/tasks/taskRecords.ts`: bounded, expired by their `ttlMs`), listed in the view
 * **Tasks**: running, waiting for you, finished. **Open Result** follows a task to its result (asking what
 * it asks, in the round panel) and shows it; **Cancel** sends `tasks/cancel`. After a reload the tasks are
 * listed again, their statuses read afresh when the view is shown. All text is plain (`TreeItem` labels
 * never render Markdown).
 */
import * as vscode from 'vscode';
import { isTerminal, type Task } from '../../core/tasks/task';
import { TaskRecords, type TaskRecord } from '../../core/tasks/taskRecords';
import { cancelTask, fetchTask, followTask, getTask } from '../../core/tasks/taskCall';
import { errorMessage, HostError } from '../../core/util/errors';
import { oneLine } from '../../core/util/shownText';
import { callLimits, taskProgressText, type CallDeps } from '../commands/runCall';
import { withDelayedProgress } from '../shared/delayedProgress';
import { notificationText } from '../shared/notificationText';

/** The workspace-storage key of the kept tasks. */
export const TASKS_KEY = 'mcpRoundtrip.tasks';

/** The tasks of this workspace, in its storage (`context.workspaceState`). */
export function workspaceTaskRecords(state: Pick<vscode.Memento, 'get' | 'update'>): TaskRecords {
  return new TaskRecords({ read: () => state.get(TASKS_KEY), write: (records) => state.update(TASKS_KEY, records) });
}

/** Where a task stands for the person: `running`, `waiting` (for you) or `finished`. */
export function taskGroup(status: TaskRecord['status']): 'running' | 'waiting' | 'finished' {
  return isTerminal(status) ? 'finished' : status === 'input_required' ? 'waiting' : 'running';
}

const ICON = { running: 'sync', waiting: 'bell', finished: 'pass' } as const;
const GROUP_TEXT = {
  running: vscode.l10n.t('running'),
  waiting: vscode.l10n.t('waiting for you'),
  finished: vscode.l10n.t('finished'),
} as const;

/** The view **Tasks**: the kept tasks, newest first. */
export class TasksView implements vscode.TreeDataProvider<TaskRecord>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly unlisten: () => void;

  constructor(private readonly records: TaskRecords) {
    this.unlisten = records.onChange(() => this.changed.fire());
  }

  getChildren(node?: TaskRecord): TaskRecord[] {
    return node ? [] : this.records.list();
  }

  getTreeItem(r: TaskRecord): vscode.TreeItem {
    const group = taskGroup(r.status);
    const item = new vscode.TreeItem(oneLine(r.tool, 200), vscode.TreeItemCollapsibleState.None);
    const status = r.status === 'completed' || r.status === 'created' || r.status === 'working' ? GROUP_TEXT[group] : r.status;
    item.description = `${oneLine(r.server, 100)} · ${group === 'finished' ? status : GROUP_TEXT[group]}${r.statusMessage ? ` — ${oneLine(r.statusMessage, 200)}` : ''}`;
    item.iconPath = new vscode.ThemeIcon(r.status === 'failed' ? 'error' : r.status === 'cancelled' ? 'circle-slash' : ICON[group]);
    item.contextValue = `mcpRoundtrip.task.${group}`;
    const tooltip = new vscode.MarkdownString();
    tooltip.appendText(
      [
        vscode.l10n.t('task {0}: {1}', r.id, r.status),
        `${r.server} · ${r.tool}`,
        new Date(r.createdAt).toLocaleString(),
        ...(typeof r.ttlMs === 'number'
          ? [vscode.l10n.t('kept by the server until {0}', new Date(r.createdAt + r.ttlMs).toLocaleString())]
          : []),
      ].join('\n'),
    );
    item.tooltip = tooltip;
    item.id = `${r.server}\u0000${r.id}`;
    item.command = { command: 'mcpRoundtrip.tasks.openResult', title: vscode.l10n.t('Open Result'), arguments: [r] };
    return item;
  }

  dispose(): void {
    this.unlisten();
    this.changed.dispose();
  }
}

/** The configured server of a kept task, or `undefined` after saying it is gone. */
function entryOf(deps: CallDeps, r: TaskRecord) {
  const entry = deps.registry.get(r.server);
  if (!entry)
    void vscode.window.showErrorMessage(notificationText(vscode.l10n.t('No server named "{0}" is configured any more.', r.server)));
  return entry;
}

/**
 * **Open Result**: follow the task to its result (its inputs asked in the round panel, its status in the
 * notification, Cancel sending `tasks/cancel`) and show it in the result view.
 */
export async function openTaskResult(deps: CallDeps & { tasks: TaskRecords }, r: TaskRecord): Promise<void> {
  const entry = entryOf(deps, r);
  if (!entry) return;
  await withDelayedProgress(
    notificationText(`${entry.name}: ${vscode.l10n.t('task {0}: {1}', r.id, r.tool)}`, 200),
    async (progress, signal, ended) => {
      const onTask = (t: Task) => {
        deps.tasks.record(t, r.tool);
        progress.report({ message: notificationText(taskProgressText(t), 120) });
      };
      try {
        const conn = await deps.registry.connection(entry);
        const limits = callLimits(deps.log);
        const { task, raw } = await fetchTask(conn, r.id, { signal, timeoutMs: limits.legIdleMs });
        onTask(task);
        const followed = await followTask(conn, task, {
          created: raw,
          signal,
          timeoutMs: limits.timeoutMs,
          legIdleMs: limits.legIdleMs,
          onTask,
          target: r.tool,
          onEvent: (e) => deps.log.event(e),
        });
        ended();
        await deps.results.show({
          server: entry.name,
          method: 'tools/call',
          target: r.tool,
          result: followed.result,
          era: conn.era,
          rounds: 0,
          totalMs: followed.totalMs,
          waitingMs: followed.waitingMs,
        });
      } catch (e) {
        ended();
        if (e instanceof HostError && e.kind === 'cancelled')
          void vscode.window.showInformationMessage(notificationText(`${entry.name}: ${vscode.l10n.t('{0} was cancelled.', r.tool)}`));
        else void vscode.window.showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`));
      } finally {
        deps.registry.touch();
      }
    },
  );
}

/** **Cancel**: send `tasks/cancel` for the task, then read its status once (the server may still finish it). */
export async function cancelTaskRecord(deps: CallDeps & { tasks: TaskRecords }, r: TaskRecord): Promise<void> {
  const entry = entryOf(deps, r);
  if (!entry) return;
  try {
    const conn = await deps.registry.connection(entry);
    await conn.ensureConnected();
    await cancelTask(conn, r.id);
    const after = await getTask(conn, r.id).catch(() => undefined);
    deps.tasks.record(after ?? { id: r.id, server: r.server, era: r.era, status: 'cancelled' }, r.tool);
  } catch (e) {
    void vscode.window.showErrorMessage(notificationText(`${entry.name}: ${errorMessage(e)}`));
  }
}

/** Read afresh the status of each kept task that has not ended (its server unknown or unreachable: left as is). */
export async function refreshTasks(deps: CallDeps & { tasks: TaskRecords }): Promise<void> {
  await Promise.all(
    deps.tasks
      .list()
      .filter((r) => !isTerminal(r.status))
      .map(async (r) => {
        const entry = deps.registry.get(r.server);
        if (!entry) return;
        try {
          const conn = await deps.registry.connection(entry);
          deps.tasks.record(await getTask(conn, r.id, { timeoutMs: callLimits(deps.log).legIdleMs }), r.tool);
        } catch (e) {
          deps.log.warn(`task ${r.id} of ${r.tool} on ${r.server}: ${errorMessage(e)}`);
        }
      }),
  );
}
