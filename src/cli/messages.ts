/**
 * The CLI's own words in the person's language: English, or Simplified Chinese when `--lang zh-cn` is
 * given or the locale variables say Chinese (`LC_ALL`, then `LC_MESSAGES`, then `LANG`, as POSIX reads
 * them: `zh_CN.UTF-8` → `zh-cn`). Prompts, notes and the CLI's own error lines go through
 * {@link cliText}; the round-trip log lines and server text stay as they are (people paste the log into
 * issues).
 */
import { FIELD_ERROR_TEXTS } from '../core/elicitation/formMessages';
import { errorMessage, isHostError, type HostErrorKind } from '../core/util/errors';
import { textTemplates, translateFilled } from '../core/util/textTemplates';
import { ZH_CN } from './messages.zh-cn';

/** A language the CLI speaks. */
export type CliLang = 'en' | 'zh-cn';

/** The languages `--lang` takes. */
export const CLI_LANGS: readonly CliLang[] = ['en', 'zh-cn'];

/**
 * The language of the locale variables: the first set of `LC_ALL`, `LC_MESSAGES`, `LANG` decides;
 * Chinese (`zh`, `zh_CN.UTF-8`, `zh-Hans`) is `zh-cn`, anything else (or nothing) English.
 */
export function localeLang(env: NodeJS.ProcessEnv): CliLang {
  const locale = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return /^zh(?:[_-]|\.|$)/i.test(locale) ? 'zh-cn' : 'en';
}

/**
 * The language of a run: `--lang <en|zh-cn>` (also `--lang=…`) in `argv` wins, else {@link localeLang}.
 * A `--lang` value the CLI does not speak is left to the argument parser to refuse.
 */
export function cliLang(argv: readonly string[], env: NodeJS.ProcessEnv): CliLang {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') break;
    const given = argv[i] === '--lang' ? argv[i + 1] : argv[i].startsWith('--lang=') ? argv[i].slice(7) : undefined;
    if (given !== undefined) {
      const lang = given.toLowerCase();
      if ((CLI_LANGS as readonly string[]).includes(lang)) return lang as CliLang;
    }
  }
  return localeLang(env);
}

let current: CliLang = 'en';

/** Set the language of the CLI's words (once per run, before anything is written). */
export function setCliLang(lang: CliLang): void {
  current = lang;
}

/** The language the CLI speaks now. */
export function currentCliLang(): CliLang {
  return current;
}

/**
 * One of the CLI's own texts in the current language, `{0}`, `{1}` … replaced by `args` (as
 * `vscode.l10n.t` does). The English text is the key of the Chinese catalog; a text missing there
 * shows in English (a unit test keeps the catalog complete).
 */
export function cliText(message: string, ...args: (string | number)[]): string {
  return filled(current === 'zh-cn' ? (ZH_CN[message] ?? message) : message, args);
}

/** `text` with `{0}`, `{1}` … replaced by `args` (a placeholder with no value kept as it is). */
function filled(text: string, args: readonly (string | number)[]): string {
  return text.replace(/\{(\d+)\}/g, (whole, n: string) => (args[Number(n)] === undefined ? whole : String(args[Number(n)])));
}

/**
 * Items as a list in the current language: `a, b` in English, `a、b` in Chinese (its enumeration
 * comma); `parts` joins the parts of one line, `a; b` and `a；b`. The items are kept as they are.
 */
export function cliList(items: readonly string[], kind: 'items' | 'parts' = 'items'): string {
  if (current === 'zh-cn') return items.join(kind === 'items' ? '、' : '；');
  return items.join(kind === 'items' ? ', ' : '; ');
}

/**
 * The errors that end a run (exit 1–5), said on stderr when the round-trip log has not said them, as
 * the core and the CLI write them in English, each with the kinds of `HostError` that carry it: a
 * message is read by a template of its own error's kind only, so that a server's words inside another
 * kind's message (a JSON-RPC error saying "x on y timed out") are never taken for ours.
 */
