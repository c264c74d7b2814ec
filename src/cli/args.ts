/**
 * Command line of `mcp-roundtrip` (a contract other checks rely on):
 *
 *     mcp-roundtrip (--stdio "<command line>" | --http <url>) [--era auto|modern|legacy] [--header K=V]...
 *         tools | prompts | resources | templates   list them
 *         call <tool> [--args <json>] [--no-wait]   tools/call (a task is followed to its result)
 *         tasks get|cancel|result <taskId>   a task of that server
 *     mcp-roundtrip tasks list [--stdio ... | --http ...]   the tasks this CLI started (of that server)
 *         prompt <name> [--args <json>]       prompts/get
 *         read <uri> | read <uriTemplate> --args <json>   resources/read
 *         complete prompt <name> <argument> [<prefix>] [--context <json>]   completion/complete
 *         complete template <uriTemplate> <variable> [<prefix>] [--context <json>]
 *         skills                              the server's skills (SEP-2640): name, uri, files, bytes
 *         skill <name|uri> [--file <ref>]     a skill's SKILL.md (or one of its files), verified
 *     mcp-roundtrip run <name> [--calls <file>] [--args <json>] [--stdio ... | --http ...]   a saved call
 *       [--answers <file.json>] [--roots <dir>]... [--max-rounds N] [--timeout-ms N] [--leg-idle-ms N]
 *       [--log-level <level>] [--json] [--quiet] [--no-browser] [--oauth-store file|memory]
 *     mcp-roundtrip auth logout <server-url>   forget the sign-in kept for that server
 */
import { parseArgs } from 'node:util';
import { parse as parseShell } from 'shell-quote';
import type { EraSetting, ServerSpec } from '../core/connection/serverSpec';
import { MAX_TIMER_MS } from '../core/mrtr/callClock';
import { isPlainObject } from '../core/util/json';
import { CompleteUsageError, parseComplete, type CompleteCommand } from './completeArgs';
import { OAUTH_FLAG_OPTIONS, OAUTH_FLAGS_USAGE, oauthSettingsFromFlags } from './oauthFlags';
import { packageServerName } from './serverName';
import { DEFAULT_SERVER_LOG_LEVEL, LOG_LEVELS, type LogLevelName } from '../core/log/serverLogLevel';
import { CLI_LANGS, cliList, cliText, currentCliLang } from './messages';
import { USAGE_ZH_CN } from './messages.zh-cn';

export { LOG_LEVELS, type LogLevelName };

/** The CLI's usage text (printed by `--help`, and after a usage error). */
export const USAGE = `usage: mcp-roundtrip (--stdio "<command line>" | --http <url>) [--era auto|modern|legacy] [--header K=V]...
    tools | prompts | resources | templates   list them
    call <tool> [--args <json>]         tools/call (a task the server runs is followed to its result)
    tasks get|cancel|result <taskId>    a task's status, cancel it, or wait for its result
    tasks list                          the tasks this CLI started (without --stdio/--http: of every server)
    ping                                ping (a 2025-era server); said for a 2026-07-28 one, which has none
    prompt <name> [--args <json>]       prompts/get
    read <uri>                          resources/read
    read <uriTemplate> --args <json>    resources/read of the template expanded (RFC 6570)
    complete prompt <name> <argument> [<prefix>] [--context <json>]      completion/complete: one suggestion a line
    complete template <uriTemplate> <variable> [<prefix>] [--context <json>]
    skills                              the server's skills: name, uri, files, bytes
    skill <name|uri> [--file <ref>]     a skill's SKILL.md, or with --file one of its listed files, verified
  [--name <label>]         the server's name in the log (default: its package's name, or its command's)
mcp-roundtrip run <name> [--calls <file>] [--args <json>] [--stdio "<command line>" | --http <url>]
                                        a saved call of .vscode/mcp-calls.json (its server from .vscode/mcp.json)
  [--answers <file.json>]  scripted answers: {"<inputRequests key>": <ElicitResult | CreateMessageResult | ListRootsResult>}
  [--roots <dir>]...       directories answered to roots/list (default: none, and no roots capability declared)
  [--max-rounds N] [--timeout-ms N] [--json] [--verbose] [--help]
  [--leg-idle-ms N]        a leg fails after N ms without an answer or progress (default 60000)
  [--quiet]                no progress lines on stderr
  [--no-wait]              call: when the server runs the call as a task, print its id and exit 0
  [--log-level <level>]    the level of the server's log messages asked for (default info; shown with --verbose)
  [--no-browser]           sign-in: print the URL only, do not open a browser
  [--oauth-store file|memory]  where sign-ins are kept (default file: 0600, in the user's config directory)
  [--lang en|zh-cn]        the language of the CLI's prompts and notes (default: LC_ALL, LC_MESSAGES or LANG; zh_CN.UTF-8 is zh-cn)
${OAUTH_FLAGS_USAGE}
mcp-roundtrip auth logout <server-url>   forget the sign-in kept for that server`;

