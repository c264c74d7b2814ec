/**
 * The one path by which a server's skill is loaded: entry → the person's approval, bound to the
 * skill's `{uri, digest}` set → a verified read of `SKILL.md` → the skill is active; its other files
 * only through the active entry, only from its server. A plain `resources/read` of a `SKILL.md` is not
 * a load and never comes here.
 *
 * Spec: the Skills extension (SEP-2640): "Loading" (no prefetch; `SKILL.md` read when loaded),
 * "Verification" (size, digest, frontmatter; on failure nothing is used and `skills/get` recovers),
 * "Security" (approval per skill, bound to its file set; `allowed-tools` needs its own yes).
 */
import { SkillVerificationError, type SkillFile } from '@modelcontextprotocol/client/ext/skills';
import type { ServerConnection } from '../connection/serverConnection';
import { HostError, errorMessage } from '../util/errors';
import { oneLine } from '../util/shownText';
import { fileSetKey, skillRoot, type SkillSummary } from './skillEntry';
import { request, type SkillRegistry, type SkillsRequestOptions } from './skillRegistry';

/** Why a file failed verification (the SDK's reasons). */
export type SkillRefusalReason = SkillVerificationError['reason'];

/** A skill the host would not load: a file failed verification, even after one `skills/get` refresh. */
export class SkillRefused extends HostError {
  /**
   * @param reason what failed: `size`, `digest`, `frontmatter` or `unlisted`
   * @param uri the file that failed
   */
  constructor(
    readonly reason: SkillRefusalReason,
    readonly uri: string,
    message: string,
  ) {
    super('protocol', message);
  }
}

/** What the person is asked before a skill is loaded. */
export interface SkillApprovalRequest {
  skill: SkillSummary;
  /** `first`: never approved with these files; `changed`: approved before, but its files changed since. */
  why: 'first' | 'changed';
}

/** The person's answer: load it or not, and whether its `allowed-tools` are granted (asked separately). */
export interface SkillApproval {
  load: boolean;
  allowTools?: boolean;
}

/** Asks the person (a modal in VS Code). Never called for a skill already approved with the same files. */
export type SkillApprover = (request: SkillApprovalRequest) => Promise<SkillApproval>;

/** A loaded skill: its `SKILL.md`, verified, and where it comes from (for the model: server and base URI). */
export interface LoadedSkill {
  skill: SkillSummary;
  /** The whole `SKILL.md` as read. */
  text: string;
  /** The markdown after the frontmatter. */
  body: string;
  /** Size and digest were checked (false only for a dynamic skill, whose frontmatter still was). */
  verified: boolean;
  /** The base URI its relative references resolve against. */
  root: string;
  /** The person granted its `allowed-tools`. */
  toolsAllowed: boolean;
}

/** One supporting file of an active skill, verified. */
export interface LoadedSkillFile {
  uri: string;
  mimeType?: string;
  bytes: Uint8Array;
  text?: string;
  verified: boolean;
}

/**
 * Loads skills for one host (VS Code, chat, the CLI or the conformance adapter), caching in memory
 * what it read by (server, uri, digest) and holding each server's active skills.
 */
export class SkillLoader {
  /** Approved file sets, by server and `SKILL.md` URI: the {@link fileSetKey} and the tools answer. */
  private readonly approved = new Map<string, { key: string; allowTools: boolean }>();
  /** Active skills, by server and `SKILL.md` URI. */
  private readonly active = new Map<string, SkillSummary>();
  /** Verified files, by server, uri and digest. */
  private readonly cache = new Map<string, SkillFile>();

  constructor(
    private readonly registry: SkillRegistry,
    private readonly approve: SkillApprover,
  ) {}

