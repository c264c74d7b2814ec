/**
 * The view Tasks and the tasks kept in workspace storage (src/vscode/tasks/tasksView.ts), under the
 * `vscode` stand-in: a task kept by one window is listed by the next (the same storage, as after a
 * reload), grouped running / waiting for you / finished with Cancel only where it applies; its status
 * is read afresh from its server (tasks/get), and Cancel sends tasks/cancel.
 */
import assert from 'node:assert/strict';
import type { TreeItem } from 'vscode';
import type { Task } from '../../../src/core/tasks/task';
import { scriptedConnection } from '../../support/inMemory';
import { memento } from '../../support/memento';
import { scriptedProvider } from '../../support/providers';
import { useVscodeStub } from '../../support/vscodeStub';

describe('the view Tasks', () => {
  useVscodeStub();
  let view: typeof import('../../../src/vscode/tasks/tasksView');
  before(() => {
    view = require('../../../src/vscode/tasks/tasksView') as typeof view;
  });

  const task = (id: string, status: Task['status'], extra: Partial<Task> = {}): Task => ({
    id,
    server: 'scripted',
    era: 'modern',
    status,
    ttlMs: 60_000,
    ...extra,
  });

  it('lists after a reload what the window before kept: running, waiting for you and finished, Cancel only on the unfinished', () => {
    const state = memento();
    const before = view.workspaceTaskRecords(state);
    before.record(task('t1', 'working', { statusMessage: 'reading' }), 'research');
    before.record(task('t2', 'input_required'), 'research');
    before.record(task('t3', 'completed'), 'summarize');
    const after = new view.TasksView(view.workspaceTaskRecords(state));
    const items = after.getChildren().map((r) => after.getTreeItem(r) as TreeItem & { contextValue: string; description: string });
    assert.deepEqual(
      items.map((i) => [i.label, i.contextValue, i.description]),
      [
        ['summarize', 'mcpRoundtrip.task.finished', 'scripted · finished'],
        ['research', 'mcpRoundtrip.task.waiting', 'scripted · waiting for you'],
        ['research', 'mcpRoundtrip.task.running', 'scripted · running — reading'],
      ],
    );
    assert.equal(items[0].command?.command, 'mcpRoundtrip.tasks.openResult');
    const manifest = require('../../../package.json') as { contributes: { menus: Record<string, { command: string; when: string }[]> } };
    const cancel = manifest.contributes.menus['view/item/context'].find((m) => m.command === 'mcpRoundtrip.tasks.cancel');
    const when = /viewItem =~ \/(.*)\/$/.exec(cancel!.when)![1].replace(/\\\\/g, '\\');
    assert.deepEqual(
      items.map((i) => new RegExp(when).test(i.contextValue)),
      [false, true, true],
    );
  });

  it('reads the unfinished tasks afresh from their server, and Cancel sends tasks/cancel', async () => {
    const s = scriptedConnection(
      (msg) => {
        if (msg.method === 'tasks/cancel') return { result: { resultType: 'complete' } };
        const cancelled = s.requests('tasks/cancel').length > 0;
        return {
          result: {
            resultType: 'complete',
            taskId: msg.params.taskId,
            status: cancelled ? 'cancelled' : 'completed',
            result: { content: [] },
          },
        };
      },
      { provider: scriptedProvider({}) },
    );
    const tasks = view.workspaceTaskRecords(memento());
    tasks.record(task('t1', 'working'), 'research');
    tasks.record(task('t2', 'working'), 'research');
    const warnings: string[] = [];
    const deps = {
      registry: { get: () => ({ name: 'scripted' }), connection: async () => s.conn, touch: () => {} },
      log: { warn: (t: string) => warnings.push(t), event: () => {}, info: () => {} },
      tasks,
    } as never;
    await view.cancelTaskRecord(deps, tasks.get('scripted', 't2')!);
    assert.deepEqual(
      s.requests('tasks/cancel').map((m) => m.params.taskId),
      ['t2'],
    );
    await view.refreshTasks(deps);
    assert.deepEqual(
      tasks.list().map((r) => [r.id, r.status]),
      [
        ['t2', 'cancelled'],
        ['t1', 'cancelled'],
      ],
    );
    assert.deepEqual(warnings, []);
    await s.conn.close();
  });
});
