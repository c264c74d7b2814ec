/**
 * `completion/complete` for one argument of a prompt or one variable of a resource template: the CLI's
 * `complete` and Tab, and the suggestions of VS Code's arguments forms.
 *
 * Spec: MCP 2026-07-28 "Completion" (`ref/prompt`, `ref/resource`, `argument`, `context.arguments`).
 */
import { optionalDeadline } from '../util/async';
import { HostError, errorMessage } from '../util/errors';
import type { ServerConnection } from './serverConnection';

/** What is completed: an argument of a prompt, or a variable of a resource template. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** One completion request: the ref, the argument and what is typed of it, the other arguments. */
export interface CompletionQuery {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** The values of the other arguments, as strings. */
  context?: Record<string, string>;
}

/** Most suggestions taken (the spec caps a response at 100). */
export const MAX_SUGGESTIONS = 100;

/** True when the server declared the `completions` capability (known once connected). */
export function offersCompletions(conn: ServerConnection): boolean {
  return !!conn.serverCapabilities?.completions;
}

/**
 * Send `completion/complete` for a prompt argument or a template variable.
 * @returns the suggestions, at most 100, each as given
 * @throws HostError `server` when the server has no `completions` capability or answers an error;
 *   `timeLimit` past `timeoutMs`; `cancelled` when `signal` aborts
 */
export async function complete(
  conn: ServerConnection,
  c: CompletionQuery,
  opts: { signal?: AbortSignal; timeoutMs?: number },
): Promise<string[]> {
  const what = c.ref.type === 'ref/prompt' ? `prompt ${c.ref.name}` : `template ${c.ref.uri}`;
  const limit = optionalDeadline(
    opts.signal,
    opts.timeoutMs,
    () => new HostError('timeLimit', `completion/complete on ${conn.name} exceeded ${opts.timeoutMs} ms`),
  );
  const signal = limit.signal;
  try {
    const session = await conn.ensureConnected(signal);
    if (!offersCompletions(conn))
      throw new HostError(
        'server',
        `${conn.name} does not offer completions (no "completions" capability); give the value of ${c.argument.name} yourself (see prompts or templates)`,
      );
    const params = { ref: c.ref, argument: c.argument, ...(c.context ? { context: { arguments: c.context } } : {}) };
    const r = await session.client.complete(params, { signal, ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}) });
    return r.completion.values.slice(0, MAX_SUGGESTIONS);
  } catch (e) {
    if (e instanceof HostError) throw e;
    if (signal?.aborted && signal.reason instanceof HostError) throw signal.reason;
    throw new HostError('server', `${conn.name} could not complete ${c.argument.name} of ${what}: ${errorMessage(e)}`);
  } finally {
    limit.dispose();
  }
}