/** {@link USAGE} in the language the CLI speaks (`messages.ts`). */
export function usageText(): string {
  return currentCliLang() === 'zh-cn' ? USAGE_ZH_CN : USAGE;
}

/** A usage error: exit code 2 with the message and the usage text. */
export class UsageError extends Error {}

/** What the CLI was asked to do: list, call a tool, get a prompt, or read a resource. */
export type Command =
  | { kind: 'list'; what: 'tools' | 'prompts' | 'resources' | 'resourceTemplates' }
  | { kind: 'call'; name: string; args: Record<string, unknown> }
  | { kind: 'prompt'; name: string; args: Record<string, string> }
  /** `args`: the variables of a URI template (`read <uriTemplate> --args`), expanded before the read. */
  | { kind: 'read'; uri: string; args?: Record<string, unknown> }
  | CompleteCommand
  | { kind: 'logout'; url: string }
  /** `ping`: the server answers (`pingCommand.ts`). */
  | { kind: 'ping' }
  /** `skills`: list the server's skills (SEP-2640). */
  | { kind: 'skills' }
  /** `skill <name|uri> [--file <ref>]`: load a skill and print its `SKILL.md`, or `file` (relative to its root, or a URI). */
  | { kind: 'skill'; ref: string; file?: string }
  /** `tasks get|cancel|result <taskId>`: a task of the server (`core/tasks`). */
  | { kind: 'tasks'; action: 'get' | 'cancel' | 'result'; id: string }
  /** `tasks list`: the tasks this CLI started (kept in its config directory), of the server given or of all. */
  | { kind: 'tasksList' }
  /** A saved call (`core/history/savedCalls.ts`); `args` replace its arguments key by key. */
  | { kind: 'run'; name: string; args?: Record<string, unknown> };

/** The parsed command line (see {@link USAGE}); times in ms. */
export interface CliOptions {
  /** The server of `--stdio`/`--http` (for `auth logout`, an HTTP spec of the URL given); absent only for `run`, whose saved call names its server, and `tasks list`, which lists every server's. */
  server?: ServerSpec;
  command: Command;
  /** `--calls`: the saved-calls file of `run` (default `.vscode/mcp-calls.json` of the current directory). */
  callsFile?: string;
  answersFile?: string;
  /** `--roots` as given: none means no `roots` capability is declared (the server keeps its own directories). */
  roots: string[];
  maxRounds?: number;
  timeoutMs?: number;
  /** `--leg-idle-ms`: how long a leg may go without an answer or progress, ms. */
  legIdleMs?: number;
  /**
   * `--log-level`: asked of a 2026-07-28 server with each request's `_meta`, of a 2025-era server that
   * declares `logging` with `logging/setLevel` (default `info`).
   */
  logLevel: LogLevelName;
  json: boolean;
  verbose: boolean;
  /** `--quiet`: no progress lines on stderr. */
  quiet: boolean;
  /** `--no-wait` (call, run): a task the server creates is not followed; its id is printed. */
  noWait?: boolean;
  /** Open the browser for a sign-in (false with `--no-browser`). */
  openBrowser: boolean;
  /** Where sign-ins are kept. */
  oauthStore: 'file' | 'memory';
}

/**
 * A whole-number flag's value, written in decimal digits only, from `min` to `max`
 * (`--max-rounds 0`: a call that asks for input fails; a time limit of 0 could only fail).
 */
function wholeNumber(flag: string, v: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (v === undefined) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(cliText('{0} needs a whole number from {1} to {2}, got "{3}"', flag, min, max, v));
  return n;
}

