/**
 * Answering one input request: the same step for an input embedded in `input_required` (the MRTR
 * driver) and for a request a 2025-era server pushes (`connection/legacyPush.ts`). The provider's
 * answer is checked before it can reach the wire (`answers.ts`): a provider bug never sends an
 * invalid answer.
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests" (`InputRequest`, `InputResponse`) and "Client
 * capabilities" (a client answers only what it declared).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { checkAnswer, type FormContentCheck, type InputAnswer } from './answers';
import type { InputContext, InputProvider, InputRequestEntry } from './inputProvider';
import type { Awaitable } from '../util/async';

/**
 * Ask `provider` for the answer to `entry` and check it.
 * @param checkFormContent the deep check of accepted form content, when the host wired one
 * @returns the checked answer, the exact value that goes under `entry.key` in `inputResponses`
 * @throws what the provider throws (HostError `declined`, `missingAnswer`, `cancelled`...), or HostError
 *   `protocol` when the answer is invalid (`checkAnswer`)
 */
export async function answerInput(
  provider: InputProvider,
  entry: InputRequestEntry,
  ctx: InputContext,
  checkFormContent?: FormContentCheck,
): Promise<InputAnswer> {
  return checkAnswer(entry, await askProvider(provider, entry, ctx), checkFormContent);
}

/**
 * The provider's raw answer to `entry`, not checked yet (the round's driver checks it in the same
 * step it records it, `answerRound.ts`): `elicit`, `sample` or `listRoots` by the entry's method.
 * @returns the answer as the provider gave it: a promise, or (roots at hand) the value itself
 */
export function askProvider(provider: InputProvider, entry: InputRequestEntry, ctx: InputContext): Awaitable<unknown> {
  switch (entry.method) {
    case 'elicitation/create':
      return provider.elicit(entry.params as never, ctx);
    case 'sampling/createMessage':
      return provider.sample(entry.params as never, ctx);
    case 'roots/list':
      return provider.listRoots(ctx);
  }
}

/**
 * What `entry` asks for that `capabilities` did not declare (`elicitation`, its `url` mode, `sampling`,
 * `roots`), named for a message ("URL-mode elicitation", "sampling/createMessage"); `undefined` when
 * it was declared.
 */
export function undeclaredInput(entry: InputRequestEntry, capabilities: ClientCapabilities): string | undefined {
  switch (entry.method) {
    case 'elicitation/create': {
      const url = entry.params.mode === 'url';
      if (capabilities.elicitation && !(url && !(capabilities.elicitation as { url?: unknown }).url)) return undefined;
      return url ? 'URL-mode elicitation' : entry.method;
    }
    case 'sampling/createMessage':
      return capabilities.sampling ? undefined : entry.method;
    case 'roots/list':
      return capabilities.roots ? undefined : entry.method;
  }
}