  /**
   * Find `ref` (a skill name or a `SKILL.md` URI) among `conn`'s skills: a listed name or URI, else a
   * URI confirmed with `skills/get`.
   * @throws HostError `usage` for a name no listed skill has, or one several have (their URIs named)
   */
  async find(conn: ServerConnection, ref: string, opts: SkillsRequestOptions = {}): Promise<SkillSummary> {
    const listing = await this.registry.list(conn, opts);
    if (!listing.supported) throw new HostError('usage', `${conn.name} does not serve skills (it does not declare the Skills extension)`);
    const byUri = listing.skills.find((s) => s.uri === ref);
    if (byUri) return byUri;
    if (ref.includes('://')) {
      try {
        return await this.registry.get(conn, ref, opts);
      } catch (e) {
        // The server's "invalid params": it serves no skill there, which is the caller's word to correct.
        if (e instanceof HostError && e.kind === 'server' && e.code === -32602)
          throw new HostError('usage', `${conn.name} serves no skill at ${oneLine(ref, 200)} (it answered: ${oneLine(e.message, 300)})`);
        throw e;
      }
    }
    const named = listing.skills.filter((s) => s.name === ref);
    if (named.length === 1) return named[0];
    if (named.length > 1)
      throw new HostError(
        'usage',
        `${conn.name} serves ${named.length} skills named ${oneLine(ref, 200)}; name one by its URI: ${named.map((s) => s.uri).join(', ')}`,
      );
    const names = listing.skills.map((s) => s.name).join(', ');
    throw new HostError('usage', `${conn.name} serves no skill named ${oneLine(ref, 200)}${names ? ` (it serves: ${names})` : ''}`);
  }

  /**
   * Load `ref` from `conn`: approval (asked when these files were never approved), then a verified read
   * of `SKILL.md`. A failed verification uses nothing; the entry is asked again once with `skills/get`:
   * the same files → refused; other files → asked again, then read once more.
   * @throws HostError `usage` for an over-limit skill (naming the limit) or an unknown one; `declined`
   *   when the person says no; {@link SkillRefused} when a file fails verification
   */
  async load(conn: ServerConnection, ref: string, opts: SkillsRequestOptions = {}): Promise<LoadedSkill> {
    let skill = await this.find(conn, ref, opts);
    for (let attempt = 0; ; attempt++) {
      checkLimits(conn, skill);
      const toolsAllowed = await this.approval(skill);
      try {
        const file = await this.read(conn, skill, undefined, opts);
        this.active.set(key(conn.name, skill.uri), skill);
        return loadedOf(skill, file, toolsAllowed);
      } catch (e) {
        if (!(e instanceof SkillVerificationError)) throw e;
        this.active.delete(key(conn.name, skill.uri));
        skill = await this.refreshed(conn, skill, e, attempt, opts);
      }
    }
  }

  /**
   * Read `ref`'s `SKILL.md`, verified, for the person to look at (Inspect Skill): no approval is asked
   * and the skill does not become active (nothing reaches a model). Same checks and refresh as {@link load}.
   * @throws HostError `usage` for an over-limit or unknown skill; {@link SkillRefused} when it fails verification
   */
  async inspect(conn: ServerConnection, ref: string, opts: SkillsRequestOptions = {}): Promise<LoadedSkill> {
    let skill = await this.find(conn, ref, opts);
    for (let attempt = 0; ; attempt++) {
      checkLimits(conn, skill);
      try {
        return loadedOf(skill, await this.read(conn, skill, undefined, opts), false);
      } catch (e) {
        if (!(e instanceof SkillVerificationError)) throw e;
        skill = await this.refreshed(conn, skill, e, attempt, opts);
      }
    }
  }

  /**
   * After a failed verification: the entry asked again with `skills/get`, when this was the first
   * attempt and its files changed. @throws SkillRefused otherwise (the same files, a second failure,
   * or a refresh that failed)
   */
  private async refreshed(
    conn: ServerConnection,
    skill: SkillSummary,
    e: SkillVerificationError,
    attempt: number,
    opts: SkillsRequestOptions,
  ): Promise<SkillSummary> {
    if (attempt > 0) throw refusal(conn.name, skill, e);
    // The refresh may fail too (a server without skills/get): the verification failure is the reason given.
    const fresh = await this.registry.get(conn, skill.uri, opts).catch((g: unknown) => {
      throw refusal(conn.name, skill, e, `; asking skills/get for a fresh entry failed: ${errorMessage(g)}`);
    });
    if (fileSetKey(fresh) === fileSetKey(skill)) throw refusal(conn.name, skill, e);
    // The listing that gave the stale entry is stale too.
    this.registry.invalidate(conn.name);
    return fresh;
  }

