/**
 * How the CLI shows server text and form fields at a terminal, and reads a typed answer back: shared by
 * the terminal's forms, URL consent and written sampling replies.
 */
import type { FormField } from '../core/elicitation/formField';
import { UNSAFE_TEXT_RE, oneLine } from '../core/util/shownText';
import { shownText } from '../core/util/shownText';
import { cliList, cliText, hostText } from './messages';

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

/**
 * The prompt of one field: label, kind, what it takes (bounds, format, length, items), numbered
 * options (at most MAX_PROMPT_CHOICES), required, and the value Enter keeps (a choice by its title).
 * A boolean asks `[y/n]`, its pre-set answer in capitals (`[Y/n]`).
 */
export function fieldPrompt(f: FormField): string {
  if (f.kind === 'boolean') {
    const yn = f.initial === true ? 'Y/n' : f.initial === false ? 'y/N' : 'y/n';
    return `${label(f.label)} (${f.required ? cliText('yes or no; required') : cliText('yes or no; Enter leaves it unset')}) [${yn}]`;
  }
  const bits: string[] = [kindWord(f.kind), ...takes(f)];
  const options = f.options ?? [];
  if (options.length) {
    const shown = options.slice(0, MAX_PROMPT_CHOICES).map((o, i) => `${i + 1}=${oneLine(String(o.label), 80)}`);
    if (options.length > MAX_PROMPT_CHOICES)
      shown.push(
        cliText('… {0} more ({1} choices: type a number up to {1}, or the value)', options.length - MAX_PROMPT_CHOICES, options.length),
      );
    bits.push(cliList(shown));
  }
  if (f.required) bits.push(cliText('required'));
  else if (f.initial !== undefined) bits.push(cliText('{0} leaves it unset', UNSET));
  const initial = f.initial === undefined ? '' : ` [${label(shownInitial(f))}]`;
  return `${label(f.label)} (${cliList(bits, 'parts')})${initial}`;
}

/** What the answer of an optional field with a pre-filled value leaves unset (Enter keeps the value). */
export const UNSET = ':unset';

/** What a field takes, said before the first answer: a number's bounds, a string's format and length, a multi-select's count. */
function takes(f: FormField): string[] {
  const out: string[] = [];
  const { minimum: lo, maximum: hi } = f;
  if (f.kind === 'number' || f.kind === 'integer') {
    if (lo !== undefined && hi !== undefined) out.push(cliText('{0} to {1}', lo, hi));
    else if (lo !== undefined) out.push(cliText('{0} or more', lo));
    else if (hi !== undefined) out.push(cliText('{0} or less', hi));
  }
  if (f.format && f.format !== f.kind) out.push(cliText('format {0}', oneLine(f.format, 40)));
  if (FORMAT_EXAMPLES[f.kind]) out.push(cliText('like {0}', FORMAT_EXAMPLES[f.kind]!));
  const { minLength: min, maxLength: max } = f;
  if (min !== undefined && max !== undefined)
    out.push(min === max ? cliText('exactly {0} characters', min) : cliText('{0} to {1} characters', min, max));
  else if (min !== undefined) out.push(cliText('at least {0} characters', min));
  else if (max !== undefined) out.push(cliText('at most {0} characters', max));
  if (f.kind === 'multiselect') {
    const { minItems: a, maxItems: b } = f;
    out.push(
      a !== undefined && b !== undefined
        ? cliText('pick {0} to {1}, comma-separated', a, b)
        : a !== undefined
          ? cliText('pick at least {0}, comma-separated', a)
          : b !== undefined
            ? cliText('pick at most {0}, comma-separated', b)
            : cliText('comma-separated'),
    );
  }
  return out;
}

/** The word a prompt names a field's kind by (`Destination (text; …)`); a boolean asks yes or no instead. */
function kindWord(kind: FormField['kind']): string {
  switch (kind) {
    case 'text':
      return cliText('text');
    case 'email':
      return cliText('email');
    case 'uri':
      return cliText('uri');
    case 'date':
      return cliText('date');
    case 'date-time':
      return cliText('date-time');
    case 'number':
      return cliText('number');
    case 'integer':
      return cliText('integer');
    case 'select':
      return cliText('select');
    case 'multiselect':
      return cliText('multiselect');
    default:
      return kind;
  }
}

/** An example of each kind with a format. */
const FORMAT_EXAMPLES: Partial<Record<FormField['kind'], string>> = {
  email: 'name@example.com',
  uri: 'https://example.com/page',
  date: '2026-11-01',
  'date-time': '2026-11-01T09:30:00Z',
};

/** The pre-filled value as a person knows it: a choice by its title, not its value. */
function shownInitial(f: FormField): string {
  const titleOf = (v: unknown) => String(f.options?.find((o) => o.value === v)?.label ?? v);
  return Array.isArray(f.initial) ? f.initial.map(titleOf).join(',') : titleOf(f.initial);
}

/** A field's error as the terminal says it: a boolean's says what to type. */
export function terminalFieldError(f: FormField, error: string): string {
  if (f.kind !== 'boolean') return hostText(error);
  return f.required ? cliText('Type y (yes) or n (no)') : cliText('Type y (yes) or n (no), or nothing to leave it unset');
}

/**
 * Terminal text → the raw value an HTML control would give (empty keeps the pre-filled value,
 * {@link UNSET} empties an optional field). A choice is taken by its number, its value or its title.
 */
export function rawValue(f: FormField, answer: string): unknown {
  if (answer === '') return f.initial === undefined ? '' : f.initial;
  if (answer === UNSET && !f.required) return f.kind === 'multiselect' ? [] : '';
  if (f.kind === 'boolean') return /^(y|yes|true|1)$/i.test(answer) ? true : /^(n|no|false|0)$/i.test(answer) ? false : answer;
  const pick = (s: string) => {
    const options = f.options ?? [];
    const i = Number(s);
    if (Number.isInteger(i) && i >= 1 && i <= options.length) return options[i - 1].value;
    if (options.some((o) => String(o.value) === s)) return s;
    const titled = options.filter((o) => o.label.toLowerCase() === s.toLowerCase());
    return titled.length === 1 ? titled[0].value : s;
  };
  if (f.kind === 'select') return pick(answer);
  // A Chinese keyboard types the full-width comma, or the enumeration comma the options are listed with.
  if (f.kind === 'multiselect')
    return answer
      .split(/[,，、]/)
      .map((s) => pick(s.trim()))
      .filter(Boolean);
  return answer;
}
