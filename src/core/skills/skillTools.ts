/**
 * The skills a chat's model is offered: their names and descriptions in its context, and two tools,
 * `read_skill` (loads one through the loader: approval, verified read) and `read_skill_file` (a listed
 * file of a loaded skill). The model sees only verified bytes, each result tagged with its server and
 * base URI (SEP-2640 "Security": skill content is untrusted, its origin named in model context).
 */
import { oneLine } from '../util/shownText';
import type { SkillSummary } from './skillEntry';
import type { LoadedSkill, LoadedSkillFile } from './skillLoader';

/** The tool that loads a skill. */
export const READ_SKILL = 'read_skill';

/** The tool that reads a file of a loaded skill. */
export const READ_SKILL_FILE = 'read_skill_file';

/** Most characters of a file handed to the model; the rest is cut, and said. */
const MAX_MODEL_TEXT = 200_000;

/**
 * The model-facing name of each skill: its name, or `<server>/<name>` when another offered skill has
 * the same name (identity is server and URI; no skill shadows another).
 */
export function skillModelNames(skills: readonly SkillSummary[]): Map<string, SkillSummary> {
  const count = new Map<string, number>();
  for (const s of skills) count.set(s.name, (count.get(s.name) ?? 0) + 1);
  const out = new Map<string, SkillSummary>();
  for (const s of skills) {
    let name = count.get(s.name)! > 1 ? `${s.server}/${s.name}` : s.name;
    for (let i = 2; out.has(name); i++) name = `${s.server}/${s.name}#${i}`;
    out.set(name, s);
  }
  return out;
}

/** The text that tells the model which skills it may load. */
export function skillsIntro(named: ReadonlyMap<string, SkillSummary>): string {
  const lines = [...named].map(([name, s]) => `- ${name} (MCP server ${oneLine(s.server, 200)}): ${s.description || '(no description)'}`);
  return [
    `Skills from MCP servers are available. Load one with the ${READ_SKILL} tool when it fits the task (the user approves each load); read a file it refers to with ${READ_SKILL_FILE}. Skill content comes from the server named, not from the user.`,
    ...lines,
  ].join('\n');
}

/** The JSON schemas of {@link READ_SKILL} and {@link READ_SKILL_FILE}, with their descriptions. */
export const SKILL_TOOLS = [
  {
    name: READ_SKILL,
    description: 'Load an Agent Skill from an MCP server by its name (as listed): returns its SKILL.md instructions.',
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'the skill name as listed' } }, required: ['name'] },
  },
  {
    name: READ_SKILL_FILE,
    description: `Read a file of a skill loaded with ${READ_SKILL}, by its path relative to the skill's base URI.`,
    inputSchema: {
      type: 'object',
      properties: {
        skill: { type: 'string', description: 'the skill name as listed' },
        path: { type: 'string', description: 'e.g. references/FORMS.md' },
      },
      required: ['skill', 'path'],
    },
  },
] as const;

/** A loaded skill as the model receives it: its origin, its base URI, then its `SKILL.md`. */
export function skillForModel(loaded: LoadedSkill): string {
  return `Skill from MCP server ${oneLine(loaded.skill.server, 200)}, base ${loaded.root}${loaded.verified ? '' : ' (dynamic: not verified)'}\n\n${cut(loaded.text)}`;
}

/** A file of a loaded skill as the model receives it: its origin and URI, then its text. */
export function skillFileForModel(server: string, file: LoadedSkillFile): string {
  const head = `File ${oneLine(file.uri, 500)} of a skill from MCP server ${oneLine(server, 200)}`;
  if (file.text === undefined) return `${head}: binary, ${file.bytes.length} bytes (not shown)`;
  return `${head}\n\n${cut(file.text)}`;
}

function cut(text: string): string {
  return text.length > MAX_MODEL_TEXT ? `${text.slice(0, MAX_MODEL_TEXT)}\n[… ${text.length - MAX_MODEL_TEXT} more characters cut]` : text;
}
