/**
 * Tool calls the server runs as tasks, both eras, against scripted servers: the MRTR rounds before the
 * task, the task's own inputs (once per key, answered by tasks/update), polling at the server's pace,
 * terminal statuses, cancellation (tasks/cancel), and the errors a bad task gets.
 */
import assert from 'node:assert/strict';
import { callTool } from '../../../src/core/tasks/taskCall';
import { TASKS_EXTENSION, type Task } from '../../../src/core/tasks/task';
import { HostError } from '../../../src/core/util/errors';
import { scriptedConnection } from '../../support/inMemory';
import { askName, type Json, type Reply } from '../../support/scripted';
import { scriptedProvider } from '../../support/providers';

const NAME = { action: 'accept', content: { name: 'Ada' } };
const form = (message: string) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } },
});
const YES = { action: 'accept', content: { ok: true } };
const created = (status = 'working', pollIntervalMs: number | undefined = 30): Reply => ({
  result: {
    resultType: 'task',
    taskId: 't1',
    status,
    createdAt: '2026-12-06T00:00:00Z',
    ttlMs: 60_000,
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
  },
});
const got = (status: string, extra: Json = {}): Reply => ({
  result: { resultType: 'complete', taskId: 't1', status, pollIntervalMs: 30, ...extra },
});
const finished = (text: string): Reply => got('completed', { result: { content: [{ type: 'text', text }] } });

