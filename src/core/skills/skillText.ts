/**
 * What the person reads about a server's skill: the approval asked before it is loaded, and its line
 * and tooltip in the Servers view. Server text is flattened to single lines (it cannot forge a line of
 * the dialog) and bounded.
 *
 * Spec: the Skills extension (SEP-2640) "Security": approval names the skill and its origin; its
 * `allowed-tools` are never honoured without their own yes.
 */
import { oneLine } from '../util/shownText';
import { filesAndBytes, sizeText, type SkillSummary } from './skillEntry';
import type { SkillApprovalRequest } from './skillLoader';

/** The approval's button that loads the skill. */
export const LOAD_SKILL = 'Load Skill';

/** The approval's button that loads the skill and grants its `allowed-tools` (offered only when it asks for tools). */
export const LOAD_SKILL_ALLOW_TOOLS = 'Load Skill and Allow Its Tools';

/** Most files named in an approval or a tooltip; the rest are counted. */
const SHOWN_FILES = 20;

/** The approval's message (one line) and detail (the skill's files and what its frontmatter asks). */
export function approvalText(request: SkillApprovalRequest): { message: string; detail: string; buttons: string[] } {
  const s = request.skill;
  const message = `Load the skill "${s.name}" from the MCP server "${oneLine(s.server, 200)}"?`;
  const lines = [
    request.why === 'changed' ? 'Its files changed since you approved it.' : 'Its instructions will be given to the chat model.',
    s.description ? `Description: ${s.description}` : '',
    `Skill: ${oneLine(s.uri, 500)}`,
    `Files (${filesAndBytes(s)}):`,
    ...fileLines(s),
    s.allowedTools !== undefined
      ? `It asks to use these tools without asking: ${s.allowedTools}. They are allowed only with "${LOAD_SKILL_ALLOW_TOOLS}".`
      : '',
  ];
  return {
    message,
    detail: lines.filter(Boolean).join('\n'),
    buttons: s.allowedTools !== undefined ? [LOAD_SKILL, LOAD_SKILL_ALLOW_TOOLS] : [LOAD_SKILL],
  };
}

/**
 * The Servers view's line of a skill entry the host declined as invalid (the SDK's `SkillsClient`
 * refused it: a bad name, a file outside its directory, a repeated URI…): its URI and why. It is
 * never loaded.
 */
export function declinedLine(entry: { uri?: string; reason: string }): string {
  return `declined skill entry${entry.uri ? ` ${oneLine(entry.uri, 500)}` : ''}: ${oneLine(entry.reason, 500)}`;
}

/** The skill's description in the Servers view: its description, files and bytes, dynamic, disabled, refused. */
export function skillLine(s: SkillSummary, enabled: boolean): string {
  return [s.description, filesAndBytes(s), enabled ? '' : 'disabled', s.refused ? 'not loadable' : ''].filter(Boolean).join(' · ');
}

/** The skill's tooltip: its URI, files, and why it cannot be loaded. */
export function skillTooltip(s: SkillSummary): string {
  return [
    `${s.name} (skill of ${oneLine(s.server, 200)})`,
    oneLine(s.uri, 500),
    s.description,
    ...fileLines(s),
    s.allowedTools !== undefined ? `allowed-tools: ${s.allowedTools}` : '',
    s.refused ? `Not loaded: ${s.refused}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function fileLines(s: SkillSummary): string[] {
  if (s.files === 'dynamic') return ['  (dynamic: the server lists no files; they cannot be verified)'];
  const shown = s.files.slice(0, SHOWN_FILES).map((f) => `  ${oneLine(f.uri, 500)} (${sizeText(f.size)})`);
  return s.files.length > SHOWN_FILES ? [...shown, `  … and ${s.files.length - SHOWN_FILES} more`] : shown;
}
