/**
 * A tool call that follows a task when the server runs it as one, the same for every caller (the CLI's
 * `call`, the palette, `@roundtrip`, the chat bridge): whether a 2025-era server is asked for a task (the
 * tool's `execution.taskSupport`, as listed, and the setting `mcpRoundtrip.tasks.use`), and one more try
 * as a task when such a server refuses the call for want of one.
 *
 * Spec: MCP 2025-11-25 "Tasks" (tool-level negotiation: `execution.taskSupport`, server capability
 * `tasks.requests.tools.call`) and the 2026-07-28 tasks extension (the server decides).
 */
import type { ServerConnection } from '../connection/serverConnection';
import type { HostEvent } from '../log/events';
import { isHostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import { callsAsTask, taskSupportOf, type TaskUse } from './task';
import { callTool, type TaskCallOptions, type ToolCallResult } from './taskCall';

/**
 * Whether `call <tool>` asks the server for a task: on a 2025-era server that declares task-augmented
 * tool calls, when the listed tool requires (or, with `use: whenSupported`, accepts) it. A 2026-07-28
 * server decides itself (`false` here). Connects first: the era must be known.
 * @throws what connecting or listing throws
 */
export async function asksForTask(
  conn: ServerConnection,
  tool: string,
  opts: { signal?: AbortSignal; timeoutMs?: number; use?: TaskUse },
): Promise<boolean> {
  if (opts.use === 'never') return false;
  await conn.ensureConnected(opts.signal);
  if (conn.era !== 'legacy') return false;
  const tasks = (conn.serverCapabilities as Record<string, unknown> | undefined)?.tasks;
  const requests = isPlainObject(tasks) ? tasks.requests : undefined;
  const tools = isPlainObject(requests) ? requests.tools : undefined;
  if (!isPlainObject(tools) || !isPlainObject(tools.call)) return false;
  const listed = (await conn.list('tools', { signal: opts.signal, timeoutMs: opts.timeoutMs })) as Record<string, unknown>[];
  return callsAsTask(taskSupportOf(listed.find((t) => t.name === tool)), opts.use);
}

/** JSON-RPC "Method not found": what a 2025-era server answers a call without the `task` param to a tool that requires it. */
const METHOD_NOT_FOUND = -32601;

/**
 * `call <tool>`: {@link callTool}, asking a 2025-era server for a task when the tool needs one. The era
 * is known only once connected, and connecting is the call's own first leg (its limits, cancellation and
 * sign-in, as for any call): so before the first connect the call goes as it is, and a 2025-era refusal
 * for want of the `task` param (-32601, or a tool result with `isError`) of a tool listed as needing a
 * task sends it once more as a task (the refusal then stays out of the log).
 * @throws what {@link callTool} throws
 */
export async function callToolFollowingTasks(
  conn: ServerConnection,
  params: Record<string, unknown>,
  options: TaskCallOptions,
): Promise<ToolCallResult> {
  const tool = String(params.name);
  const limits = { signal: options.signal, timeoutMs: options.timeoutMs, use: options.use };
  if (conn.era === 'legacy') return callTool(conn, params, { ...options, asTask: await asksForTask(conn, tool, limits) });
  const log = options.onEvent;
  let held: HostEvent | undefined;
  // A refusal comes as a JSON-RPC error or, from some servers, as a tool result with isError.
  const refusal = (e: HostEvent) => (e.kind === 'error' && e.code === METHOD_NOT_FOUND) || (e.kind === 'complete' && e.isError);
  const onEvent = log && ((e: HostEvent) => (refusal(e) ? (held = e) : log(e)));
  try {
    const r = await callTool(conn, params, { ...options, onEvent });
    if (r.result.isError === true && eraOf(conn) === 'legacy' && (await asksForTask(conn, tool, limits)))
      return callTool(conn, params, { ...options, asTask: true });
    if (held) log?.(held);
    return r;
  } catch (e) {
    if (isHostError(e, 'server') && e.code === METHOD_NOT_FOUND && eraOf(conn) === 'legacy' && (await asksForTask(conn, tool, limits)))
      return callTool(conn, params, { ...options, asTask: true });
    if (held) log?.(held);
    throw e;
  }
}

/** The connection's era as of now (read afresh: a call in between may have connected it). */
const eraOf = (conn: ServerConnection) => conn.era;
