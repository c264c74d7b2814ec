/**
 * How the CLI shows server text and form fields at a terminal, and reads a typed answer back: shared by
 * the terminal's forms, URL consent and written sampling replies.
 */
import type { FormField } from '../core/elicitation/formField';
import { UNSAFE_TEXT_RE, oneLine } from '../core/util/shownText';
import { shownText } from '../core/util/shownText';

/**
 * Server text made safe for a terminal: no escape sequences (ESC, CSI, OSC would clear the screen,
 * retitle the window, recolour or overwrite the prompt), no bidi overrides; line breaks kept, each
 * following line indented by `indent` so a server cannot forge a line of the host's own.
 */
export function terminalText(s: unknown, indent = '  '): string {
  return String(s ?? '')
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\t/g, '    ').replace(UNSAFE_TEXT_RE, '\uFFFD'))
    .join(`\n${indent}`);
}

/** One-line server text for a terminal (keys, labels, options, URLs). */
export const label = (s: unknown): string => oneLine(String(s ?? ''), 1000);

/** Most characters of a server's message or field description a prompt shows; the rest are counted. */
export const MAX_PROMPT_TEXT = 10_000;

/** Server text for a prompt: {@link terminalText}, cut at {@link MAX_PROMPT_TEXT} characters. */
export function promptText(s: unknown, indent?: string): string {
  return terminalText(shownText(String(s ?? ''), MAX_PROMPT_TEXT), indent);
}

/** Most choices a prompt lists (a field may have a million): the rest are counted, and still taken by number or value. */
export const MAX_PROMPT_CHOICES = 20;

/** The prompt of one field: label, kind, numbered options (at most MAX_PROMPT_CHOICES), required, and the value Enter keeps. */
export function fieldPrompt(f: FormField): string {
  const bits: string[] = [f.kind];
  const options = f.options ?? [];
  if (options.length) {
    const shown = options.slice(0, MAX_PROMPT_CHOICES).map((o, i) => `${i + 1}=${oneLine(String(o.label), 80)}`);
    if (options.length > MAX_PROMPT_CHOICES)
      shown.push(
        `… ${options.length - MAX_PROMPT_CHOICES} more (${options.length} choices: type a number up to ${options.length}, or the value)`,
      );
    bits.push(shown.join(', '));
  }
  if (f.required) bits.push('required');
  const initial = f.initial === undefined ? '' : ` [${label(Array.isArray(f.initial) ? f.initial.join(',') : String(f.initial))}]`;
  return `${label(f.label)} (${bits.join('; ')})${initial}`;
}

/** Terminal text → the raw value an HTML control would give (empty keeps the pre-filled value). */
export function rawValue(f: FormField, answer: string): unknown {
  if (answer === '') return f.initial === undefined ? '' : f.initial;
  if (f.kind === 'boolean') return /^(y|yes|true|1)$/i.test(answer) ? true : /^(n|no|false|0)$/i.test(answer) ? false : answer;
  const pick = (s: string) => {
    const i = Number(s);
    return f.options && Number.isInteger(i) && i >= 1 && i <= f.options.length ? f.options[i - 1].value : s;
  };
  if (f.kind === 'select') return pick(answer);
  if (f.kind === 'multiselect')
    return answer
      .split(',')
      .map((s) => pick(s.trim()))
      .filter(Boolean);
  return answer;
}