async function rejects(p: Promise<unknown>): Promise<HostError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof HostError, String(e));
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('tasks (2026-07-28 extension)', () => {
  it('follows an MRTR round, then a task that asks twice through tasks/update, to its result, no faster than pollIntervalMs', async () => {
    const polledAt: number[] = [];
    const s = scriptedConnection(
      (msg, n) => {
        if (msg.method === 'tools/call') return n === 1 ? askName('who', 'S1') : created();
        if (msg.method === 'tasks/update') return { result: { resultType: 'complete' } };
        polledAt.push(Date.now());
        switch (n) {
          case 1:
            return got('input_required', { inputRequests: { q1: form('First?') } });
          case 2:
            // Still asking q1 (eventually consistent), and now q2: only q2 is new.
            return got('input_required', { inputRequests: { q1: form('First?'), q2: form('Second?') } });
          case 3:
            return got('working', { statusMessage: 'thinking' });
          default:
            return finished('researched');
        }
      },
      { provider: scriptedProvider({ who: NAME, q1: YES, q2: YES }) },
    );
    const statuses: string[] = [];
    const r = await callTool(s.conn, { name: 'research', arguments: { topic: 'x' } }, { onTask: (t) => statuses.push(t.status) });
    assert.deepEqual(r.result.content, [{ type: 'text', text: 'researched' }]);
    assert.equal(r.task?.id, 't1');
    assert.equal(r.task?.status, 'completed');
    assert.deepEqual(statuses, ['working', 'input_required', 'working', 'completed']);
    const provider = s.conn.provider as ReturnType<typeof scriptedProvider>;
    assert.deepEqual(
      provider.asked.map((a) => a.key),
      ['who', 'q1', 'q2'],
    );
    const updates = s.requests('tasks/update');
    assert.deepEqual(
      updates.map((u) => [u.params.taskId, Object.keys(u.params.inputResponses)]),
      [
        ['t1', ['q1']],
        ['t1', ['q2']],
      ],
    );
    assert.deepEqual(updates[0].params.inputResponses.q1, YES);
    // The MRTR retry carried the round's answers and state; both legs declared the tasks extension.
    const legs = s.requests('tools/call');
    assert.equal(legs[1].params.requestState, 'S1');
    for (const leg of legs)
      assert.deepEqual(leg.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions[TASKS_EXTENSION], {});
    for (let i = 1; i < polledAt.length; i++)
      assert.ok(polledAt[i] - polledAt[i - 1] >= 25, `poll ${i} came ${polledAt[i] - polledAt[i - 1]} ms after the one before`);
    assert.deepEqual(
      s.requests('tasks/get').map((m) => m.params.taskId),
      ['t1', 't1', 't1', 't1'],
    );
  });

  it('a task the server says failed ends the call with its error and code', async () => {
    const s = scriptedConnection(
      (msg) => (msg.method === 'tools/call' ? created('working', 5) : got('failed', { error: { code: -32603, message: 'disk full' } })),
      { provider: scriptedProvider({}) },
    );
    const e = await rejects(callTool(s.conn, { name: 'research', arguments: {} }));
    assert.equal(e.kind, 'server');
    assert.equal(e.code, -32603);
    assert.match(e.message, /task t1 of research failed on scripted with error -32603: disk full/);
  });

  it('a status the spec does not name is a protocol error naming it', async () => {
    const s = scriptedConnection((msg) => (msg.method === 'tools/call' ? created('working', 5) : got('paused')), {
      provider: scriptedProvider({}),
    });
    const e = await rejects(callTool(s.conn, { name: 'research', arguments: {} }));
    assert.equal(e.kind, 'protocol');
    assert.match(e.message, /status "paused" is none the spec names/);
  });

  it('an unknown or expired task id is said as such', async () => {
    const s = scriptedConnection(
      (msg) => (msg.method === 'tools/call' ? created('working', 5) : { error: { code: -32602, message: 'Unknown task' } }),
      { provider: scriptedProvider({}) },
    );
    const e = await rejects(callTool(s.conn, { name: 'research', arguments: {} }));
    assert.match(e.message, /does not know task t1 \(unknown or expired\)/);
  });

  it('cancelling while the task works sends tasks/cancel and ends the call as cancelled', async () => {
    const ctl = new AbortController();
    const s = scriptedConnection(
      (msg) => {
        if (msg.method === 'tools/call') return created('working', 5);
        if (msg.method === 'tasks/cancel') return { result: { resultType: 'complete' } };
        ctl.abort();
        return got('working');
      },
      { provider: scriptedProvider({}) },
    );
    const e = await rejects(callTool(s.conn, { name: 'research', arguments: {} }, { signal: ctl.signal }));
    assert.equal(e.kind, 'cancelled');
    assert.deepEqual(
      s.requests('tasks/cancel').map((m) => m.params.taskId),
      ['t1'],
    );
  });

  it('the call limit bounds a task that never ends, and the task is cancelled, the error naming the limit given', async () => {
    const s = scriptedConnection(
      (msg) => {
        if (msg.method === 'tools/call') return created('working', 10);
        if (msg.method === 'tasks/cancel') return { result: { resultType: 'complete' } };
        return got('working', { pollIntervalMs: 10 });
      },
      { provider: scriptedProvider({}) },
    );
    const e = await rejects(callTool(s.conn, { name: 'research', arguments: {} }, { timeoutMs: 150 }));
    assert.equal(e.kind, 'timeLimit');
    assert.match(e.message, /within the call's time limit \(150 ms of active time\)/, 'the limit given, not what was left of it');
    // What the host did, not what the server did with it (a server may ignore the cancel).
    assert.match(e.message, /; tasks\/cancel was sent to \S+$/);
    assert.equal(s.requests('tasks/cancel').length, 1);
  });

  it('with wait: false, returns the created task at once', async () => {
    const s = scriptedConnection(() => created(), { provider: scriptedProvider({}) });
    const seen: Task[] = [];
    const r = await callTool(s.conn, { name: 'research', arguments: {} }, { wait: false, onTask: (t) => seen.push(t) });
    assert.equal(r.task?.id, 't1');
    assert.equal(r.task?.ttlMs, 60_000);
    assert.equal(s.requests('tasks/get').length, 0);
    assert.equal(seen.length, 1);
  });

  it('use "never" declares no tasks extension', async () => {
    const s = scriptedConnection(() => ({ result: { resultType: 'complete', content: [] } }), { provider: scriptedProvider({}) });
    await callTool(s.conn, { name: 'research', arguments: {} }, { use: 'never' });
    const [leg] = s.requests('tools/call');
    assert.equal(leg.params._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS_EXTENSION], undefined);
  });
});

