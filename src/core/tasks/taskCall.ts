/**
 * A tool call that the server may run as a task, in both eras: the MRTR rounds before the task is
 * created are ordinary MRTR rounds (`mrtr/driver.ts`); once the server answers with a created task the
 * host follows it by its id until a terminal status, answering what the task asks once per key for its
 * life, and sends `tasks/cancel` when the call is cancelled or reaches its limit.
 *
 * Spec: MCP 2025-11-25 "Tasks" (`task` param on `tools/call`, `tasks/get`, `tasks/result` (which
 * carries the task's pushed requests), `tasks/cancel`) and the 2026-07-28 `io.modelcontextprotocol/tasks`
 * extension (`resultType: "task"`, `tasks/get` with `input_required` + `inputRequests`, `tasks/update`
 * with `inputResponses`, `tasks/cancel`).
 */
import type { ServerConnection } from '../connection/serverConnection';
import type { HostEvent, HostEventListener } from '../log/events';
import { checkCompleteResult } from '../connection/session';
import type { InputAnswer } from '../inputs/answers';
import type { InputProvider, RoundInfo } from '../inputs/inputProvider';
import { parseInputRequired } from '../inputs/inputRequired';
import { RoundAnswering } from '../mrtr/answerRound';
import { MAX_TIMER_MS } from '../mrtr/callClock';
import {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_LEG_IDLE_MS,
  callWithRoundTrips,
  newFlowId,
  type RoundTripOptions,
  type RoundTripResult,
} from '../mrtr/driver';
import { AbortLinks, abortableDelay, isPromiseLike, onAbort } from '../util/async';
import { HostError, errorMessage, isHostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import { nextPollMs } from './polling';
import { TASKS_EXTENSION, isTerminal, readTask, type Task, type TaskUse } from './task';

/** How long a `tasks/cancel` sent on the way out may take, ms (the call ends whatever the server answers). */
export const CANCEL_GRACE_MS = 5_000;

/** Options of a tool call that may run as a task. */
export interface TaskCallOptions extends RoundTripOptions {
  /**
   * Ask a 2025-era server to run the call as a task (the `task` param): set it when
   * {@link callsAsTask} says so for the tool. A 2026-07-28 server decides itself.
   */
  asTask?: boolean;
  /** The setting `mcpRoundtrip.tasks.use`; `never` declares no tasks extension to a 2026-07-28 server. */
  use?: TaskUse;
  /** The time to live to ask of a 2025-era server for the task, ms (its default when absent). */
  ttlMs?: number;
  /** Told the task once created, and each time its status or status message changes. */
  onTask?: (task: Task) => void;
  /** `false`: return as soon as the task is created (its id, for `tasks result` later). Default `true`. */
  wait?: boolean;
}

/** The outcome of a tool call: the tool's result, and the task that ran it when there was one. */
export interface ToolCallResult extends RoundTripResult {
  /** The task as last read (terminal, unless the call did not wait). */
  task?: Task;
}

/**
 * Call a tool: through MRTR rounds, and, when the server creates a task, following it to its result.
 * @param params `{name, arguments}` (optionally `_meta`)
 * @returns the tool's result (or, with `wait: false`, the created task's raw result and `task`)
 * @throws what {@link callWithRoundTrips} and {@link followTask} throw
 */
export async function callTool(
  conn: ServerConnection,
  params: Record<string, unknown>,
  options: TaskCallOptions = {},
): Promise<ToolCallResult> {
  const use = options.use ?? 'whenRequired';
  // The `task` param is 2025-11-25 wire only: the era must be known before the first leg.
  if (options.asTask && use !== 'never' && conn.era === undefined) await conn.ensureConnected(options.signal);
  const legacyTask = options.asTask && use !== 'never' && conn.era === 'legacy';
  const sent = legacyTask ? { ...params, task: options.ttlMs !== undefined ? { ttl: options.ttlMs } : {} } : params;
  const extensions = use === 'never' ? undefined : { [TASKS_EXTENSION]: {} };
  const flowId = options.flowId ?? newFlowId();
  const r = await callWithRoundTrips(conn, 'tools/call', sent, { ...options, flowId, extensions });
  if (!r.createdTask) return r;
  const era = conn.era === 'legacy' ? 'legacy' : 'modern';
  const task = readTask(r.result, era, conn.name);
  const flow = { flowId, server: conn.name, method: 'tools/call' as const, target: String(params.name ?? '?'), round: r.rounds };
  tell(options.onEvent, {
    ...flow,
    ...(options.historyId ? { historyId: options.historyId } : {}),
    kind: 'taskCreated',
    taskId: task.id,
    ...(task.ttlMs !== undefined ? { ttlMs: task.ttlMs } : {}),
    ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}),
  });
  options.onTask?.(task);
  if (options.wait === false) return { ...r, task };
  const limitMs = (options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS) - (r.totalMs - r.waitingMs);
  const followed = await followTask(conn, task, {
    ...options,
    flowId,
    target: String(params.name ?? '?'),
    timeoutMs: limitMs,
    callLimitMs: options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    created: r.result,
  });
  return {
    ...r,
    createdTask: true,
    result: followed.result,
    task: followed.task,
    totalMs: r.totalMs + followed.totalMs,
    waitingMs: r.waitingMs + followed.waitingMs,
  };
}

