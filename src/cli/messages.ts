/**
 * The CLI's own words in the person's language: English, or Simplified Chinese when `--lang zh-cn` is
 * given or the locale variables say Chinese (`LC_ALL`, then `LC_MESSAGES`, then `LANG`, as POSIX reads
 * them: `zh_CN.UTF-8` → `zh-cn`). Prompts, notes and the CLI's own error lines go through
 * {@link cliText}; the round-trip log lines and server text stay as they are (people paste the log into
 * issues).
 */
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
