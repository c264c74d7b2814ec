/**
 * The CLI's own words in the person's language: English, or Simplified Chinese when `--lang zh-cn` is
 * given or the locale variables say Chinese (`LC_ALL`, then `LC_MESSAGES`, then `LANG`, as POSIX reads
 * them: `zh_CN.UTF-8` → `zh-cn`). Prompts, notes and the CLI's own error lines go through
 * {@link cliText}; the round-trip log lines and server text stay as they are (people paste the log into
 * issues).
 */
import { FIELD_ERROR_TEXTS } from '../core/elicitation/formMessages';
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
  const text = current === 'zh-cn' ? (ZH_CN[message] ?? message) : message;
  return text.replace(/\{(\d+)\}/g, (whole, n: string) => (args[Number(n)] === undefined ? whole : String(args[Number(n)])));
}

/**
 * The host's English texts the CLI shows without writing them itself: the core's field errors at the
 * terminal ({@link FIELD_ERROR_TEXTS}) and the errors that end a
 * run (the core's and the CLI's own `HostError`s, whose English also goes to the round-trip log). Each
 * is the key of the Chinese catalog as the core writes it, `{0}`, `{1}` … standing for what it fills in
 * (names, numbers, server text), which stays as it is.
 */
export const HOST_TEXTS: readonly string[] = [
  ...FIELD_ERROR_TEXTS,
  // Errors that end a run (exit 1–5), said on stderr when the round-trip log has not said them.
  'could not connect to {0}: {1}',
  '{0} on {1} exceeded its time limit of {2} ms',
  '{0} did not complete the handshake ({1}) within {2} ms',
  '{0} on {1} timed out',
  'signing in to {0} was declined',
  'the sign-in to {0} was cancelled',
  '{0} on {1} was cancelled',
  '{0} was cancelled; tasks/cancel was sent to {1}',
  '{0} was cancelled',
  '{0} needs a sign-in (it answered {1}), and none can be done here: {2}',
  '{0} needs a sign-in, and none can be done here: {1}',
  '{0} still asked for input after {1} round(s) of {2}; the host stopped (limit: {3})',
  'no answer for input "{0}" ({1}) asked by {2} in round {3} of {4} {5}; add it to --answers',
  'cannot read --answers {0}: {1}',
  '--answers {0} is not valid JSON: {1}',
  '--answers {0} must hold a JSON object keyed by inputRequests key',
  'cancelled at the terminal (the input ended)',
  'cancelled at the terminal ({0})',
  'cancelled at the terminal',
  'no saved calls: {0} does not exist (save a call in VS Code with Save Call…, or give --calls <file>)',
  'no saved call named "{0}" in {1}; it has: {2}',
  'no saved call named "{0}" in {1}',
  'saved call "{0}" reads a resource: it takes no --args',
  'saved call "{0}" runs on server "{1}", but {2}; give the server with --stdio or --http',
  'cannot read the saved calls {0}: {1}',
  'complete template {0}: the template has no variable "{1}" (its variables: {2})',
  'complete prompt {0}: {1} lists no such prompt (its prompts: {2})',
  'complete prompt {0}: the prompt has no argument "{1}" (its arguments: {2})',
  '{0} does not serve skills (it does not declare the Skills extension)',
  '{0} serves no skill named {1} (it serves: {2})',
  '{0} serves no skill named {1}',
];

const HOST_TEMPLATES = textTemplates(HOST_TEXTS);

/**
 * One of the host's English texts ({@link HOST_TEXTS}) in the CLI's language: in Chinese, the first
 * key it fits gives the frame, what it filled in kept as it is; a text that fits none, and any text in
 * English, is returned as it is.
 */
export function hostText(message: string): string {
  return current === 'zh-cn' ? translateFilled(message, HOST_TEMPLATES, (key) => ZH_CN[key]) : message;
}