/** Options of following a task. */
export interface FollowOptions {
  /** Who answers the task's inputs (2026-07-28); defaults to the connection's provider. */
  provider?: InputProvider;
  /** Ends the follow; the host then sends `tasks/cancel`. */
  signal?: AbortSignal;
  /** The active time the follow may take, ms (a person's time answering not counted). Default 5 min. */
  timeoutMs?: number;
  /** The whole call's time limit, ms, named when the follow reaches its own (what is left of it); default `timeoutMs`. */
  callLimitMs?: number;
  /** How long one request may take, ms (default 60000; `tasks/result` of a 2025-era task waits for the task). */
  legIdleMs?: number;
  onTask?: (task: Task) => void;
  /** The call's flow id (its inputs' rounds carry it). */
  flowId?: number;
  /** The tool's name, for messages and the rounds' headers. */
  target?: string;
  /** The server's raw answer that created the task (its `inputRequests` may already ask something). */
  created?: Record<string, unknown>;
  /** Told when the host sends `tasks/cancel` (the round-trip log's line). */
  onEvent?: HostEventListener;
}

/** The outcome of following a task. */
export interface FollowResult {
  /** The tool's complete result. */
  result: Record<string, unknown>;
  /** The task as last read (terminal). */
  task: Task;
  totalMs: number;
  waitingMs: number;
}

/** The active-time account of a follow: a person's time answering is not counted. */
class FollowClock {
  readonly started = Date.now();
  waitingMs = 0;
  private pauses = 0;
  private pausedSince = 0;

  constructor(private readonly limitMs: number) {}

  /** Active time left, ms (frozen while a person answers). */
  leftMs(): number {
    const now = Date.now();
    const waiting = this.waitingMs + (this.pauses ? now - this.pausedSince : 0);
    return this.limitMs - (now - this.started - waiting);
  }

  get paused(): boolean {
    return this.pauses > 0;
  }

  /** A person starts answering; returns the function to call once done. */
  pause(): () => void {
    if (this.pauses++ === 0) this.pausedSince = Date.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.pauses === 0) this.waitingMs += Date.now() - this.pausedSince;
    };
  }
}

/**
 * Follow a task to its result: read its status every poll interval (`polling.ts`), answer what it
 * asks (2026-07-28: `inputRequests` in `tasks/get`, each key once for the task's life, answered by
 * `tasks/update`; 2025-11-25: the requests the server pushes while `tasks/result` waits), and fetch its
 * result. Cancellation and the time limit send `tasks/cancel` (within {@link CANCEL_GRACE_MS}) and end the follow.
 * @throws HostError: `cancelled` (the signal; `tasks/cancel` sent), `timeLimit`, `server` (the task
 *   failed, the server cancelled it, or it does not know the id: unknown or expired), `protocol` (an
 *   invalid task or result), `connection`, or what answering an input throws
 */
