/**
 * Skills in `@roundtrip`: the enabled skills of the servers in chat offered to the chat's model (names
 * and descriptions in its context, `read_skill` and `read_skill_file` as tools), each load going
 * through the one loader, so through the approval modal and a verified read.
 */
import {
  READ_SKILL,
  READ_SKILL_FILE,
  SKILL_TOOLS,
  skillFileForModel,
  skillForModel,
  skillModelNames,
  skillsIntro,
} from '../../core/skills/skillTools';
import type { SkillSummary } from '../../core/skills/skillEntry';
import { isPlainObject } from '../../core/util/json';
import type { ServerEntry } from '../servers/serverEntry';
import type { ServerRegistry } from '../servers/serverRegistry';
import type { ServerSkills } from '../skills/serverSkills';

/** What one chat request offers the model: the intro text, the two tools, and how to run them. */
export interface SkillOffer {
  intro: string;
  tools: readonly { name: string; description: string; inputSchema: object }[];
  /** Whether `name` is one of the offer's tools. */
  handles(name: string): boolean;
  /**
   * Run a skill tool the model called. @returns the text for the model (the skill or file, tagged with
   * its server and base URI) and a line for the chat
   * @throws HostError as the loader refused (declined, verification failed, not loaded) or usage for an unknown skill
   */
  run(name: string, input: unknown, signal: AbortSignal): Promise<{ forModel: string; shown: string }>;
}

/** The skills of the servers in chat, for `@roundtrip`. */
export class ChatSkills {
  constructor(
    private readonly skills: ServerSkills,
    private readonly registry: ServerRegistry,
  ) {}

  /**
   * The offer of this request: every enabled, loadable skill of `entries` (a server whose skills
   * cannot be listed is left out); undefined when there is none.
   */
  async offer(entries: readonly ServerEntry[]): Promise<SkillOffer | undefined> {
    const listed: { skill: SkillSummary; entry: ServerEntry }[] = [];
    for (const entry of entries) {
      try {
        const conn = await this.registry.connection(entry);
        for (const n of await this.skills.nodes(conn, entry)) if (!n.skill.refused && this.skills.isEnabled(n.skill)) listed.push(n);
      } catch {
        /* its tools' listing says what is wrong with the server */
      }
    }
    if (!listed.length) return undefined;
    const named = skillModelNames(listed.map((l) => l.skill));
    const entryOf = (s: SkillSummary) => listed.find((l) => l.skill === s)!.entry;
    const find = (input: unknown, key: string) => {
      const name = isPlainObject(input) && typeof input[key] === 'string' ? input[key] : '';
      const skill = named.get(name);
      if (!skill) throw new Error(`there is no skill named ${JSON.stringify(name)}; the skills are: ${[...named.keys()].join(', ')}`);
      return skill;
    };
    return {
      intro: skillsIntro(named),
      tools: SKILL_TOOLS,
      handles: (name) => name === READ_SKILL || name === READ_SKILL_FILE,
      run: async (name, input, signal) => {
        const key = name === READ_SKILL ? 'name' : 'skill';
        const skill = find(input, key);
        const conn = await this.registry.connection(entryOf(skill));
        if (name === READ_SKILL) {
          const loaded = await this.skills.loader.load(conn, skill.uri, { signal });
          return { forModel: skillForModel(loaded), shown: `Loaded the skill ${skill.name} from ${skill.server}` };
        }
        const path = isPlainObject(input) && typeof input.path === 'string' ? input.path : '';
        if (!path) throw new Error('read_skill_file needs the path of a file of the skill');
        const file = await this.skills.loader.readFile(conn, skill.uri, path, { signal });
        return { forModel: skillFileForModel(skill.server, file), shown: `Read ${file.uri} of the skill ${skill.name} (${skill.server})` };
      },
    };
  }
}
