/**
 * A tool call from chat (`@roundtrip` or the bridge, both through `ChatCalls.callTool`) that the server
 * runs as a task: the call waits for the task, its status streams into the chat's progress line, its
 * input is answered as any round's, and the task is kept for the Tasks view. Runs `src/vscode` under
 * the `vscode` stand-in against a scripted 2026-07-28 server.
 */
import assert from 'node:assert/strict';
import { TaskRecords } from '../../../src/core/tasks/taskRecords';
import { scriptedConnection } from '../../support/inMemory';
import { scriptedProvider } from '../../support/providers';
import { useVscodeStub } from '../../support/vscodeStub';
import type { ServerEntry } from '../../../src/vscode/servers/serverEntry';

const task = (status: string, extra: Record<string, unknown> = {}) => ({
  result: { taskId: 't1', status, pollIntervalMs: 20, ttlMs: 60_000, ...extra },
});

describe('chat: a tool the server runs as a task', () => {
  useVscodeStub();
  let chatCalls: typeof import('../../../src/vscode/chat/chatCalls');
  before(() => {
    chatCalls = require('../../../src/vscode/chat/chatCalls') as typeof chatCalls;
  });

  const log = { event: () => {}, warn: () => {}, info: () => {}, secrets: { add: () => {} } } as never;
  const panels = { markAskedFrom: () => {}, endFlow: () => {} };
  const entry = { name: 'fx' } as ServerEntry;

  for (const from of ['chat', 'bridge'] as const) {
    it(`from ${from}: waits for the task, its status on the progress line, its input answered, the task kept`, async () => {
      const provider = scriptedProvider({ q1: { action: 'accept', content: { ok: true } } });
      const s = scriptedConnection(
        (msg, n) => {
          if (msg.method === 'tools/call') return { result: { resultType: 'task', ...task('working').result } };
          if (msg.method === 'tasks/update') return { result: { resultType: 'complete' } };
          if (n === 1) return { result: { resultType: 'complete', ...task('working', { statusMessage: 'reading sources' }).result } };
          if (n === 2)
            return {
              result: {
                resultType: 'complete',
                ...task('input_required', {
                  inputRequests: {
                    q1: {
                      method: 'elicitation/create',
                      params: {
                        mode: 'form',
                        message: 'Go on?',
                        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
                      },
                    },
                  },
                }).result,
              },
            };
          return {
            result: { resultType: 'complete', ...task('completed', { result: { content: [{ type: 'text', text: 'found' }] } }).result },
          };
        },
        { provider },
      );
      const registry = { connection: async () => s.conn, touch: () => {} } as never;
      let stored: unknown;
      const tasks = new TaskRecords({ read: () => stored, write: (r) => void (stored = r) });
      const calls = new chatCalls.ChatCalls(registry, log, panels, provider, undefined, tasks);
      const lines: string[] = [];
      const result = await calls.callTool(
        entry,
        { name: 'research', arguments: {} },
        {
          signal: new AbortController().signal,
          progress: (t) => lines.push(t),
          from,
        },
      );
      assert.deepEqual(result.content, [{ type: 'text', text: 'found' }]);
      assert.ok(lines.includes('fx: task t1: working'), lines.join('\n'));
      assert.ok(lines.includes('fx: task t1: working — reading sources'), lines.join('\n'));
      assert.ok(lines.includes('fx: task t1: waiting for your answer'), lines.join('\n'));
      assert.ok(lines.includes('fx: task t1: completed'), lines.join('\n'));
      const updates = s.requests('tasks/update');
      assert.deepEqual(
        updates.map((m) => m.params.inputResponses),
        [{ q1: { action: 'accept', content: { ok: true } } }],
      );
      assert.deepEqual(
        tasks.list().map((r) => [r.server, r.id, r.tool, r.status]),
        [['scripted', 't1', 'research', 'completed']],
      );
      await s.conn.close();
    });
  }
});
