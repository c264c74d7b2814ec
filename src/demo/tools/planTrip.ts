// plan_trip: three sequential rounds (form -> sampling -> roots); earlier answers ride in signed state.
import {
  inputRequired,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type Root,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { readFormAnswer } from '../forms';
import type { FormSchema, Round } from '../round';
import { defineTool, textResult } from '../tool';

/** Round 1 `inputRequests` key: the trip form (elicitation/create, form mode). */
export const TRIP_KEY = 'trip';
/** Round 2 `inputRequests` key: the itinerary (sampling/createMessage). */
export const ITINERARY_KEY = 'itinerary';
/** Round 3 `inputRequests` key: where to save (roots/list). */
export const ROOTS_KEY = 'roots';

/** Longest trip the planner accepts, in nights (a rule the form's JSON schema cannot express). */
const MAX_NIGHTS = 14;

/** Round 1 form: where and when. */
export const TRIP_FORM: FormSchema = {
  type: 'object',
  properties: {
    destination: { type: 'string', title: 'Destination', description: 'City or region, e.g. "Lisbon".', minLength: 2, maxLength: 80 },
    startDate: { type: 'string', format: 'date', title: 'First day' },
    endDate: {
      type: 'string',
      format: 'date',
      title: 'Last day',
      description: `On or after the first day, at most ${MAX_NIGHTS} nights later.`,
    },
  },
  required: ['destination', 'startDate', 'endDate'],
};

const Trip = z
  .strictObject({ destination: z.string().trim().min(2).max(80), startDate: z.iso.date(), endDate: z.iso.date() })
  .refine((t) => t.endDate >= t.startDate, { message: 'the last day is before the first day', path: ['endDate'] })
  .refine((t) => nightsOf(t) <= MAX_NIGHTS, { message: `a trip may last at most ${MAX_NIGHTS} nights`, path: ['endDate'] });

type TripAnswer = z.output<typeof Trip>;

/** Sampling parameters of round 2 (besides the messages). */
export const ITINERARY_SAMPLING = {
  systemPrompt: 'You are a concise travel planner. Answer with a short day-by-day plan, one line per day, no preamble.',
  modelPreferences: {
    hints: [{ name: 'sonnet' }, { name: 'gpt' }],
    costPriority: 0.3,
    speedPriority: 0.4,
    intelligencePriority: 0.8,
  },
  maxTokens: 400,
  temperature: 0.7,
} as const satisfies Omit<CreateMessageRequestParams, 'messages'>;

/** What the flow carries between rounds: where it is and every earlier answer. */
type TripState = { stage: 'itinerary'; trip: TripAnswer } | { stage: 'save'; trip: TripAnswer; itinerary: { model: string; text: string } };

const Args = z.object({});

/**
 * `plan_trip`: form (destination, dates) -> sampling (itinerary) -> roots (where to save), one
 * round each; the trip and the itinerary travel forward in the signed `requestState` because each
 * retry carries only its own round's answer (spec: basic/patterns/mrtr). Needs elicitation.form,
 * sampling and roots, checked before round 1.
 */
export const planTrip = defineTool<typeof Args, TripState>({
  name: 'plan_trip',
  title: 'Plan a trip',
  description:
    'Plans a short trip in three steps: asks you where and when, asks your model to draft a day-by-day itinerary, then looks at your workspace folders to suggest where the plan would be saved (nothing is written).',
  args: Args,
  needs: { elicitation: { form: {} }, sampling: {}, roots: {} },
  async run(_args, round) {
    const state = round.state;

    if (state === undefined) {
      const form = readFormAnswer(round.answer(TRIP_KEY), Trip, 'Where do you want to go, and on which days?');
      if (form.kind === 'refused') {
        const how = form.action === 'decline' ? 'you declined the trip form' : 'the trip form was closed without an answer';
        return textResult(`No trip planned: ${how}.`, { status: form.action === 'decline' ? 'declined' : 'cancelled' });
      }
      if (form.kind === 'value') return askItinerary(round, form.value);
      return round.ask({ [TRIP_KEY]: inputRequired.elicit({ message: form.message, requestedSchema: TRIP_FORM }) });
    }

    if (state.stage === 'itinerary') {
      const answer = round.answer(ITINERARY_KEY);
      // No (usable) completion on this retry: ask for it again; the trip stays in the state.
      if (answer.kind !== 'sampling') return askItinerary(round, state.trip);
      // The completion is untrusted client input: keep only what the result needs, typed.
      const model = typeof answer.result.model === 'string' && answer.result.model !== '' ? answer.result.model : '(unnamed model)';
      const itinerary = { model, text: textOf(answer.result) };
      return round.ask({ [ROOTS_KEY]: inputRequired.listRoots() }, { stage: 'save', trip: state.trip, itinerary });
    }

    const answer = round.answer(ROOTS_KEY);
    if (answer.kind !== 'roots') return round.ask({ [ROOTS_KEY]: inputRequired.listRoots() }, state);
    return tripResult(state.trip, state.itinerary, answer.roots);
  },
});

function askItinerary(round: Round<TripState>, trip: TripAnswer) {
  const prompt = `Draft a day-by-day itinerary for ${nightsOf(trip) + 1} day(s) in ${trip.destination}, from ${trip.startDate} to ${trip.endDate}.`;
  const { modelPreferences, ...rest } = ITINERARY_SAMPLING;
  const request = inputRequired.createMessage({
    messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
    ...rest,
    modelPreferences: { ...modelPreferences, hints: modelPreferences.hints.map((h) => ({ ...h })) },
  });
  return round.ask({ [ITINERARY_KEY]: request }, { stage: 'itinerary', trip });
}

function tripResult(trip: TripAnswer, itinerary: { model: string; text: string }, roots: Root[]) {
  const nights = nightsOf(trip);
  const fileName = `trip-${slug(trip.destination)}-${trip.startDate}.md`;
  const first: unknown = roots[0]?.uri;
  const firstRoot = typeof first === 'string' ? first : undefined;
  const savePath = firstRoot === undefined ? undefined : saveUri(firstRoot, fileName);
  const where =
    firstRoot === undefined
      ? 'No workspace folder was offered (empty roots), so the plan would not be saved anywhere.'
      : savePath === undefined
        ? `The first root (${firstRoot}) is not a file:// URI, so the plan would not be saved there.`
        : `Would save it as ${savePath} (in the first root, ${firstRoot}${roots.length > 1 ? `, of ${roots.length}` : ''}).`;
  const text = [
    `Trip to ${trip.destination}: ${trip.startDate} to ${trip.endDate} (${nights} night${nights === 1 ? '' : 's'}).`,
    `Itinerary drafted by model "${itinerary.model}":`,
    itinerary.text,
    where,
  ].join('\n');
  return textResult(text, {
    status: 'planned',
    destination: trip.destination,
    startDate: trip.startDate,
    endDate: trip.endDate,
    nights,
    model: itinerary.model,
    itinerary: itinerary.text,
    firstRoot: firstRoot ?? null,
    savePath: savePath ?? null,
  });
}

/** `fileName` inside the folder `root` (a file:// URI, untrusted), or `undefined` when it is not one. */
function saveUri(root: string, fileName: string): string | undefined {
  try {
    const folder = new URL(root.endsWith('/') ? root : `${root}/`);
    return folder.protocol === 'file:' ? new URL(fileName, folder).href : undefined;
  } catch {
    return undefined;
  }
}

/** The text of a sampling result (all text blocks joined); other content types are named, not shown. */
function textOf(result: CreateMessageResult | CreateMessageResultWithTools): string {
  const blocks: ReadonlyArray<{ type?: unknown; text?: unknown } | null> = Array.isArray(result.content)
    ? result.content
    : [result.content];
  return blocks
    .map((b) => (b?.type === 'text' && typeof b.text === 'string' ? b.text : `[${String(b?.type ?? 'unknown')} content]`))
    .join('\n');
}

function nightsOf(trip: { startDate: string; endDate: string }): number {
  return Math.round((Date.parse(trip.endDate) - Date.parse(trip.startDate)) / 86_400_000);
}

function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, '-')
      .slice(0, 40) || 'trip'
  );
}