describe('tasks (2025-11-25)', () => {
  it('sends the task param, polls tasks/get and fetches the result with tasks/result', async () => {
    const s = scriptedConnection(
      (msg, n) => {
        if (msg.method === 'tools/call')
          return { result: { task: { taskId: 'L1', status: 'working', ttl: 60_000, pollInterval: 10, createdAt: 'now' } } };
        if (msg.method === 'tasks/get') return { result: { taskId: 'L1', status: n < 2 ? 'working' : 'completed', pollInterval: 10 } };
        return { result: { content: [{ type: 'text', text: 'legacy done' }] } };
      },
      { provider: scriptedProvider({}) },
      { legacy: true },
    );
    const r = await callTool(s.conn, { name: 'simulate-research-query', arguments: { topic: 'x' } }, { asTask: true, ttlMs: 30_000 });
    assert.deepEqual(r.result.content, [{ type: 'text', text: 'legacy done' }]);
    assert.equal(r.task?.era, 'legacy');
    assert.deepEqual(s.requests('tools/call')[0].params.task, { ttl: 30_000 });
    assert.equal(s.requests('tasks/get').length, 2);
    assert.deepEqual(s.requests('tasks/result')[0].params, { taskId: 'L1' });
  });

  it('leaves no timer behind once tasks/result has answered (the limit watch ends with the call)', async () => {
    const s = scriptedConnection(
      (msg) => {
        if (msg.method === 'tools/call')
          return { result: { task: { taskId: 'L2', status: 'working', ttl: 60_000, pollInterval: 10, createdAt: 'now' } } };
        if (msg.method === 'tasks/get') return { result: { taskId: 'L2', status: 'completed', pollInterval: 10 } };
        return { result: { content: [{ type: 'text', text: 'done' }] } };
      },
      { provider: scriptedProvider({}) },
      { legacy: true },
    );
    // Every timer of a minute or more set during the call: each must be cleared when it returns.
    const long: NodeJS.Timeout[] = [];
    const set = global.setTimeout;
    global.setTimeout = ((fn: () => void, ms?: number) => {
      const t = set(fn, ms);
      if ((ms ?? 0) >= 60_000) long.push(t);
      return t;
    }) as typeof setTimeout;
    try {
      await callTool(s.conn, { name: 'simulate-research-query', arguments: {} }, { asTask: true, timeoutMs: 300_000 });
    } finally {
      global.setTimeout = set;
    }
    assert.ok(long.length > 0, 'the call set no long timer: the test no longer sees the watch');
    const live = long.filter((t) => !(t as unknown as { _destroyed: boolean })._destroyed);
    assert.equal(live.length, 0, `${live.length} of ${long.length} long timers still armed after the call`);
  });

  it('a task cancelled elsewhere ends the call saying so: seen by a poll (no tasks/result sent), or when tasks/result fails', async () => {
    const polled = scriptedConnection(
      (msg) => {
        if (msg.method === 'tools/call') return { result: { task: { taskId: 'L3', status: 'working', pollInterval: 10 } } };
        if (msg.method === 'tasks/get')
          return { result: { taskId: 'L3', status: 'cancelled', statusMessage: 'Client cancelled task execution.' } };
        return { error: { code: -32603, message: 'Task L3 has no result stored' } };
      },
      { provider: scriptedProvider({}) },
      { legacy: true },
    );
    const seen = await rejects(callTool(polled.conn, { name: 'simulate-research-query', arguments: {} }, { asTask: true }));
    assert.equal(seen.kind, 'server');
    assert.match(seen.message, /cancelled task L3 of simulate-research-query: Client cancelled task execution\./);
    assert.equal(polled.requests('tasks/result').length, 0);
    assert.equal(polled.requests('tasks/cancel').length, 0);

    let cancelled = false;
    const waiting = scriptedConnection(
      (msg) => {
        if (msg.method === 'tools/call') return { result: { task: { taskId: 'L4', status: 'working', pollInterval: 10 } } };
        if (msg.method === 'tasks/get')
          return {
            result: { taskId: 'L4', status: cancelled ? 'cancelled' : 'input_required', statusMessage: cancelled ? 'gone' : 'asks' },
          };
        cancelled = true;
        return { error: { code: -32603, message: 'Task L4 has no result stored' } };
      },
      { provider: scriptedProvider({}) },
      { legacy: true },
    );
    const failed = await rejects(callTool(waiting.conn, { name: 'simulate-research-query', arguments: {} }, { asTask: true }));
    assert.match(failed.message, /cancelled task L4 of simulate-research-query: gone/);
    assert.doesNotMatch(failed.message, /no result stored/);
  });

  it('a status pushed by notifications/tasks/status is shown at once, and a terminal one ends the wait without another poll', async () => {
    const seen: string[] = [];
    const s = scriptedConnection(
      (msg, _n, _all, server) => {
        if (msg.method === 'tools/call') {
          // The server's pace is slow (a minute); its pushes say what happens meanwhile.
          setTimeout(
            () =>
              server.notify('notifications/tasks/status', {
                taskId: 'P1',
                status: 'working',
                statusMessage: 'halfway',
                pollInterval: 60_000,
              }),
            20,
          );
          setTimeout(() => server.notify('notifications/tasks/status', { taskId: 'P1', status: 'completed', pollInterval: 60_000 }), 60);
          return { result: { task: { taskId: 'P1', status: 'working', pollInterval: 60_000 } } };
        }
        if (msg.method === 'tasks/get') return { result: { taskId: 'P1', status: 'working', pollInterval: 60_000 } };
        return { result: { content: [{ type: 'text', text: 'pushed done' }] } };
      },
      { provider: scriptedProvider({}) },
      { legacy: true },
    );
    const t0 = Date.now();
    const r = await callTool(
      s.conn,
      { name: 'simulate-research-query', arguments: {} },
      { asTask: true, onTask: (t) => seen.push(`${t.status}${t.statusMessage ? ` ${t.statusMessage}` : ''}`) },
    );
    assert.deepEqual(r.result.content, [{ type: 'text', text: 'pushed done' }]);
    assert.ok(Date.now() - t0 < 10_000, `the call waited ${Date.now() - t0} ms for a poll`);
    assert.deepEqual(seen.slice(0, 3), ['working', 'working halfway', 'completed']);
    assert.equal(s.requests('tasks/get').length, 0);
    assert.equal(s.requests('tasks/result').length, 1);
  });

  it('answers the requests the server pushes while tasks/result waits (input_required)', async () => {
    const s = scriptedConnection(
      async (msg, n, all, server) => {
        if (msg.method === 'tools/call') return { result: { task: { taskId: 'L2', status: 'working', pollInterval: 10 } } };
        if (msg.method === 'tasks/get') return { result: { taskId: 'L2', status: 'input_required' } };
        const answer = await server.request('elicitation/create', {
          mode: 'form',
          message: 'Which one?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        });
        return { result: { content: [{ type: 'text', text: `answered ${JSON.stringify(answer.result.content)}` }] } };
      },
      { provider: scriptedProvider({ 'push-1': YES }) },
      { legacy: true },
    );
    const r = await callTool(s.conn, { name: 'simulate-research-query', arguments: { ambiguous: true } }, { asTask: true });
    assert.deepEqual(r.result.content, [{ type: 'text', text: 'answered {"ok":true}' }]);
  });
});