  /**
   * Read `ref` (relative to the skill's root, or an absolute URI) of the active skill `skillUri` of
   * `conn`, verified; only a file its entry lists (any file of a dynamic skill, unverified).
   * @throws HostError `usage` when that skill is not active (load it first); {@link SkillRefused} for a
   *   file not listed or one that fails verification
   */
  async readFile(conn: ServerConnection, skillUri: string, ref: string, opts: SkillsRequestOptions = {}): Promise<LoadedSkillFile> {
    const skill = this.active.get(key(conn.name, skillUri));
    if (!skill)
      throw new HostError('usage', `The skill ${oneLine(skillUri, 300)} of ${conn.name} is not loaded; load it before reading its files`);
    try {
      const f = await this.read(conn, skill, ref, opts);
      return { uri: f.uri, mimeType: f.mimeType, bytes: f.bytes, text: f.text, verified: f.verified };
    } catch (e) {
      if (e instanceof SkillVerificationError) throw refusal(conn.name, skill, e);
      throw e;
    }
  }

  /** The active skills of `server` (loaded and verified), in load order. */
  activeSkills(server: string): SkillSummary[] {
    return [...this.active.values()].filter((s) => s.server === server);
  }

  /** Forget `server`'s active skills and cached files (it was removed or restarted). */
  forget(server: string): void {
    for (const map of [this.active, this.cache, this.approved] as Map<string, unknown>[])
      for (const k of map.keys()) if (k.startsWith(`${server}\n`)) map.delete(k);
  }

  /**
   * Ask for approval unless these very files were approved. A dynamic skill lists no `{uri, digest}`
   * set to bind an approval to (its files may differ at each read), so it is asked at each load.
   * @returns whether its tools are allowed
   */
  private async approval(skill: SkillSummary): Promise<boolean> {
    const k = key(skill.server, skill.uri);
    const setKey = fileSetKey(skill);
    const before = this.approved.get(k);
    if (before?.key === setKey) return before.allowTools;
    const answer = await this.approve({ skill, why: before ? 'changed' : 'first' });
    if (!answer.load) throw new HostError('declined', `Loading the skill ${skill.name} of ${skill.server} was declined`);
    const allowTools = skill.allowedTools !== undefined && answer.allowTools === true;
    if (skill.files !== 'dynamic') this.approved.set(k, { key: setKey, allowTools });
    return allowTools;
  }

  /** One verified read, from the cache when these bytes (same digest) were read before. */
  private async read(conn: ServerConnection, skill: SkillSummary, ref: string | undefined, opts: SkillsRequestOptions): Promise<SkillFile> {
    let target: string;
    try {
      target = ref === undefined ? skill.uri : new URL(ref, skillRoot(skill.uri)).href;
    } catch {
      throw new HostError(
        'usage',
        `${JSON.stringify(ref!.slice(0, 200))} names no file of the skill ${skill.name} of ${skill.server}: give a path inside the skill (e.g. references/guide.md) or a URI it lists`,
      );
    }
    const listed = skill.files === 'dynamic' ? undefined : skill.files.find((f) => f.uri === target);
    const cacheKey = listed && `${key(conn.name, listed.uri)}\n${listed.digest}`;
    const cached = cacheKey && this.cache.get(cacheKey);
    if (cached) return cached;
    const client = await this.registry.skillsClient(conn, opts);
    const file = await request(
      conn,
      `resources/read ${target}`,
      opts,
      (o) => client.read(skill.entry, ref, o),
      (e) => e instanceof SkillVerificationError,
    );
    if (cacheKey && file.verified) this.cache.set(cacheKey, file);
    return file;
  }
}

/** @throws HostError `usage` for a skill over the host's limits (checked from its entry, before any read) */
function checkLimits(conn: ServerConnection, skill: SkillSummary): void {
  if (skill.refused) throw new HostError('usage', `The skill ${skill.name} of ${conn.name} is not loaded: ${skill.refused}`);
}

function loadedOf(skill: SkillSummary, file: SkillFile, toolsAllowed: boolean): LoadedSkill {
  return {
    skill,
    text: file.text ?? new TextDecoder().decode(file.bytes),
    body: file.body ?? '',
    verified: file.verified,
    root: skillRoot(skill.uri),
    toolsAllowed,
  };
}

function key(server: string, uri: string): string {
  return `${server}\n${uri}`;
}

function refusal(server: string, skill: SkillSummary, e: SkillVerificationError, more = ''): SkillRefused {
  return new SkillRefused(
    e.reason,
    e.uri,
    `The skill ${skill.name} of ${server} was refused: ${e.uri} failed verification (${e.reason}): ${oneLine(e.message, 1000)}${oneLine(more, 1000)}`,
  );
}
