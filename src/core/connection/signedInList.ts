/**
 * A server's listing as a {@link ServerConnection} gives it: connected first, within its own time
 * limit, the tools' header declarations remembered, and signed in and asked again when the server
 * wants a sign-in first.
 *
 * Spec: MCP 2026-07-28 "Authorization" (a refused request, a sign-in, the request again) and
 * "Transports", Streamable HTTP, custom headers (tools whose `x-mcp-header` declarations break a rule
 * are left out).
 */
import { SignInNeeded } from '../oauth/challenge';
import { optionalDeadline } from '../util/async';
import { HostError } from '../util/errors';
import type { ConnectionLifecycle } from './connectionLifecycle';
import type { ToolHeaders } from './toolHeaders';
import { mapListError } from './sdkErrors';
import { LIST_METHODS, type ListKind, type ListOptions } from './boundedList';

/**
 * List `kind` over the connection `lifecycle` keeps, signing in and asking again each time the server wants a sign-in first.
 * @throws what `ServerConnection.list` throws
 */
export async function listSigningIn(
  lifecycle: ConnectionLifecycle,
  headers: ToolHeaders,
  kind: ListKind,
  opts: ListOptions,
): Promise<unknown[]> {
  // Bounded: each sign-in counts against the operation's limit (`oauth/serverOAuth.ts`); the time a
  // person spends signing in is not the listing's, so each attempt has its own time limit.
  for (;;) {
    try {
      return await listOnce(lifecycle, headers, kind, opts);
    } catch (e) {
      if (!(e instanceof SignInNeeded)) throw e;
      await e.signIn(opts.signal);
    }
  }
}

/** One attempt: connected first, the whole within `opts.timeoutMs`. */
async function listOnce(lifecycle: ConnectionLifecycle, headers: ToolHeaders, kind: ListKind, opts: ListOptions): Promise<unknown[]> {
  const what = LIST_METHODS[kind];
  const limit = optionalDeadline(
    opts.signal,
    opts.timeoutMs,
    () => new HostError('timeLimit', `${what} on ${lifecycle.spec.name} exceeded its time limit of ${opts.timeoutMs} ms`),
  );
  const signal = limit.signal;
  try {
    const session = await lifecycle.connectedFor(signal);
    const items = await session.list(kind, { signal }, lifecycle.spec.name, () => lifecycle.diagnostics.bytesReceived);
    return kind === 'tools' && lifecycle.mirrorsHeaders ? headers.remember(items as { name: string; inputSchema?: unknown }[]) : items;
  } catch (e) {
    throw mapListError(e, lifecycle.diagnostics.failure(what, undefined, signal));
  } finally {
    limit.dispose();
  }
}
