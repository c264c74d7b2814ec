/**
 * The messages a form shows for a value that does not fit its field, phrased from the field's own
 * constraints ("Must be a whole number between 1 and 5"). The same in the webview and the extension.
 */
import { plural } from '../util/shownText';
import type { FieldKind, FormField } from './formField';

/** "Must be a whole number between 1 and 5" and friends, from the field's own constraints. */
export function numberMessage(field: FormField): string {
  const what = field.kind === 'integer' ? 'a whole number' : 'a number';
  const { minimum: lo, maximum: hi } = field;
  if (lo !== undefined && hi !== undefined) return `Must be ${what} between ${lo} and ${hi}`;
  if (lo !== undefined) return `Must be ${what} of ${lo} or more`;
  if (hi !== undefined) return `Must be ${what} of ${hi} or less`;
  return `Must be ${what}`;
}

/** "Must be at least 5 characters" and friends, from the field's own constraints. */
export function lengthMessage(field: FormField): string {
  const { minLength: lo, maxLength: hi } = field;
  if (lo !== undefined && hi !== undefined)
    return lo === hi ? `Must be exactly ${plural(lo, 'character', 'characters')}` : `Must be between ${lo} and ${hi} characters`;
  if (lo !== undefined) return `Must be at least ${plural(lo, 'character', 'characters')}`;
  if (hi !== undefined) return `Must be at most ${plural(hi, 'character', 'characters')}`;
  return 'Has the wrong length';
}

/** "Choose between 1 and 3" and friends, from the field's own constraints. */
export function itemsMessage(field: FormField): string {
  const { minItems: lo, maxItems: hi } = field;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `Choose exactly ${lo}` : `Choose between ${lo} and ${hi}`;
  if (lo !== undefined) return `Choose at least ${lo}`;
  if (hi !== undefined) return `Choose at most ${hi}`;
  return 'Choose from the listed options';
}

/** The message for a value of the wrong format, by field kind. */
export const FORMAT_MESSAGES: Partial<Record<FieldKind, string>> = {
  email: 'Must be an email address like name@example.com',
  uri: 'Must be a full URI like https://example.com/page',
  date: 'Must be a date like 2026-11-01',
  'date-time': 'Must be a date and time like 2026-11-01T09:30:00Z',
};

/** The message for an empty required field. */
export const REQUIRED_MESSAGE = 'Required';

/**
 * Every field error the core writes (here, `formModel.ts`, `formCheck.ts`), in English as written,
 * `{0}`, `{1}` … standing for what it fills in (numbers from the field's constraints, a parser's
 * message). The CLI and the webviews show them in the person's language by these keys; a test keeps
 * this list and the core's messages in step.
 */
export const FIELD_ERROR_TEXTS: readonly string[] = [
  'Required',
  'Required: choose Yes or No',
  'Choose Yes or No',
  'Choose one of the options',
  'Choose only from the listed options',
  'Choose from the listed options',
  'Must be Yes or No (true or false)',
  'Must be text',
  'Has the wrong format',
  'Has the wrong length',
  'Must be a JSON object',
  'Not valid JSON: {0}',
  'Must be a whole number between {0} and {1}',
  'Must be a whole number of {0} or more',
  'Must be a whole number of {0} or less',
  'Must be a whole number',
  'Must be a number between {0} and {1}',
  'Must be a number of {0} or more',
  'Must be a number of {0} or less',
  'Must be a number',
  'Must be exactly {0} character',
  'Must be exactly {0} characters',
  'Must be between {0} and {1} characters',
  'Must be at least {0} character',
  'Must be at least {0} characters',
  'Must be at most {0} character',
  'Must be at most {0} characters',
  'Choose exactly {0}',
  'Choose between {0} and {1}',
  'Choose at least {0}',
  'Choose at most {0}',
  'Must be an email address like name@example.com',
  'Must be a full URI like https://example.com/page',
  'Must be a date like 2026-11-01',
  'Must be a date and time like 2026-11-01T09:30:00Z',
];
