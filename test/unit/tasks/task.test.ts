/** The task model (both eras), which tools are called as tasks, their listing mark, and the polling pace. */
import assert from 'node:assert/strict';
import { callsAsTask, isTerminal, readTask, taskMark, taskSupportOf } from '../../../src/core/tasks/task';
import { BACKOFF_MAX_MS, BACKOFF_START_MS, MAX_POLL_MS, MIN_POLL_MS, nextPollMs } from '../../../src/core/tasks/polling';

describe('task model', () => {
  it('reads a 2026-07-28 created task and a 2025-11-25 CreateTaskResult into the same shape', () => {
    const modern = readTask({ resultType: 'task', taskId: 'a', status: 'working', ttlMs: null, pollIntervalMs: 5000 }, 'modern', 's');
    assert.deepEqual(modern, { id: 'a', server: 's', era: 'modern', status: 'working', pollIntervalMs: 5000, ttlMs: null });
    const legacy = readTask({ task: { taskId: 'b', status: 'working', ttl: 60000, pollInterval: 1000, createdAt: 'T' } }, 'legacy', 's');
    assert.deepEqual(legacy, {
      id: 'b',
      server: 's',
      era: 'legacy',
      status: 'working',
      pollIntervalMs: 1000,
      ttlMs: 60000,
      createdAt: 'T',
    });
  });

  it('keeps the poll interval and time to live a later read leaves out, and refuses another id', () => {
    const first = readTask({ taskId: 'a', status: 'working', pollIntervalMs: 200, ttlMs: 1000 }, 'modern', 's');
    const next = readTask({ taskId: 'a', status: 'input_required' }, 'modern', 's', first);
    assert.equal(next.pollIntervalMs, 200);
    assert.equal(next.ttlMs, 1000);
    assert.throws(() => readTask({ taskId: 'z', status: 'working' }, 'modern', 's', first), /names task "z" instead/);
  });

  it('refuses a missing id, an unknown status and a negative poll interval, naming them', () => {
    assert.throws(() => readTask({ status: 'working' }, 'modern', 's'), /taskId must be a non-empty string/);
    assert.throws(() => readTask({ taskId: 'a', status: 'done' }, 'modern', 's'), /status "done" is none the spec names/);
    assert.throws(() => readTask({ taskId: 'a', status: 'working', pollIntervalMs: -1 }, 'modern', 's'), /poll interval must be a number/);
  });

  it('completed, failed and cancelled are terminal; created, working and input_required are not', () => {
    assert.deepEqual((['created', 'working', 'input_required', 'completed', 'failed', 'cancelled'] as const).map(isTerminal), [
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('calls required tools as tasks always, optional ones per mcpRoundtrip.tasks.use, and marks them in listings', () => {
    const required = { name: 'r', execution: { taskSupport: 'required' } };
    const optional = { name: 'o', execution: { taskSupport: 'optional' } };
    const plain = { name: 'p' };
    assert.deepEqual([required, optional, plain].map(taskSupportOf), ['required', 'optional', 'forbidden']);
    assert.equal(callsAsTask('required'), true);
    assert.equal(callsAsTask('optional'), false);
    assert.equal(callsAsTask('optional', 'whenSupported'), true);
    assert.equal(callsAsTask('required', 'never'), false);
    assert.equal(callsAsTask('forbidden', 'whenSupported'), false);
    assert.deepEqual([required, optional, plain].map(taskMark), ['[task: required]', '[task: optional]', '']);
  });
});

describe('task polling pace', () => {
  it("honours the server's poll interval within bounds, and backs off within bounds when it gives none", () => {
    assert.equal(nextPollMs(1234, 0), 1234);
    assert.equal(nextPollMs(0, 0), MIN_POLL_MS);
    assert.equal(nextPollMs(3 * 24 * 3600_000, 0), MAX_POLL_MS);
    assert.equal(nextPollMs(undefined, 0), BACKOFF_START_MS);
    assert.ok(nextPollMs(undefined, 1) > BACKOFF_START_MS);
    assert.equal(nextPollMs(undefined, 50), BACKOFF_MAX_MS);
  });
});
