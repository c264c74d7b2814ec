/**
 * `mcp-roundtrip skills` and `mcp-roundtrip skill <name|uri> [--file <ref>]`: a server's skills
 * (SEP-2640) on the same core as the extension (the registry and the one loader).
 *
 * Naming a skill on the command line is the person's approval to load it; its `allowed-tools` are
 * never granted here. A file that fails verification prints nothing on stdout: the error names the
 * file and the reason, exit 1.
 */
import type { ServerConnection } from '../core/connection/serverConnection';
import { filesAndBytes, type SkillSummary } from '../core/skills/skillEntry';
import { SkillLoader } from '../core/skills/skillLoader';
import { SkillRegistry, type SkillsRequestOptions } from '../core/skills/skillRegistry';
import { oneLine } from '../core/util/shownText';
import { terminalText } from './terminalText';

/** Where the command writes, and how. */
export interface SkillsCommandIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdoutIsTTY?: boolean;
  json: boolean;
}

/**
 * `skills`: one line a skill, `name<TAB>uri<TAB>N files<TAB>B bytes` (`dynamic` for a skill that lists
 * no files), ` (not loaded: why)` after one over a limit; refused entries on stderr. `--json`: an array.
 * @returns the exit code (0)
 * @throws HostError as the listing failed
 */
export async function listSkillsCommand(conn: ServerConnection, io: SkillsCommandIo, opts: SkillsRequestOptions): Promise<number> {
  const listing = await new SkillRegistry().list(conn, opts);
  if (!listing.supported) io.stderr.write(`mcp-roundtrip: ${conn.name} does not serve skills (it does not declare the Skills extension)\n`);
  else if (!listing.skills.length) io.stderr.write(`mcp-roundtrip: ${conn.name} lists no skills\n`);
  for (const i of listing.invalid)
    io.stderr.write(
      `mcp-roundtrip: warning: a skill entry${i.uri ? ` ${oneLine(i.uri, 500)}` : ''} was refused: ${oneLine(i.reason, 500)}\n`,
    );
  if (io.json) {
    io.stdout.write(JSON.stringify(listing.skills.map(shown), null, 2) + '\n');
    return 0;
  }
  for (const s of listing.skills) io.stdout.write(skillLine(s) + '\n');
  return 0;
}

/**
 * `skill <name|uri> [--file <ref>]`: load the skill through the loader and print its `SKILL.md`
 * (or the file `ref`, listed in its entry), exactly as read; on a terminal, as safe text.
 * @returns the exit code (0)
 * @throws HostError: `usage` for an unknown or over-limit skill; `SkillRefused` (kind `protocol`,
 *   exit 1) for a file that failed verification
 */
export async function readSkillCommand(
  conn: ServerConnection,
  ref: string,
  file: string | undefined,
  io: SkillsCommandIo,
  opts: SkillsRequestOptions,
): Promise<number> {
  const loader = new SkillLoader(new SkillRegistry(), async () => ({ load: true, allowTools: false }));
  const loaded = await loader.load(conn, ref, opts);
  const out =
    file === undefined
      ? { uri: loaded.skill.uri, text: loaded.text, verified: loaded.verified }
      : await loader.readFile(conn, loaded.skill.uri, file, opts);
  if (!out.verified) io.stderr.write(`mcp-roundtrip: warning: ${oneLine(out.uri, 500)} is not verified (the skill's files are dynamic)\n`);
  if (io.json) {
    io.stdout.write(
      JSON.stringify({ server: conn.name, skill: loaded.skill.uri, uri: out.uri, verified: out.verified, text: out.text }, null, 2) + '\n',
    );
    return 0;
  }
  if (out.text === undefined && 'bytes' in out) {
    io.stdout.write(out.bytes);
    return 0;
  }
  const text = out.text ?? '';
  io.stdout.write(io.stdoutIsTTY ? terminalText(text, '') + '\n' : text);
  return 0;
}

function skillLine(s: SkillSummary): string {
  const n = s.files === 'dynamic' ? 0 : s.files.length;
  const files = s.files === 'dynamic' ? 'dynamic' : `${n} file${n === 1 ? '' : 's'}\t${s.bytes} bytes`;
  return `${s.name}\t${oneLine(s.uri, 2000)}\t${files}${s.refused ? ` (not loaded: ${s.refused})` : ''}`;
}

function shown(s: SkillSummary) {
  return {
    name: s.name,
    uri: s.uri,
    description: s.description,
    files: s.files === 'dynamic' ? 'dynamic' : s.files.length,
    bytes: s.bytes,
    size: filesAndBytes(s),
    ...(s.refused ? { refused: s.refused } : {}),
  };
}