function jsonObject(flag: string, v: string | undefined): Record<string, unknown> {
  if (v === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch (e) {
    throw new UsageError(cliText('{0} is not valid JSON: {1}', flag, (e as Error).message));
  }
  if (!isPlainObject(parsed)) throw new UsageError(cliText('{0} must be a JSON object', flag));
  return parsed;
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The `--header K=V` values as headers. @throws UsageError naming the first that is no header (a bad name; a value with CR, LF or NUL) */
function headersOf(given: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of given) {
    const i = h.indexOf('=');
    if (i <= 0) throw new UsageError(cliText('--header needs K=V, got {0}', JSON.stringify(h)));
    const name = h.slice(0, i).trim();
    const value = h.slice(i + 1);
    if (!HEADER_NAME.test(name))
      throw new UsageError(cliText("--header {0} is not a header name (letters, digits and !#$%&'*+.^_`|~- only)", JSON.stringify(name)));
    if (/[\r\n\0]/.test(value)) throw new UsageError(cliText('--header {0}: a header value cannot hold a line break or NUL', name));
    headers[name] = value;
  }
  return headers;
}

/**
 * The words of `--stdio`'s command line (quotes group, `$VAR` is the environment's), run without a shell.
 * @throws UsageError for shell operators or a quote left open
 */
function stdioWords(line: string): string[] {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && quote !== "'") i++;
    else if (quote ? c === quote : c === '"' || c === "'") quote = quote ? undefined : c;
  }
  if (quote) throw new UsageError(cliText('--stdio: the quote {0} is not closed in {1}', quote, JSON.stringify(line)));
  const words = parseShell(line, (key) => process.env[key] ?? '');
  if (words.some((w) => typeof w !== 'string'))
    throw new UsageError(cliText('--stdio takes a command line without shell operators (|, &&, >, ...)'));
  return words as string[];
}

/** Commands that run the server named by their first plain argument (a script or a package). */
const LAUNCHERS = new Set([
  'node',
  'nodejs',
  'npx',
  'bunx',
  'bun',
  'deno',
  'tsx',
  'ts-node',
  'python',
  'python3',
  'py',
  'uv',
  'uvx',
  'pipx',
  'docker',
  'podman',
]);

/**
 * The name a stdio server goes by in the log: the command's file name, or for a launcher
 * (`node`, `npx`, `python`, `uvx`...) the script or package it runs, e.g. `node dist/demo-server.js`
 * → `demo-server`, `npx -y @modelcontextprotocol/server-everything@latest` → `server-everything`.
 */