export const RUN_ERROR_TEXTS: readonly { text: string; kinds: readonly HostErrorKind[]; longest?: readonly number[] }[] = [
  { text: 'could not connect to {0}: {1}', kinds: ['connection'] },
  { text: '{0} on {1} exceeded its time limit of {2} ms', kinds: ['timeLimit'] },
  // A task's own lines first: its id and the tool it runs are kept, the frame around them is ours.
  {
    text: "task {0} of {1} on {2} did not finish within the call's time limit ({3} ms of active time); tasks/cancel was sent to {4}",
    kinds: ['timeLimit'],
    // The task id is the server's and may hold " of ": it ends at the last one, before the tool's name.
    longest: [0],
  },
  {
    text: "{0} on {1} did not finish within the call's time limit ({2} ms of active time); tasks/cancel was sent to {3}",
    kinds: ['timeLimit'],
  },
  { text: '{0} did not complete the handshake ({1}) within {2} ms', kinds: ['timeLimit', 'connection'] },
  { text: '{0} on {1} timed out', kinds: ['timeLimit'] },
  { text: 'signing in to {0} was declined', kinds: ['auth', 'declined'] },
  { text: 'the sign-in to {0} was cancelled', kinds: ['cancelled', 'auth'] },
  { text: '{0} on {1} was cancelled', kinds: ['cancelled'] },
  { text: 'task {0} of {1} was cancelled; tasks/cancel was sent to {2}', kinds: ['cancelled'], longest: [0] },
  { text: '{0} was cancelled; tasks/cancel was sent to {1}', kinds: ['cancelled'] },
  { text: '{0} was cancelled', kinds: ['cancelled'] },
  { text: '{0} needs a sign-in (it answered {1}), and none can be done here: {2}', kinds: ['authRequired'] },
  { text: '{0} needs a sign-in, and none can be done here: {1}', kinds: ['authRequired'] },
  { text: '{0} still asked for input after {1} round(s) of {2}; the host stopped (limit: {3})', kinds: ['roundLimit'] },
  { text: 'no answer for input "{0}" ({1}) asked by {2} in round {3} of {4} {5}; add it to --answers', kinds: ['missingAnswer'] },
  { text: 'cannot read --answers {0}: {1}', kinds: ['usage'] },
  { text: '--answers {0} is not valid JSON: {1}', kinds: ['usage'] },
  { text: '--answers {0} must hold a JSON object keyed by inputRequests key', kinds: ['usage'] },
  { text: 'cancelled at the terminal (the input ended)', kinds: ['cancelled'] },
  { text: 'cancelled at the terminal ({0})', kinds: ['cancelled'] },
  { text: 'cancelled at the terminal', kinds: ['cancelled'] },
  { text: 'cancelled: the standard output was closed', kinds: ['cancelled'] },
  { text: 'no saved calls: {0} does not exist (save a call in VS Code with Save Call…, or give --calls <file>)', kinds: ['usage'] },
  { text: 'no saved call named "{0}" in {1}; it has: {2}', kinds: ['usage'] },
  { text: 'no saved call named "{0}" in {1}', kinds: ['usage'] },
  { text: 'saved call "{0}" reads a resource: it takes no --args', kinds: ['usage'] },
  { text: 'saved call "{0}" runs on server "{1}", but {2}; give the server with --stdio or --http', kinds: ['usage'] },
  { text: 'cannot read the saved calls {0}: {1}', kinds: ['usage'] },
  { text: 'complete template {0}: the template has no variable "{1}" (its variables: {2})', kinds: ['usage'] },
  { text: 'complete prompt {0}: {1} lists no such prompt (its prompts: {2})', kinds: ['usage'] },
  { text: 'complete prompt {0}: the prompt has no argument "{1}" (its arguments: {2})', kinds: ['usage'] },
  { text: '{0} does not serve skills (it does not declare the Skills extension)', kinds: ['usage'] },
  { text: '{0} serves no skill named {1} (it serves: {2})', kinds: ['usage'] },
  { text: '{0} serves no skill named {1}', kinds: ['usage'] },
  {
    text: '{0} does not offer completions (no "completions" capability); give the value of {1} yourself (see prompts or templates)',
    kinds: ['server'],
  },
];

/**
 * Why a kept task is no longer followed (`TaskRecord.noteDetail`): a record keeps it in English, filled
 * by {@link noteDetail}, because runs in another language read it later; {@link noteText} says it.
 */
export const NOTE_TEXTS = {
  interrupted: 'the CLI was interrupted; tasks/cancel was sent',
  timeLimit: "the call's time limit was reached; tasks/cancel was sent",
  callEnded: 'the call ended: {0}',
} as const;

/** A {@link NOTE_TEXTS} text in English, `{0}`, `{1}` … replaced by `args`, as a record keeps it. */
export function noteDetail(text: (typeof NOTE_TEXTS)[keyof typeof NOTE_TEXTS], ...args: string[]): string {
  return filled(text, args);
}

/** Every English text the CLI shows without writing it itself, each a key of the Chinese catalog. */
export const HOST_TEXTS: readonly string[] = [...FIELD_ERROR_TEXTS, ...RUN_ERROR_TEXTS.map((t) => t.text), ...Object.values(NOTE_TEXTS)];

const FIELD_TEMPLATES = textTemplates(FIELD_ERROR_TEXTS);
const RUN_TEMPLATES = RUN_ERROR_TEXTS.map(({ text, kinds, longest }) => ({ kinds, template: textTemplates([text], longest)[0] }));
const NOTE_TEMPLATES = textTemplates(Object.values(NOTE_TEXTS));

/**
 * A field error the core wrote ({@link FIELD_ERROR_TEXTS}) in the CLI's language: in Chinese, the
 * first template it fits gives the frame, what it filled in kept as it is; a text that fits none, and
 * any text in English, is returned as it is.
 */
export function hostText(message: string): string {
  return current === 'zh-cn' ? translateFilled(message, FIELD_TEMPLATES, (key) => ZH_CN[key]) : message;
}

/**
 * A kept task's note ({@link NOTE_TEXTS}, English as the record keeps it) in the CLI's language, what
 * was filled in kept as it is; a note that fits none, and any note in English, as it is.
 */
export function noteText(detail: string): string {
  return current === 'zh-cn' ? translateFilled(detail, NOTE_TEMPLATES, (key) => ZH_CN[key]) : detail;
}

/**
 * The line a run ends with, for `error`, in the CLI's language: in Chinese, a `HostError`'s message
 * read by a template of {@link RUN_ERROR_TEXTS} of its own kind; any other error, a message no
 * template of its kind fits, and any text in English, as it is.
 */
export function runErrorText(error: unknown): string {
  const message = errorMessage(error);
  if (current !== 'zh-cn' || !isHostError(error)) return message;
  const templates = RUN_TEMPLATES.filter((t) => t.kinds.includes(error.kind)).map((t) => t.template);
  return translateFilled(message, templates, (key) => ZH_CN[key]);
}
