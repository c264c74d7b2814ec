// Resource demo://secret-note: resources/read first asks for a confirmation, then returns the text.
import { inputRequired, type InputRequiredResult, type McpServer, type ReadResourceResult } from '@modelcontextprotocol/server';
import { openRound, type DemoDeps, type FormSchema } from '../round';

/** Resource URI (contract). */
export const SECRET_NOTE_URI = 'demo://secret-note';
/** The `inputRequests` key of the confirmation. */
export const CONFIRM_KEY = 'confirm';

/** One boolean, unchecked by default: revealing must be a deliberate choice. */
export const CONFIRM_FORM: FormSchema = {
  type: 'object',
  properties: { reveal: { type: 'boolean', title: 'Reveal the secret note?', default: false } },
  required: ['reveal'],
};

/** The note itself (nothing secret: it is a demo). */
export const SECRET_NOTE_TEXT = 'The secret ingredient is patience. (This note is part of the MCP Roundtrip demo server.)';

/** Registers `demo://secret-note` on `server`. Needs form elicitation (-32021 otherwise). */
export function registerSecretNote(server: McpServer, deps: DemoDeps): void {
  server.registerResource(
    'secret-note',
    SECRET_NOTE_URI,
    {
      title: 'Secret note',
      description: 'A short note that is only shown after you confirm you want to see it.',
      mimeType: 'text/plain',
    },
    async (uri, ctx): Promise<ReadResourceResult | InputRequiredResult> => {
      const round = await openRound(
        ctx,
        deps,
        { method: 'resources/read', name: SECRET_NOTE_URI, args: {} },
        { elicitation: { form: {} } },
        `Resource ${SECRET_NOTE_URI}`,
      );
      const answer = round.answer(CONFIRM_KEY);
      if (answer.kind === 'elicit') {
        if (answer.action === 'accept' && answer.content?.reveal === true) return note(uri.href, SECRET_NOTE_TEXT);
        if (answer.action === 'accept' && answer.content?.reveal === false)
          return note(uri.href, 'The note stays sealed: you chose not to reveal it.');
        if (answer.action === 'decline') return note(uri.href, 'The note stays sealed: you declined to reveal it.');
        if (answer.action === 'cancel') return note(uri.href, 'The note stays sealed: the confirmation was dismissed.');
      }
      // First round, or an accepted answer without a boolean `reveal`: ask (again).
      const message =
        answer.kind === 'elicit'
          ? 'Your last answer did not say yes or no (reveal must be true or false). Reveal the secret note?'
          : 'Reveal the secret note? It will be shown to the model.';
      return round.ask({ [CONFIRM_KEY]: inputRequired.elicit({ message, requestedSchema: CONFIRM_FORM }) });
    },
  );
}

function note(uri: string, text: string): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'text/plain', text }] };
}
