/**
 * What the CLI reaches beyond calls: listings (App-only tools left out, an empty one said on stderr),
 * resource templates expanded for `read`, `completion/complete`, and a result shown once.
 *
 * Spec: MCP 2026-07-28 "Resources" (resource templates, RFC 6570), "Completion", "Tools" (structured content).
 */
import { UriTemplate } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../core/connection/serverConnection';
import { callableTools } from '../core/connection/toolVisibility';
import { withoutRepeatedStructured } from '../core/results/structuredEcho';
import { deadline } from '../core/util/async';
import { HostError, errorMessage } from '../core/util/errors';
import type { CompleteCommand } from './completeArgs';

/** The words a listing is named by in "<server> lists no …". */
const LISTED = { tools: 'tools', prompts: 'prompts', resources: 'resources', resourceTemplates: 'resource templates' } as const;

/** What a listing shows a person: the tools without the App-only ones; anything else as listed. */
export function shownItems(what: keyof typeof LISTED, items: Record<string, unknown>[]): Record<string, unknown>[] {
  return what === 'tools' ? callableTools(items) : items;
}

/** The stderr line of an empty listing, e.g. `server-everything lists no tools`. */
export function emptyListingLine(server: string, what: keyof typeof LISTED): string {
  return `${server} lists no ${LISTED[what]}`;
}

/**
 * The URI to read: `uri` itself, or with `args`, the URI template `uri` expanded (RFC 6570, the SDK's `UriTemplate`).
 * @throws HostError `usage` for a template that cannot be parsed, a variable it does not have, or a value that is no string or list of strings
 */
export function uriToRead(uri: string, args: Record<string, unknown> | undefined): string {
  if (args === undefined) return uri;
  let template: UriTemplate;
  try {
    template = new UriTemplate(uri);
  } catch (e) {
    throw new HostError('usage', `read ${uri}: not a URI template (${errorMessage(e)})`);
  }
  const names = template.variableNames;
  const vars: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(args)) {
    if (!names.includes(k))
      throw new HostError('usage', `read ${uri}: the template has no variable "${k}" (its variables: ${names.join(', ') || 'none'})`);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') vars[k] = String(v);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) vars[k] = v;
    else throw new HostError('usage', `read ${uri}: "${k}" needs a string or a list of strings`);
  }
  return template.expand(vars);
}

/** The result as a person sees it: a tool's `structuredContent` left out when it only repeats a text block (`--json` keeps everything). */
export function shownResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
  return method === 'tools/call' ? withoutRepeatedStructured(result) : result;
}

/** Most suggestions printed (the spec caps a response at 100). */
const MAX_SUGGESTIONS = 100;

/**
 * Send `completion/complete` for a prompt argument or a template variable.
 * @returns the suggestions, at most 100, each as given
 * @throws HostError `server` when the server has no `completions` capability or answers an error;
 *   `timeLimit` past `timeoutMs`; `cancelled` when `signal` aborts
 */
export async function complete(
  conn: ServerConnection,
  c: Pick<CompleteCommand, 'ref' | 'argument' | 'context'>,
  opts: { signal?: AbortSignal; timeoutMs?: number },
): Promise<string[]> {
  const what = c.ref.type === 'ref/prompt' ? `prompt ${c.ref.name}` : `template ${c.ref.uri}`;
  const limit =
    opts.timeoutMs === undefined
      ? undefined
      : deadline(
          opts.signal,
          opts.timeoutMs,
          () => new HostError('timeLimit', `completion/complete on ${conn.name} exceeded ${opts.timeoutMs} ms`),
        );
  const signal = limit?.signal ?? opts.signal;
  try {
    const session = await conn.ensureConnected(signal);
    if (!conn.serverCapabilities?.completions)
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
    limit?.dispose();
  }
}
