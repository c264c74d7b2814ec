/**
 * Gathering every answer of one MRTR round, concurrently, for the driver (`driver.ts`).
 *
 * Spec: MCP 2026-07-28, "Multi Round-Trip Requests": every entry of `inputRequests` is answered
 * before the retry, under the same keys, in the server's order; a client answers only what it declared.
 */
import type { ServerConnection } from '../connection/serverConnection';
import { AbortLinks, abortRejection } from '../util/async';
import { HostError, cancellation } from '../util/errors';
import { answerInput, undeclaredInput } from './answerInput';
import type { InputAnswer } from './answers';
import type { InputContext, InputProvider, InputRequestEntry, RoundInfo } from './inputs';

/** Called once per input, as soon as its checked answer is in. */
export type AnswerListener = (entry: InputRequestEntry, answer: InputAnswer) => void;

/**
 * Answer every input of `round`. If one input fails (declined sampling, no answer, invalid answer,
 * server gone), `callAbort` is aborted so the other inputs' UI closes, and the round fails.
 *
 * @param callAbort the call's one controller: its signal is every input's `ctx.signal`; it is also
 *   aborted when the connection is lost while the inputs wait (linked for this round only: a loss
 *   during a leg is that leg's error). It is not aborted on success: a UI kept open across rounds
 *   (one panel per call) stays open.
 * @param links the call's abort links (the link to the connection is removed when the round ends)
 * @returns the answers by key, exactly the keys the server asked, in its order
 * @throws HostError `protocol` for an input of a capability the host did not declare or an invalid
 *   answer; what the provider throws; the call signal's reason (or HostError `cancelled`) once it aborts,
 *   even if a provider ignores its signal
 */
export async function answerRound(
  conn: Pick<ServerConnection, 'name' | 'lostSignal' | 'checkFormContent'>,
  provider: InputProvider,
  round: RoundInfo,
  callAbort: AbortController,
  links: AbortLinks,
  onAnswer: AnswerListener,
): Promise<Record<string, InputAnswer>> {
  const signal = callAbort.signal;
  const unfollowLost = links.follow(conn.lostSignal, callAbort);
  const caps = provider.capabilities;
  const checkFormContent = conn.checkFormContent;
  // A Map: server-chosen keys such as "__proto__" must stay plain keys.
  const answers = new Map<string, InputAnswer>();
  const aborted = abortRejection(signal, () => cancellation(signal, 'cancelled'));
  const tasks = round.inputs.map(async (entry) => {
    const undeclared = undeclaredInput(entry, caps);
    if (undeclared) throw new HostError('protocol', `${conn.name} asked for ${undeclared} ("${entry.key}"), a capability this host did not declare`);
    const ctx: InputContext = { round, key: entry.key, signal };
    const answer = await answerInput(provider, entry, ctx, checkFormContent);
    answers.set(entry.key, answer);
    onAnswer(entry, answer);
  });
  try {
    await Promise.race([Promise.all(tasks), aborted.promise]);
  } catch (e) {
    // Close the other inputs' UI: this round cannot be sent.
    callAbort.abort(e);
    throw e;
  } finally {
    aborted.dispose();
    unfollowLost();
  }
  return Object.fromEntries(round.inputs.map((e) => [e.key, answers.get(e.key)!]));
}