export async function followTask(conn: ServerConnection, task: Task, options: FollowOptions = {}): Promise<FollowResult> {
  const provider = options.provider ?? conn.provider;
  const clock = new FollowClock(options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS);
  const idleMs = options.legIdleMs ?? DEFAULT_LEG_IDLE_MS;
  const flowId = options.flowId ?? newFlowId();
  const target = options.target ?? '?';
  const what = `task ${task.id} of ${target}`;
  const controller = new AbortController();
  const links = new AbortLinks();
  if (options.signal) links.follow(options.signal, controller);
  const signal = controller.signal;
  const rounds = new RoundAnswering(conn, controller);
  const timeLimit = () =>
    new HostError(
      'timeLimit',
      `${what} on ${conn.name} did not finish within the call's time limit (${options.callLimitMs ?? options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS} ms of active time); tasks/cancel was sent to ${conn.name}`,
    );
  const cancelled = () =>
    options.signal?.aborted ? new HostError('cancelled', `${what} was cancelled; tasks/cancel was sent to ${conn.name}`) : undefined;
  let current = task;
  const report = (next: Task) => {
    const changed = next.status !== current.status || next.statusMessage !== current.statusMessage;
    current = next;
    if (changed) options.onTask?.(next);
  };
  const request = async (method: string, params: Record<string, unknown>, timeoutMs = idleMs) => {
    const left = clock.leftMs();
    if (left <= 0) throw timeLimit();
    try {
      return await conn.request(method, params, { signal, timeoutMs: Math.min(timeoutMs, left) });
    } catch (e) {
      throw cancelled() ?? (clock.leftMs() <= 0 ? timeLimit() : unknownTask(e, method, conn.name, current.id));
    }
  };
  // A status the server pushes (2025-11-25 `notifications/tasks/status`) is shown at once; one that ends
  // the polling (terminal, or input_required: its requests come with tasks/result) ends the pause too.
  let wake: AbortController | undefined;
  const pollingEnds = (t: Task) => isTerminal(t.status) || (t.era === 'legacy' && t.status === 'input_required');
  const wait = async (ms: number) => {
    const left = clock.leftMs();
    if (left <= 0) throw timeLimit();
    wake = new AbortController();
    const unlink = onAbort(signal, () => wake?.abort(signal.reason));
    try {
      await abortableDelay(Math.min(ms, left), wake.signal).catch((e: unknown) => {
        if (!signal.aborted && pollingEnds(current)) return;
        throw cancelled() ?? (signal.aborted ? signal.reason : e);
      });
    } finally {
      unlink();
      wake = undefined;
    }
  };
  const unlistenPushes = conn.onTaskStatus((params) => {
    if (current.era !== 'legacy' || params.taskId !== current.id || isTerminal(current.status)) return;
    const pushed = readTaskOrUndefined(params, current, conn.name);
    if (!pushed) return;
    report(pushed);
    if (pollingEnds(pushed)) wake?.abort();
  });
  // Each input key is asked once for the task's life (spec: keys are unique for the task's life).
  const asked = new Set<string>();
  let round = 0;
  const answerInputs = async (raw: Record<string, unknown>) => {
    const parsed = parseInputRequired({ inputRequests: raw.inputRequests }, what, conn.name);
    const inputs = parsed.inputs.filter((i) => !asked.has(i.key));
    if (!inputs.length) return;
    for (const i of inputs) asked.add(i.key);
    round++;
    const info: RoundInfo = {
      flowId,
      server: conn.name,
      method: 'tools/call',
      target,
      round,
      inputs,
      era: 'modern',
      task: { id: current.id, status: current.status, ...(current.statusMessage ? { statusMessage: current.statusMessage } : {}) },
    };
    const resume = clock.pause();
    let inputResponses: Record<string, InputAnswer>;
    try {
      const answered = rounds.answer(provider, info, () => {});
      inputResponses = isPromiseLike(answered) ? await answered : answered;
    } catch (e) {
      throw cancelled() ?? e;
    } finally {
      resume();
    }
    await request('tasks/update', { taskId: current.id, inputResponses });
  };
  const endFlow = conn.beginFlow({
    flowId,
    method: 'tools/call',
    target,
    signal,
    pause: () => clock.pause(),
    fail: (e) => controller.abort(e),
    task: () => ({ id: current.id, status: current.status, ...(current.statusMessage ? { statusMessage: current.statusMessage } : {}) }),
  });
  let reads = 0;
  try {
    let raw = options.created;
    for (;;) {
      if (current.era === 'modern' && current.status === 'input_required' && raw && isPlainObject(raw.inputRequests))
        await answerInputs(raw);
      if (isTerminal(current.status) || (current.era === 'legacy' && current.status === 'input_required')) break;
      await wait(nextPollMs(current.pollIntervalMs, reads));
      if (pollingEnds(current)) continue;
      if (current.pollIntervalMs === undefined) reads++;
      raw = await request('tasks/get', { taskId: current.id });
      report(readTask(raw, current.era, conn.name, current));
    }
    if (current.era === 'legacy' && current.status === 'cancelled') throw cancelledByServer(current, conn.name, what);
    const result = current.era === 'modern' ? modernOutcome(raw ?? {}, current, conn.name, what) : await legacyResult();
    checkCompleteResult('tools/call', result, what, conn.name);
    return { result, task: current, totalMs: Date.now() - clock.started, waitingMs: clock.waitingMs };
  } catch (e) {
    const err = isHostError(e) ? e : new HostError('protocol', errorMessage(e));
    if (!isTerminal(current.status) && (err.kind === 'cancelled' || err.kind === 'timeLimit' || signal.aborted)) {
      tell(options.onEvent, {
        flowId,
        server: conn.name,
        method: 'tools/call',
        target,
        round,
        kind: 'taskCancel',
        taskId: current.id,
        reason: err.message,
      });
      await cancelTask(conn, current.id).catch(() => {});
    }
    throw err;
  } finally {
    unlistenPushes();
    endFlow();
    links.dispose();
    rounds.dispose();
  }

  // 2025-11-25: `tasks/result` waits for the task and carries the requests it pushes meanwhile (a person's
  // time answering them not counted); the call's active time bounds it.
  async function legacyResult(): Promise<Record<string, unknown>> {
    const pending = request('tasks/result', { taskId: current.id }, MAX_TIMER_MS);
    let settled = false;
    void pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Ends the watch's wait as soon as the result is in: a timer left for the rest of the call's limit
    // would keep the process alive after the call.
    const watchEnd = new AbortController();
    const unlink = onAbort(signal, () => watchEnd.abort(signal.reason));
    const watch = (async () => {
      while (!settled) {
        const left = clock.leftMs();
        if (left <= 0) {
          controller.abort(timeLimit());
          return;
        }
        await abortableDelay(clock.paused ? Math.max(left, 250) : left, watchEnd.signal).catch(() => {});
        if (signal.aborted) return;
      }
    })();
    try {
      const result = await pending;
      // The task's last word was about its work, not its end.
      const { statusMessage: _done, ...ended } = current;
      report({ ...ended, status: 'completed' });
      return result;
    } catch (e) {
      if (signal.reason instanceof HostError && !options.signal?.aborted) throw signal.reason;
      // A task cancelled meanwhile (from the Tasks view, another process, the server) has no result:
      // its status says why better than the server's error does.
      if (isHostError(e, 'server') && !signal.aborted) {
        const now = await request('tasks/get', { taskId: current.id }, CANCEL_GRACE_MS).catch(() => undefined);
        const read = now && readTaskOrUndefined(now, current, conn.name);
        if (read?.status === 'cancelled') {
          report(read);
          throw cancelledByServer(read, conn.name, what);
        }
      }
      throw e;
    } finally {
      settled = true;
      watchEnd.abort();
      unlink();
      void watch;
    }
  }
}

