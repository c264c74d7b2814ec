/**
 * A URLElicitationRequiredError (-32042): the server refuses a request until the person has opened
 * one or more URLs. The host offers each URL through the input provider, with the same URL consent as
 * any URL elicitation (the round panel, the terminal, an `--answers` entry under the elicitation's
 * `elicitationId`), waits until the server says it is done (`notifications/elicitation/complete`) or
 * the person does, and the driver then sends the request once more.
 *
 * Spec: MCP 2025-11-25, "Elicitation", URL mode: URLElicitationRequiredError and
 * `notifications/elicitation/complete`.
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../connection/serverConnection';
import { answerInput } from '../inputs/answerInput';
import type { InputContext, InputProvider, InputRequestEntry, RoundInfo } from '../inputs/inputProvider';
import { HostError, isHostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import { oneLine } from '../util/shownText';

/** JSON-RPC code of URLElicitationRequiredError (MCP 2025-11-25). */
export const URL_ELICITATION_REQUIRED = -32042;
/** Most URLs one such error may ask for; past it the error is the call's (a server's flood is not shown). */
export const MAX_URL_ELICITATIONS = 8;

/**
 * The URL elicitations a failed leg asks for: the `data.elicitations` of a -32042 error, each with
 * `mode: "url"`, a `url` and an `elicitationId` (strings).
 * @returns `undefined` when `e` is no such error, or when its data does not hold such a list
 */
export function urlElicitationsOf(e: unknown): Record<string, unknown>[] | undefined {
  if (!isHostError(e, 'server') || e.code !== URL_ELICITATION_REQUIRED || !isPlainObject(e.data)) return undefined;
  const list = e.data.elicitations;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_URL_ELICITATIONS) return undefined;
  const ok = list.every(
    (x) => isPlainObject(x) && x.mode === 'url' && typeof x.url === 'string' && typeof x.elicitationId === 'string' && x.elicitationId,
  );
  return ok ? (list as Record<string, unknown>[]) : undefined;
}

/**
 * Offer each URL, in order, and wait for each accepted one to be done.
 * @param round the call's round the error came in (its inputs are these URL elicitations, keyed by `elicitationId`)
 * @throws HostError `declined` when the person declines a URL (the call cannot go on without it),
 *   `cancelled` when they cancel, what the provider throws otherwise (e.g. `missingAnswer`)
 */
export async function satisfyUrlElicitations(
  conn: ServerConnection,
  provider: InputProvider,
  elicitations: Record<string, unknown>[],
  round: Omit<RoundInfo, 'inputs'>,
  signal: AbortSignal,
): Promise<void> {
  const inputs: InputRequestEntry[] = elicitations.map((params) => ({
    key: String(params.elicitationId),
    method: 'elicitation/create',
    params,
  }));
  const info: RoundInfo = { ...round, inputs };
  for (const entry of inputs) {
    const ctx: InputContext = { round: info, key: entry.key, signal };
    // Waiting for the server's word starts before the person is asked: it may come first.
    const completed = conn.elicitationComplete(entry.key, signal);
    const answer = (await answerInput(provider, entry, ctx, conn.checkFormContent)) as ElicitResult;
    const url = oneLine(String(entry.params.url), 200);
    if (answer.action === 'cancel') throw new HostError('cancelled', `the URL ${url} that ${conn.name} asked to open was cancelled`);
    if (answer.action !== 'accept')
      throw new HostError('declined', `${conn.name} needs the URL ${url} opened before it goes on; it was declined`);
    // Without a way to say "done", the call goes on at once (a wait with no end would hold it for ever).
    if (provider.urlDone) await doneOrCompleted(provider.urlDone.bind(provider), entry, ctx, completed);
  }
}

/**
 * Wait for the person's "done" or the server's completion, whichever first; the person's question is
 * withdrawn when the server's word comes first.
 */
async function doneOrCompleted(
  urlDone: NonNullable<InputProvider['urlDone']>,
  entry: InputRequestEntry,
  ctx: InputContext,
  completed: Promise<void>,
): Promise<void> {
  const withdraw = new AbortController();
  void completed.then(() => withdraw.abort());
  const asked = urlDone(entry.params as never, { ...ctx, signal: AbortSignal.any([ctx.signal, withdraw.signal]) }).catch((e: unknown) => {
    // The question withdrawn because the server said it is done: that is no failure.
    if (withdraw.signal.aborted && !ctx.signal.aborted) return;
    throw e;
  });
  try {
    await Promise.race([completed, asked]);
  } finally {
    withdraw.abort();
  }
}
