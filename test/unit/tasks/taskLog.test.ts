/**
 * The round-trip log's lines of a task: one when the server creates it (its id, server, time to live
 * and poll interval), one when the host sends tasks/cancel.
 */
import assert from 'node:assert/strict';
import type { HostEvent } from '../../../src/core/log/events';
import { formatEvent } from '../../../src/core/log/traceLog';
import { callTool } from '../../../src/core/tasks/taskCall';
import { scriptedConnection } from '../../support/inMemory';
import { scriptedProvider } from '../../support/providers';
import type { Reply } from '../../support/scripted';

const created = (extra: Record<string, unknown>): Reply => ({
  result: { resultType: 'task', taskId: 'task-42', status: 'working', createdAt: '2026-12-06T00:00:00Z', ...extra },
});
const got = (status: string, extra: Record<string, unknown> = {}): Reply => ({
  result: { resultType: 'complete', taskId: 'task-42', status, pollIntervalMs: 20, ...extra },
});

function lines(events: HostEvent[]): string[] {
  return events.map(formatEvent).flatMap((l) => (l ? [l.text] : []));
}

describe('round-trip log lines of a task', () => {
  it('a created task is logged once with its id, server, ttl and poll interval', async () => {
    const events: HostEvent[] = [];
    const s = scriptedConnection(
      (msg) =>
        msg.method === 'tools/call' ? created({ ttlMs: 60_000, pollIntervalMs: 20 }) : got('completed', { result: { content: [] } }),
      { provider: scriptedProvider({}) },
    );
    await callTool(s.conn, { name: 'research', arguments: {} }, { onEvent: (e) => events.push(e) });
    const taskLines = lines(events).filter((l) => l.includes('task task-42'));
    assert.deepEqual(taskLines.length, 1, taskLines.join('\n'));
    assert.match(
      taskLines[0],
      /^← \[scripted\] task task-42 created for tools\/call research \(flow \d+\): ttl 60(\.0)? s, poll interval 20 ms$/,
    );
    const ev = events.find((e) => e.kind === 'taskCreated');
    assert.deepEqual(ev && ev.kind === 'taskCreated' && [ev.taskId, ev.ttlMs, ev.pollIntervalMs], ['task-42', 60_000, 20]);
  });

  it('a task without ttl or poll interval says so; an unlimited ttl is said as such', () => {
    const base = {
      flowId: 7,
      server: 's',
      method: 'tools/call' as const,
      target: 't',
      round: 0,
      kind: 'taskCreated' as const,
      taskId: 'x',
    };
    assert.match(formatEvent(base)!.text, /ttl not said, poll interval not said \(backing off\)$/);
    assert.match(formatEvent({ ...base, ttlMs: null, pollIntervalMs: 1500 })!.text, /ttl unlimited, poll interval 1\.5 s$/);
  });

  it('cancelling the call logs the tasks/cancel sent, naming the task', async () => {
    const ctl = new AbortController();
    const events: HostEvent[] = [];
    const s = scriptedConnection(
      (msg) => {
        if (msg.method === 'tools/call') return created({ pollIntervalMs: 5 });
        if (msg.method === 'tasks/cancel') return { result: {} };
        ctl.abort();
        return got('working');
      },
      { provider: scriptedProvider({}) },
    );
    await assert.rejects(callTool(s.conn, { name: 'research', arguments: {} }, { signal: ctl.signal, onEvent: (e) => events.push(e) }));
    const cancel = lines(events).filter((l) => l.includes('tasks/cancel'));
    assert.equal(cancel.length, 1);
    assert.match(cancel[0], /^→ \[scripted\] tasks\/cancel task task-42 of tools\/call research \(flow \d+\): .*cancelled/);
    assert.equal(s.requests('tasks/cancel').length, 1);
  });
});