/** Tell `listener` of `event`: a broken listener never breaks a call. */
function tell(listener: HostEventListener | undefined, event: HostEvent): void {
  try {
    listener?.(event);
  } catch {
    /* the call goes on */
  }
}

/** The error a call ends with when its task was cancelled (by the server, or by a cancel sent from elsewhere). */
function cancelledByServer(task: Task, server: string, what: string): HostError {
  return new HostError('server', `${server} cancelled ${what}${task.statusMessage ? `: ${task.statusMessage}` : ''}`);
}

/** A task read from `raw`, or `undefined` when it is not one (a best-effort second look). */
function readTaskOrUndefined(raw: Record<string, unknown>, current: Task, server: string): Task | undefined {
  try {
    return readTask(raw, current.era, server, current);
  } catch {
    return undefined;
  }
}

/** The tool's result of a terminal 2026-07-28 task (`completed`), or the error it ended with. */
function modernOutcome(raw: Record<string, unknown>, task: Task, server: string, what: string): Record<string, unknown> {
  if (task.status === 'cancelled') throw cancelledByServer(task, server, what);
  if (task.status === 'failed') {
    const error = isPlainObject(raw.error) ? raw.error : {};
    const code = typeof error.code === 'number' ? error.code : undefined;
    const text = typeof error.message === 'string' ? error.message.slice(0, 1000) : (task.statusMessage ?? 'no reason given');
    throw new HostError(
      'server',
      `${what} failed on ${server}${code !== undefined ? ` with error ${code}` : ''}: ${text}`,
      code,
      error.data,
    );
  }
  if (!isPlainObject(raw.result)) throw new HostError('protocol', `${server} reported ${what} completed without its result`);
  return { resultType: 'complete', ...raw.result };
}