export function stdioServerName(command: string, args: readonly string[]): string {
  const base = (s: string) => s.split(/[\\/]/).pop() || s;
  const cmd = base(command).replace(/\.(exe|cmd|bat)$/i, '');
  if (!LAUNCHERS.has(cmd.toLowerCase())) return cmd;
  const target = args.find((a) => !a.startsWith('-') && !['run', 'exec', 'x', 'tool', '-m'].includes(a));
  if (!target) return cmd;
  const name = base(target.replace(/@[^@/]*$/, '').replace(/^@[^/]+\//, '')).replace(/\.(m?[jt]s|cjs|py)$/, '');
  return name || cmd;
}

/**
 * Node's `parseArgs` error in the CLI's words (its language): an unknown option, a value missing, or a
 * value given to a switch; anything else as Node says it. Node's message about an unknown option ends
 * with advice on '--' that reads as garbled here: it is cut to "(see --help)".
 */
function parseArgsMessage(e: Error): string {
  const m = e.message;
  let found: RegExpExecArray | null;
  if ((found = /^Unknown option '(.*)'\. To specify a positional argument starting with a '-'/s.exec(m)))
    return cliText("Unknown option '{0}' (see --help)", found[1]);
  if ((found = /^Option '(.*) <value>' argument missing$/s.exec(m))) return cliText("Option '{0} <value>' argument missing", found[1]);
  if ((found = /^Option '(.*)' does not take an argument$/s.exec(m))) return cliText("Option '{0}' does not take an argument", found[1]);
  if (
    (found =
      /^Option '(.*)' argument is ambiguous\.\nDid you forget to specify the option argument for '(.*)'\?\nTo specify an option argument starting with a dash use '(.*)'\.$/s.exec(
        m,
      ))
  )
    return cliText(
      "Option '{0}' argument is ambiguous.\nDid you forget to specify the option argument for '{1}'?\nTo specify an option argument starting with a dash use '{2}'.",
      found[1],
      found[2],
      found[3],
    );
  return m;
}

/**
 * Parse argv (without `node` and the script).
 * @throws UsageError naming what was wrong
 */
export function parseCli(argv: string[], cwd = process.cwd()): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        stdio: { type: 'string' },
        http: { type: 'string' },
        era: { type: 'string' },
        header: { type: 'string', multiple: true },
        args: { type: 'string' },
        answers: { type: 'string' },
        calls: { type: 'string' },
        name: { type: 'string' },
        context: { type: 'string' },
        file: { type: 'string' },
        roots: { type: 'string', multiple: true },
        'max-rounds': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'leg-idle-ms': { type: 'string' },
        'log-level': { type: 'string' },
        quiet: { type: 'boolean', default: false },
        'no-wait': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        'no-browser': { type: 'boolean', default: false },
        'oauth-store': { type: 'string' },
        lang: { type: 'string' },
        ...OAUTH_FLAG_OPTIONS,
        help: { type: 'boolean', default: false },
      },
    });
  } catch (e) {
    throw new UsageError(parseArgsMessage(e as Error));
  }
  const { values: v, positionals: pos } = parsed;
  if (v.help) throw new UsageError('');
  const oauthStore = (v['oauth-store'] ?? 'file') as CliOptions['oauthStore'];
  if (oauthStore !== 'file' && oauthStore !== 'memory')
    throw new UsageError(cliText('--oauth-store must be file or memory, got "{0}"', String(v['oauth-store'])));
  if (v.lang !== undefined && !(CLI_LANGS as readonly string[]).includes(v.lang.toLowerCase()))
    throw new UsageError(cliText('--lang must be one of {0}, got "{1}"', cliList(CLI_LANGS), v.lang));
  const logLevel = (v['log-level'] ?? DEFAULT_SERVER_LOG_LEVEL) as LogLevelName;
  if (!LOG_LEVELS.includes(logLevel))
    throw new UsageError(cliText('--log-level must be one of {0}, got "{1}"', cliList(LOG_LEVELS), String(v['log-level'])));
  const common = {
    roots: v.roots ?? [],
    json: v.json ?? false,
    verbose: v.verbose ?? false,
    quiet: v.quiet ?? false,
    logLevel,
    openBrowser: !v['no-browser'],
    oauthStore,
  };
  if (pos[0] === 'auth') return { ...common, ...parseAuthCommand(pos.slice(1), v.http) };
  const era = (v.era ?? 'auto') as EraSetting;
  if (!['auto', 'modern', 'legacy'].includes(era))
    throw new UsageError(cliText('--era must be auto, modern or legacy, got "{0}"', String(v.era)));
  const isRun = pos[0] === 'run';
  const isTasksList = pos[0] === 'tasks' && pos[1] === 'list';
  if (v.stdio && v.http) throw new UsageError(cliText('give exactly one of --stdio "<command line>" or --http <url>'));
  if (!v.stdio && !v.http && !isRun && !isTasksList)
    throw new UsageError(cliText('give exactly one of --stdio "<command line>" or --http <url>'));
  if (v.calls !== undefined && !isRun) throw new UsageError(cliText('--calls applies to run only'));
  let server: ServerSpec | undefined;
  if (v.stdio) {
    const [command, ...args] = stdioWords(v.stdio);
    if (!command) throw new UsageError(cliText('--stdio needs a command'));
    server = {
      transport: 'stdio',
      name: v.name ?? packageServerName(command, args, cwd) ?? stdioServerName(command, args),
      command,
      args,
      cwd,
      era,
    };
  } else if (v.http) {
    let url: URL;
    try {
      url = new URL(v.http);
    } catch {
      throw new UsageError(cliText('--http needs a URL, got "{0}"', v.http));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(cliText('--http needs an http(s) URL, got "{0}"', v.http));
    server = { transport: 'http', name: v.name ?? url.host, url: url.href, headers: headersOf(v.header ?? []), era };
  }
  if (v.header?.length && v.stdio) throw new UsageError(cliText('--header applies to --http only'));
  const oauth = oauthSettingsFromFlags(v, process.env, (m) => new UsageError(m));
  if (oauth && server?.transport !== 'http')
    throw new UsageError(cliText('the sign-in flags (--grant, --client-id, ...) apply to --http only'));
  if (oauth && server?.transport === 'http') server.oauth = oauth;
  const [verb, arg, ...extra] = pos;
  if (v.context !== undefined && verb !== 'complete') throw new UsageError(cliText('--context applies to complete only'));
  if (extra.length && verb !== 'complete' && !(verb === 'tasks' && extra.length === 1))
    throw new UsageError(cliText('unexpected argument "{0}"', extra[0]));
  let command: Command;
  switch (verb) {
    case 'tools':
    case 'prompts':
    case 'resources':
    case 'templates':
      if (arg !== undefined) throw new UsageError(cliText('{0} takes no argument', verb));
      command = { kind: 'list', what: verb === 'templates' ? 'resourceTemplates' : verb };
      break;
    case 'complete':
      command = completeCommand(pos.slice(1), v.context === undefined ? undefined : jsonObject('--context', v.context));
      break;
    case 'call':
      if (!arg) throw new UsageError(cliText('call needs a tool name'));
      command = { kind: 'call', name: arg, args: jsonObject('--args', v.args) };
      break;
    case 'prompt': {
      if (!arg) throw new UsageError(cliText('prompt needs a prompt name'));
      const args = jsonObject('--args', v.args);
      for (const [k, val] of Object.entries(args))
        if (typeof val !== 'string') throw new UsageError(cliText('prompt arguments are strings; "{0}" is {1}', k, typeof val));
      command = { kind: 'prompt', name: arg, args: args as Record<string, string> };
      break;
    }
    case 'read':
      if (!arg) throw new UsageError(cliText('read needs a resource URI'));
      command = { kind: 'read', uri: arg, ...(v.args !== undefined ? { args: jsonObject('--args', v.args) } : {}) };
      break;
    case 'skills':
      if (arg !== undefined) throw new UsageError(cliText('{0} takes no argument', 'skills'));
      command = { kind: 'skills' };
      break;
    case 'skill':
      if (!arg) throw new UsageError(cliText('skill needs a skill name or its SKILL.md URI'));
      command = { kind: 'skill', ref: arg, ...(v.file !== undefined ? { file: v.file } : {}) };
      break;
    case 'tasks':
      command = tasksCommand(arg, pos[2]);
      break;
    case 'ping':
      if (arg !== undefined) throw new UsageError(cliText('{0} takes no argument', 'ping'));
      command = { kind: 'ping' };
      break;
    case 'run':
      if (!arg) throw new UsageError(cliText('run needs the name of a saved call'));
      command = { kind: 'run', name: arg, ...(v.args !== undefined ? { args: jsonObject('--args', v.args) } : {}) };
      break;
    case undefined:
      throw new UsageError(
        cliText('missing command: tools, prompts, resources, templates, call, prompt, read, complete, skills, skill, tasks, ping or run'),
      );
    default:
      throw new UsageError(cliText('unknown command "{0}"', verb));
  }
  if (v.file !== undefined && command.kind !== 'skill') throw new UsageError(cliText('--file applies to skill only'));
  if (v.args !== undefined && !['call', 'prompt', 'run', 'read'].includes(command.kind))
    throw new UsageError(cliText('--args applies to call, prompt, read and run only'));
  if (v['no-wait'] && command.kind !== 'call' && command.kind !== 'run')
    throw new UsageError(cliText('--no-wait applies to call and run only'));
  return {
    ...common,
    server,
    command,
    ...(v['no-wait'] ? { noWait: true } : {}),
    ...(v.calls !== undefined ? { callsFile: v.calls } : {}),
    answersFile: v.answers,
    maxRounds: wholeNumber('--max-rounds', v['max-rounds'], 0),
    timeoutMs: wholeNumber('--timeout-ms', v['timeout-ms'], 1, MAX_TIMER_MS),
    legIdleMs: wholeNumber('--leg-idle-ms', v['leg-idle-ms'], 1, MAX_TIMER_MS),
  };
}

