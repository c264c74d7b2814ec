/**
 * A server's skill as the host holds it: the `skills/list` (or `skills/get`) entry, never its files,
 * with what the person is shown before loading it and the checks made from the entry alone.
 *
 * Spec: the Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): "Skill entries", "Limits"
 * (a host accepts up to 512 files and 16 MiB per skill and checks them from the entry, before any read).
 */
import { createHash } from 'node:crypto';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { oneLine } from '../util/shownText';

/** Most files one skill may list for the host to load it (SEP-2640 "Limits"). */
export const MAX_SKILL_FILES = 512;

/** Most bytes (the sum of the listed `size`s) one skill may hold for the host to load it (SEP-2640 "Limits"). */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** Longest name or description of a skill shown in a list, a tree or an approval, in characters. */
const SHOWN_TEXT = 1000;

/** One listed file of a skill: its URI, size in bytes and `sha256:` digest. */
export interface SkillFileInfo {
  uri: string;
  size: number;
  digest: string;
}

/**
 * A skill of one server, from its entry only (no file was read to build it). Identity is
 * (`server`, `uri`): two servers may serve skills of the same name.
 */
export interface SkillSummary {
  /** The host's label of the server that serves it. */
  server: string;
  /** The URI of its `SKILL.md`. */
  uri: string;
  /** `frontmatter.name`, on one line. */
  name: string;
  /** `frontmatter.description`, on one line (empty when absent). */
  description: string;
  /** Its listed files, `SKILL.md` included; `'dynamic'` when the server lists none (each read is then unverified). */
  files: readonly SkillFileInfo[] | 'dynamic';
  /** The sum of the listed sizes, bytes (0 for a dynamic skill). */
  bytes: number;
  /** `frontmatter['allowed-tools']` as written, when it asks for tools (never honoured without its own yes). */
  allowedTools?: string;
  /** Why the host will not load it (over a limit), or undefined. */
  refused?: string;
  /** The entry as the server sent it (verified reads need it). */
  entry: Skill;
}

/** The summary of `entry` served by `server`, with the limits checked. */
export function summarize(server: string, entry: Skill): SkillSummary {
  const fm = entry.frontmatter as Record<string, unknown>;
  const files = entry.resources === 'dynamic' ? 'dynamic' : entry.resources.map((r) => ({ uri: r.uri, size: r.size, digest: r.digest }));
  const bytes = files === 'dynamic' ? 0 : files.reduce((n, f) => n + f.size, 0);
  const tools = fm['allowed-tools'];
  return {
    server,
    uri: entry.uri,
    name: oneLine(String(fm.name ?? ''), SHOWN_TEXT),
    description: typeof fm.description === 'string' ? oneLine(fm.description, SHOWN_TEXT) : '',
    files,
    bytes,
    allowedTools:
      tools === undefined || tools === null ? undefined : oneLine(Array.isArray(tools) ? tools.join(' ') : String(tools), SHOWN_TEXT),
    refused: limitRefusal(files, bytes),
    entry,
  };
}

/** Why a skill of these files is over a limit, or undefined (SEP-2640 "Limits"). */
function limitRefusal(files: SkillSummary['files'], bytes: number): string | undefined {
  if (files === 'dynamic') return undefined;
  if (files.length > MAX_SKILL_FILES) return `it lists ${files.length} files; the host loads at most ${MAX_SKILL_FILES}`;
  if (bytes > MAX_SKILL_BYTES) return `its files hold ${bytes} bytes; the host loads at most ${MAX_SKILL_BYTES} (16 MiB)`;
  return undefined;
}

/**
 * The key an approval is bound to: a hash of the skill's sorted `{uri, digest}` set. Another set (a
 * file added, removed or changed) is another key, so it is asked again; a dynamic skill has no set
 * and its key says so (its approval still binds to its URI).
 */
export function fileSetKey(skill: Pick<SkillSummary, 'uri' | 'files'>): string {
  if (skill.files === 'dynamic') return `dynamic:${skill.uri}`;
  const lines = skill.files.map((f) => `${f.uri}\n${f.digest}`).sort();
  return 'sha256:' + createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** "3 files, 4.1 KiB" (or "dynamic files"), for lists and approvals. */
export function filesAndBytes(skill: Pick<SkillSummary, 'files' | 'bytes'>): string {
  if (skill.files === 'dynamic') return 'dynamic files';
  const n = skill.files.length;
  return `${n} file${n === 1 ? '' : 's'}, ${sizeText(skill.bytes)}`;
}

/** A size in bytes as people read it: `962 B`, `4.1 KiB`, `2.0 MiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The skill's root, the URI its files are relative to: the `SKILL.md` URI without its last segment. */
export function skillRoot(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}