/** An unknown or expired task id (the server answers -32602) told as such; any other failure as it is. */
function unknownTask(e: unknown, method: string, server: string, id: string): unknown {
  if (isHostError(e, 'server') && e.code === -32602)
    return new HostError('server', `${server} does not know task ${id} (unknown or expired) — ${method}: ${e.message}`, e.code, e.data);
  return e;
}

/**
 * Ask the server to cancel a task (cooperative: the server may finish it anyway). Bounded by
 * {@link CANCEL_GRACE_MS}.
 * @throws HostError as `ServerConnection.request` (an unknown or expired id: `server`, -32602)
 */
export async function cancelTask(conn: ServerConnection, taskId: string, signal?: AbortSignal): Promise<void> {
  try {
    await conn.request('tasks/cancel', { taskId }, { signal, timeoutMs: CANCEL_GRACE_MS });
  } catch (e) {
    throw unknownTask(e, 'tasks/cancel', conn.name, taskId);
  }
}

/**
 * Read a task's status once (`tasks/get`), with the server's raw answer: a 2026-07-28 task that
 * completed or asks for input carries its result or its `inputRequests` there, which `followTask`
 * takes as `created` (re-reading would lose nothing, but a completed task's result is in that answer).
 * @throws HostError as `ServerConnection.request`; `server` naming an unknown or expired id; `protocol` for an invalid task
 */
export async function fetchTask(
  conn: ServerConnection,
  taskId: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<{ task: Task; raw: Record<string, unknown> }> {
  if (conn.era === undefined) await conn.ensureConnected(options.signal);
  let raw: Record<string, unknown>;
  try {
    raw = await conn.request('tasks/get', { taskId }, { signal: options.signal, timeoutMs: options.timeoutMs ?? DEFAULT_LEG_IDLE_MS });
  } catch (e) {
    throw unknownTask(e, 'tasks/get', conn.name, taskId);
  }
  const task = readTask(raw, conn.era === 'legacy' ? 'legacy' : 'modern', conn.name, {
    id: taskId,
    server: conn.name,
    era: 'modern',
    status: 'created',
  });
  return { task, raw };
}

/**
 * Read a task's status once (`tasks/get`); see {@link fetchTask}.
 * @throws HostError as {@link fetchTask}
 */
export async function getTask(
  conn: ServerConnection,
  taskId: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Task> {
  return (await fetchTask(conn, taskId, options)).task;
}
