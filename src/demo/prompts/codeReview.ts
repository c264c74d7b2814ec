// Prompt code_review: prompts/get first asks for language and strictness, then returns the messages.
import { inputRequired, type GetPromptResult, type InputRequiredResult, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { readFormAnswer } from '../forms';
import { openRound, type DemoDeps, type FormSchema } from '../round';

/** Prompt name (contract). */
export const CODE_REVIEW_PROMPT = 'code_review';
/** The `inputRequests` key of the options form. */
export const REVIEW_OPTIONS_KEY = 'review_options';

const LANGUAGES = [
  { const: 'typescript', title: 'TypeScript' },
  { const: 'javascript', title: 'JavaScript' },
  { const: 'python', title: 'Python' },
  { const: 'go', title: 'Go' },
  { const: 'rust', title: 'Rust' },
  { const: 'other', title: 'Something else' },
] as const;
const STRICTNESS = ['gentle', 'balanced', 'strict'] as const;

/** Options form: titled single-select `language`, untitled enum `strictness`. */
export const REVIEW_OPTIONS_FORM: FormSchema = {
  type: 'object',
  properties: {
    language: { type: 'string', title: 'Language', oneOf: LANGUAGES.map((l) => ({ ...l })) },
    strictness: {
      type: 'string',
      title: 'Strictness',
      description: 'How picky the review should be.',
      enum: [...STRICTNESS],
      default: 'balanced',
    },
  },
  required: ['language', 'strictness'],
};

const Options = z.strictObject({ language: z.enum(LANGUAGES.map((l) => l.const)), strictness: z.enum(STRICTNESS) });
type ReviewOptions = z.output<typeof Options>;

const Args = z.object({
  code: z.string().min(1).describe('The code to review.'),
  focus: z.string().optional().describe('Optional: what to pay most attention to (e.g. "error handling").'),
});

/** Registers the `code_review` prompt on `server`. Needs form elicitation (-32021 otherwise). */
export function registerCodeReview(server: McpServer, deps: DemoDeps): void {
  server.registerPrompt(
    CODE_REVIEW_PROMPT,
    {
      title: 'Code review',
      description:
        'Builds a code review request for your model. Asks you first which language the code is in and how strict the review should be.',
      argsSchema: Args,
    },
    async (args, ctx): Promise<GetPromptResult | InputRequiredResult> => {
      // Errors thrown here (-32021, -32602) reach the client as JSON-RPC errors: McpServer does not catch prompt errors.
      const round = await openRound(
        ctx,
        deps,
        { method: 'prompts/get', name: CODE_REVIEW_PROMPT, args },
        { elicitation: { form: {} } },
        `Prompt ${CODE_REVIEW_PROMPT}`,
      );
      const form = readFormAnswer(
        round.answer(REVIEW_OPTIONS_KEY),
        Options,
        'Which language is this code in, and how strict should the review be?',
      );
      if (form.kind === 'refused') {
        // The prompt is still useful without the options: fall back to neutral defaults and say so.
        return reviewMessages(args, undefined, form.action === 'decline' ? 'you declined the options form' : 'the options form was closed');
      }
      if (form.kind === 'value') return reviewMessages(args, form.value);
      return round.ask({ [REVIEW_OPTIONS_KEY]: inputRequired.elicit({ message: form.message, requestedSchema: REVIEW_OPTIONS_FORM }) });
    },
  );
}

function reviewMessages(args: z.output<typeof Args>, options: ReviewOptions | undefined, whyDefaults?: string): GetPromptResult {
  const language = options === undefined ? 'unspecified' : (LANGUAGES.find((l) => l.const === options.language)?.title ?? options.language);
  const strictness = options?.strictness ?? 'balanced';
  const fence = options === undefined || options.language === 'other' ? '' : options.language;
  const text = [
    `Please review the following ${language === 'unspecified' ? '' : `${language} `}code. Strictness: ${strictness}.`,
    strictness === 'strict'
      ? 'Point out every issue, including style and naming.'
      : strictness === 'gentle'
        ? 'Mention only real bugs and risks, kindly.'
        : 'Focus on correctness, clarity and risks.',
    ...(args.focus ? [`Pay special attention to: ${args.focus}.`] : []),
    '',
    '```' + fence,
    args.code,
    '```',
  ].join('\n');
  return {
    description: `Code review (${language}, ${strictness})${whyDefaults ? `: defaults used because ${whyDefaults}` : ''}`,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
