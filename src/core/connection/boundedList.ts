/**
 * A server's list (tools, prompts, resources, resource templates) walked page by page within the
 * host's bounds, each page read raw from the wire tap and checked against the spec's type once it fits.
 *
 * Spec: MCP 2026-07-28 "Pagination" (`cursor`, `nextCursor`) and the list results of "Tools",
 * "Prompts" and "Resources".
 */
import { specTypeSchemas, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { MAX_LIST_BYTES, MAX_LIST_ITEMS, MAX_LIST_PAGES } from '../limits';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import type { LegRecord } from '../transport/legResult';

/** The list requests, by what they list. */
export const LIST_METHODS = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
} as const;

/** What a server can list. */
export type ListKind = keyof typeof LIST_METHODS;

/** Options of one list request. */
export interface ListOptions {
  signal?: AbortSignal;
  /** Time limit of each page, ms (default the SDK's 60000). */
  timeoutMs?: number;
}

/** What each list result holds its items under, the spec type of a page, and the server capability it needs. */
const LISTS = {
  tools: { items: 'tools', page: 'ListToolsResult', capability: 'tools' },
  prompts: { items: 'prompts', page: 'ListPromptsResult', capability: 'prompts' },
  resources: { items: 'resources', page: 'ListResourcesResult', capability: 'resources' },
  resourceTemplates: { items: 'resourceTemplates', page: 'ListResourceTemplatesResult', capability: 'resources' },
} as const;

const MIB = 1024 * 1024;

/** How {@link boundedList} reaches the server: through the session's tracked requests. */
export interface ListRoute {
  /** The server's declared capabilities (`undefined` before the handshake). */
  capabilities(): Record<string, unknown> | undefined;
  /**
   * Send one page request whose raw result the tap records.
   * @returns the leg (its raw result once answered) and the SDK's promise
   */
  request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: { signal?: AbortSignal; timeout?: number },
  ): { leg: LegRecord; pending: Promise<unknown> };
  /** Forget a leg once its page arrived or failed. */
  release(leg: LegRecord): void;
}

/** The first issue of a schema check, as "path: message". */
function firstIssue(issues: readonly StandardSchemaV1.Issue[]): string {
  const i = issues[0];
  const path = (i.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.');
  return `${path || '(result)'}: ${i.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`;
}

/**
 * List every item of `kind`, page by page, within the host's bounds: at most
 * {@link MAX_LIST_ITEMS} items, {@link MAX_LIST_BYTES} received and {@link MAX_LIST_PAGES} pages
 * (the SDK's own walk has only a page bound, and validates a page of any size before anything
 * can stop it). Each page is checked against the spec's type once it fits.
 * @param bytesRead the count of bytes the server sent so far (the transport keeps it)
 * @throws HostError `protocol` naming the bound or the fault of a page; what the SDK throws
 */
export async function boundedList(
  route: ListRoute,
  kind: ListKind,
  opts: ListOptions,
  server: string,
  bytesRead: () => number,
): Promise<unknown[]> {
  const { items: key, page: pageType, capability } = LISTS[kind];
  const method = LIST_METHODS[kind];
  // Like the SDK: a server that does not offer the capability has nothing to list.
  if (!route.capabilities()?.[capability]) return [];
  const options = { signal: opts.signal, ...(opts.timeoutMs !== undefined ? { timeout: opts.timeoutMs } : {}) };
  const bad = (why: string) => new HostError('protocol', `${server} sent an invalid result for ${method}: ${why}`);
  const start = bytesRead();
  const all: unknown[] = [];
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const { leg, pending } = route.request(method, cursor !== undefined ? { cursor } : undefined, options);
    try {
      await pending;
    } finally {
      route.release(leg);
    }
    // The raw page: the SDK saw a stand-in, so it spent nothing on a page of any size.
    const page = leg.rawResult;
    if (!isPlainObject(page)) throw bad('the result is not an object');
    const items = page[key];
    if (!Array.isArray(items)) throw bad(`${key} must be an array`);
    if (all.length + items.length > MAX_LIST_ITEMS)
      throw new HostError('protocol', `${server} listed more than ${MAX_LIST_ITEMS} ${key} in ${method} (MAX_LIST_ITEMS)`);
    if (bytesRead() - start > MAX_LIST_BYTES)
      throw new HostError('protocol', `${server} sent more than ${MAX_LIST_BYTES / MIB} MiB for ${method} (MAX_LIST_BYTES)`);
    const checked = specTypeSchemas[pageType]['~standard'].validate(page);
    if (checked instanceof Promise) throw bad('it cannot be checked');
    if (checked.issues) throw bad(firstIssue(checked.issues));
    for (const item of (checked.value as Record<string, unknown[]>)[key]) all.push(item);
    const next = page.nextCursor;
    if (next === undefined || next === cursor) return all;
    if (typeof next !== 'string') throw bad('nextCursor must be a string');
    if (pages >= MAX_LIST_PAGES)
      throw new HostError('protocol', `${server} kept paging ${method} past ${MAX_LIST_PAGES} pages (MAX_LIST_PAGES)`);
    cursor = next;
  }
}
