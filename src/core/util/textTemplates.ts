/**
 * Texts written in English with values filled in ("Must be a number between 1 and 5"), shown in another
 * language by their template ("Must be a number between {0} and {1}"): the template is the key of a
 * translation, the filled-in values stay as they are (numbers, names, server text).
 */

/** A template, and the pattern of the texts it stands for (each placeholder any text). */
export interface TextTemplate {
  readonly key: string;
  readonly pattern: RegExp;
  /** The placeholder numbers in the order they appear in `key`. */
  readonly order: readonly number[];
}

/**
 * `keys` (English templates with `{0}`, `{1}` … placeholders) as patterns, in the same order. Each
 * placeholder takes the shortest text that fits, but those of `longest`, which take the longest: a value
 * another party chose (a server's task id) may hold the words that follow it (" of "), and must not push
 * its end into the next placeholder.
 * @param longest placeholder numbers matched greedily, in every key given
 */
export function textTemplates(keys: readonly string[], longest: readonly number[] = []): TextTemplate[] {
  return keys.map((key) => ({
    key,
    pattern: new RegExp(
      `^${key.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\d+)\}/g, (_, n: string) => (longest.includes(Number(n)) ? '(.*)' : '(.*?)'))}$`,
      's',
    ),
    order: [...key.matchAll(/\{(\d+)\}/g)].map((m) => Number(m[1])),
  }));
}

/**
 * `message` in another language: the first template it fits that `translate` knows gives the frame,
 * what was filled in kept as it is; a message that fits none is returned as it is.
 * @param translate a template's translation, `{0}`, `{1}` … where the values go; undefined when none
 */
export function translateFilled(
  message: string,
  templates: readonly TextTemplate[],
  translate: (key: string) => string | undefined,
): string {
  for (const { key, pattern, order } of templates) {
    const found = pattern.exec(message);
    const text = found ? translate(key) : undefined;
    if (!found || !text) continue;
    const args: string[] = [];
    order.forEach((n, i) => (args[n] = found[i + 1]));
    return text.replace(/\{(\d+)\}/g, (whole, n: string) => args[Number(n)] ?? whole);
  }
  return message;
}