/** `tasks list` or `tasks get|cancel|result <taskId>`. */
function tasksCommand(action: string | undefined, id: string | undefined): Command {
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(cliText('{0} takes no argument', 'tasks list'));
    return { kind: 'tasksList' };
  }
  if (action !== 'get' && action !== 'cancel' && action !== 'result')
    throw new UsageError(
      action === undefined
        ? cliText('tasks needs a subcommand: list, or get, cancel or result <taskId>')
        : cliText('unknown tasks subcommand "{0}" (known: list, get, cancel, result)', action),
    );
  if (!id) throw new UsageError(cliText('tasks {0} needs a task id', action));
  return { kind: 'tasks', action, id };
}

/** {@link parseComplete}, its mistakes as usage errors. */
function completeCommand(words: string[], context: Record<string, unknown> | undefined): CompleteCommand {
  try {
    return parseComplete(words, context);
  } catch (e) {
    throw e instanceof CompleteUsageError ? new UsageError(e.message) : e;
  }
}

/** `auth logout <server-url>` (or `--http <url> auth logout`). */
function parseAuthCommand(rest: string[], http: string | undefined): Pick<CliOptions, 'server' | 'command'> {
  const [sub, target, ...extra] = rest;
  if (sub !== 'logout')
    throw new UsageError(
      sub === undefined
        ? cliText('auth needs a subcommand: logout <server-url>')
        : cliText('unknown auth subcommand "{0}" (known: logout)', sub),
    );
  if (extra.length) throw new UsageError(cliText('unexpected argument "{0}"', extra[0]));
  const given = target ?? http;
  if (!given) throw new UsageError(cliText('auth logout needs the server URL: mcp-roundtrip auth logout <server-url>'));
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(cliText('auth logout needs a server URL, got "{0}"', given));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(cliText('auth logout needs an http(s) URL, got "{0}"', given));
  return { server: { transport: 'http', name: url.host, url: url.href }, command: { kind: 'logout', url: url.href } };
}
