/**
 * The skills the host knows, keyed by (server label, `SKILL.md` URI), built from `skills/list`
 * entries only: listing never reads a file (SEP-2640 "No prefetch").
 *
 * Spec: the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): "Discovery" (`skills/list`,
 * every page, `ttlMs`), "Skill entries" (invalid entries are never loaded), `skills/get` for a URI from
 * elsewhere; skills are resources, so `notifications/resources/list_changed` says they may have changed
 * (MCP 2026-07-28 "Subscriptions": asked for on a `subscriptions/listen` stream).
 */
import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { ServerConnection } from '../connection/serverConnection';
import { mapSdkError } from '../connection/sdkErrors';
import { HostError } from '../util/errors';
import { summarize, type SkillSummary } from './skillEntry';

/** The time limit of one skills request when the caller gives none, ms. */
export const SKILLS_REQUEST_TIMEOUT_MS = 60_000;

/** Options of one skills request. */
export interface SkillsRequestOptions {
  signal?: AbortSignal;
  /** Its time limit, connecting included, ms (default {@link SKILLS_REQUEST_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** One server's skills as listed. */
export interface ServerSkills {
  server: string;
  /** The server declared the Skills extension. False: no request was sent and `skills` is empty. */
  supported: boolean;
  /** The valid entries, in the server's order (over-limit ones included, with `refused` set). */
  skills: SkillSummary[];
  /** The entries the host refused as invalid, with why (never loaded). */
  invalid: { uri?: string; reason: string }[];
}

interface Held {
  client: Client;
  skills: SkillsClient;
  listing?: ServerSkills;
  /** When the listing goes stale, ms since the epoch (its `ttlMs`; 0 means at once). */
  staleAt?: number;
}

/**
 * The host's registry of skills, over every server. A server's listing is asked again after a
 * reconnect (another SDK client), after {@link invalidate} (the server said its list changed) and
 * once its `ttlMs` has passed.
 */
export class SkillRegistry {
  private readonly held = new Map<string, Held>();
  /** The connections whose list changes this registry follows. */
  private readonly watched = new WeakSet<ServerConnection>();

  /**
   * @param onListChanged told when a server said its resources changed (its listing is stale; a view
   *   lists it again)
   * @param now the clock of `ttlMs`, ms since the epoch
   */
  constructor(
    private readonly onListChanged?: (server: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The skills of `conn`, listed now or still fresh. Connects when needed; on a 2026-07-28 server that
   * declares `resources.listChanged`, first opens the stream of its resource list changes
   * ({@link ServerConnection.followChanges}), so that a change makes the listing stale.
   * @throws HostError naming the server: what connecting or `skills/list` failed with (a 2026-07-28
   *   page without `ttlMs`/`cacheScope` is `protocol`)
   */
  async list(conn: ServerConnection, opts: SkillsRequestOptions = {}): Promise<ServerSkills> {
    const held = await this.client(conn, opts);
    if (held.listing && held.staleAt !== undefined && this.now() < held.staleAt) return held.listing;
    if (!held.skills.supported) return { server: conn.name, supported: false, skills: [], invalid: [] };
    // Before listing: a change the server tells of after this listing then reaches the registry.
    await conn.followChanges('resources', { signal: opts.signal, timeoutMs: opts.timeoutMs ?? SKILLS_REQUEST_TIMEOUT_MS });
    const listing = await request(conn, 'skills/list', opts, (o) => held.skills.list(undefined, o));
    held.listing = {
      server: conn.name,
      supported: true,
      skills: listing.skills.map((s) => summarize(conn.name, s)),
      invalid: listing.invalid.map((i) => ({ uri: i.uri, reason: i.reason })),
    };
    held.staleAt = this.now() + (listing.ttlMs ?? 0);
    return held.listing;
  }

  /**
   * The skill of `conn` whose `SKILL.md` is `uri`, confirmed with `skills/get` (a URI from the
   * person, instructions or another skill: a scheme alone never makes a skill).
   * @throws HostError `usage` when the server does not declare skills; the server's error (-32602:
   *   not a skill it serves) as `server`
   */
  async get(conn: ServerConnection, uri: string, opts: SkillsRequestOptions = {}): Promise<SkillSummary> {
    const held = await this.client(conn, opts);
    if (!held.skills.supported)
      throw new HostError('usage', `${conn.name} does not serve skills (it does not declare the Skills extension)`);
    const { skill } = await request(conn, `skills/get ${uri}`, opts, (o) => held.skills.get(uri, o));
    return summarize(conn.name, skill);
  }

  /** Forget `server`'s listing: the next {@link list} asks again (its list changed). */
  invalidate(server: string): void {
    const held = this.held.get(server);
    if (held) held.staleAt = undefined;
  }

  /**
   * The SDK's `SkillsClient` over `conn`'s current session (one per connection; a reconnect makes a
   * new one, so its listing is asked again). For the loader's verified reads.
   */
  async skillsClient(conn: ServerConnection, opts: SkillsRequestOptions = {}): Promise<SkillsClient> {
    return (await this.client(conn, opts)).skills;
  }

  private async client(conn: ServerConnection, opts: SkillsRequestOptions): Promise<Held> {
    const session = await conn.ensureConnected(opts.signal);
    if (!this.watched.has(conn)) {
      this.watched.add(conn);
      // Skills are resources: a server whose resources changed may serve other skills (a 2025-era
      // server's push, a 2026-07-28 one's notification on the stream `list` opened; ttlMs bounds the rest).
      conn.onListChanged((list) => {
        if (list !== 'resources') return;
        this.invalidate(conn.name);
        this.onListChanged?.(conn.name);
      });
    }
    let held = this.held.get(conn.name);
    if (held?.client !== session.client) {
      const fresh: Held = { client: session.client, skills: new SkillsClient(session.client, { skipInvalid: true }) };
      held = fresh;
      this.held.set(conn.name, held);
    }
    return held;
  }
}

/**
 * One skills request with the call's limit and signal, its failure as a HostError naming the server.
 * Errors of the loader's own checks (`SkillVerificationError`) are left to the caller.
 */
export async function request<T>(
  conn: ServerConnection,
  what: string,
  opts: SkillsRequestOptions,
  send: (o: { signal?: AbortSignal; timeout: number }) => Promise<T>,
  keep: (e: unknown) => boolean = () => false,
): Promise<T> {
  try {
    return await send({ signal: opts.signal, timeout: opts.timeoutMs ?? SKILLS_REQUEST_TIMEOUT_MS });
  } catch (e) {
    if (keep(e)) throw e;
    throw mapSdkError(e, { server: conn.name, what, signal: opts.signal, lastStderr: conn.stderrTail.at(-1) });
  }
}
