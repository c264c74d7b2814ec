// book_table: one form elicitation that uses every form field type the spec defines.
import { inputRequired } from '@modelcontextprotocol/server';
import { fullFormats } from 'ajv-formats/dist/formats';
import { z } from 'zod';
import { jsonTypeOf, readFormAnswer } from '../forms';
import type { FormSchema } from '../round';
import { defineTool, textResult } from '../tool';

/** The `inputRequests` key of the booking form. */
export const BOOKING_KEY = 'booking';

const SEATING = [
  { const: 'window', title: 'By the window' },
  { const: 'garden', title: 'In the garden' },
  { const: 'bar', title: 'At the bar' },
] as const;
const TIMES = ['18:00', '18:30', '19:00', '19:30', '20:00', '20:30', '21:00'] as const;
const DIETARY = [
  { const: 'none', title: 'No restrictions' },
  { const: 'vegetarian', title: 'Vegetarian' },
  { const: 'vegan', title: 'Vegan' },
  { const: 'gluten-free', title: 'Gluten-free' },
  { const: 'nut-allergy', title: 'Nut allergy' },
] as const;

/**
 * The booking form (spec: client/elicitation, form mode requested schema): string/date, string/email, integer with bounds, optional number, boolean,
 * titled single-select (`oneOf`), untitled `enum`, titled multi-select (`items.anyOf`) with
 * `minItems`/`maxItems`, defaults and `required`.
 */
export const BOOKING_FORM: FormSchema = {
  type: 'object',
  properties: {
    date: { type: 'string', format: 'date', title: 'Date', description: 'Day of the visit (YYYY-MM-DD).' },
    email: { type: 'string', format: 'email', title: 'Contact email', description: 'Where the confirmation goes.' },
    partySize: { type: 'integer', title: 'Party size', description: 'Number of guests, 1 to 12.', minimum: 1, maximum: 12, default: 2 },
    budgetPerPerson: {
      type: 'number',
      title: 'Budget per person (EUR)',
      description: 'Optional, 0 to 500; decimals allowed.',
      minimum: 0,
      maximum: 500,
      default: 50,
    },
    outdoor: { type: 'boolean', title: 'Outdoor table?', description: 'Sit outside if the weather allows.', default: false },
    seating: { type: 'string', title: 'Seating', oneOf: SEATING.map((s) => ({ ...s })), default: 'window' },
    time: { type: 'string', title: 'Time', enum: [...TIMES], default: '19:00' },
    dietary: {
      type: 'array',
      title: 'Dietary needs',
      description: 'Pick one to three.',
      minItems: 1,
      maxItems: 3,
      items: { anyOf: DIETARY.map((d) => ({ ...d })) },
      default: ['none'],
    },
  },
  required: ['date', 'email', 'partySize', 'outdoor', 'seating', 'time', 'dietary'],
};

/**
 * What `format: "email"` means to the host's check (ajv-formats, full mode), so that an address the
 * form accepts is not refused on the retry (zod's own rule wants a top-level domain of two letters:
 * `ada@ex.io` passes both, `a@b.c` passed the host and failed here).
 */
const EMAIL = fullFormats.email as RegExp;

/** Server-side mirror of {@link BOOKING_FORM}; unknown fields are refused. */
export const Booking = z.strictObject({
  date: z.iso.date(),
  email: z.email({ pattern: EMAIL }),
  partySize: z.number().int().min(1).max(12),
  budgetPerPerson: z.number().min(0).max(500).optional(),
  outdoor: z.boolean(),
  seating: z.enum(SEATING.map((s) => s.const)),
  time: z.enum(TIMES),
  dietary: z
    .array(z.enum(DIETARY.map((d) => d.const)))
    .min(1)
    .max(3)
    .refine((list) => new Set(list).size === list.length, 'pick each option at most once'),
});

/** `book_table`: asks for booking details once (again only if the answer fails validation). */
export const bookTable = defineTool({
  name: 'book_table',
  title: 'Book a table',
  description:
    'Books a table at a (pretend) restaurant. Asks you for the date, contact email, party size, budget, seating, time and dietary needs in one form, then confirms the booking.',
  args: z.object({
    restaurant: z.string().min(1).max(80).default('Trattoria Demo').describe('Restaurant name (optional).'),
  }),
  needs: { elicitation: { form: {} } },
  async run({ restaurant }, round) {
    const form = readFormAnswer(
      round.answer(BOOKING_KEY),
      Booking,
      `Book a table at ${restaurant}: when, for how many, and where would you like to sit?`,
    );
    if (form.kind === 'refused' && form.action === 'decline') {
      return textResult(`Nothing was booked: you declined the booking form for ${restaurant}.`, { status: 'declined', restaurant });
    }
    if (form.kind === 'refused') {
      return textResult(`Booking cancelled: the form for ${restaurant} was closed without an answer, so nothing was booked.`, {
        status: 'cancelled',
        restaurant,
      });
    }
    if (form.kind === 'value') return bookingResult(restaurant, form.value);
    // Ask (again, after an unusable answer: the client's validation is not trusted).
    return round.ask({ [BOOKING_KEY]: inputRequired.elicit({ message: form.message, requestedSchema: BOOKING_FORM }) });
  },
});

function bookingResult(restaurant: string, booking: z.output<typeof Booking>) {
  const lines = Object.entries(booking).map(
    ([field, value]) => `${field}: ${typeof value === 'string' ? value : JSON.stringify(value)} (${jsonTypeOf(value)})`,
  );
  const types = Object.fromEntries(Object.entries(booking).map(([field, value]) => [field, jsonTypeOf(value)]));
  const text = [`Table booked at ${restaurant} for ${booking.partySize} on ${booking.date} at ${booking.time}.`, ...lines].join('\n');
  return textResult(text, { status: 'booked', restaurant, booking, types });
}
