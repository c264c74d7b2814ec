/**
 * VS Code's "done" of a URL that a URLElicitationRequiredError (-32042) asked the person to open (after
 * the round panel's URL consent): a notification naming the server and the URL's host, with Done and
 * Cancel. The server's `notifications/elicitation/complete` ends the wait too (the driver aborts
 * `ctx.signal`; the notification then does nothing). No `vscode` import: testable under Node.
 *
 * Spec: MCP 2025-11-25 "Elicitation", URL mode: URLElicitationRequiredError, the request retried once
 * the person is done.
 */
import type { ElicitRequestParams } from '@modelcontextprotocol/client';
import { analyzeUrl } from '../../core/elicitation/urlConsent';
import type { InputContext } from '../../core/inputs/inputProvider';
import { raceAbort } from '../../core/util/async';
import { HostError } from '../../core/util/errors';
import { notificationText } from '../shared/notificationText';

/** The buttons of the notification (a contract: tests and the docs name them). */
export const URL_DONE_BUTTONS = { done: 'Done', cancel: 'Cancel' } as const;

/** Shows a notification with buttons; resolves to the button chosen, `undefined` when it is closed. */
export type ShowNotification = (message: string, ...items: string[]) => PromiseLike<string | undefined>;

/**
 * Wait for the person's Done.
 * @param show `vscode.window.showInformationMessage`
 * @throws HostError `cancelled` when the person chooses Cancel or closes the notification; the
 *   signal's reason when `ctx.signal` aborts first
 */
export async function askUrlDone(params: ElicitRequestParams, ctx: InputContext, show: ShowNotification): Promise<void> {
  const host = analyzeUrl(String((params as { url?: unknown }).url ?? '')).host;
  const message = notificationText(
    `MCP Roundtrip: ${ctx.round.server} sends ${ctx.round.method} ${ctx.round.target} again once you are done at ${host}. Choose ${URL_DONE_BUTTONS.done} when you are.`,
    600,
  );
  const chosen = await raceAbort(Promise.resolve(show(message, URL_DONE_BUTTONS.done, URL_DONE_BUTTONS.cancel)), ctx.signal, () =>
    ctx.signal.reason instanceof HostError ? ctx.signal.reason : new HostError('cancelled', 'the wait for the URL was ended'),
  );
  if (chosen !== URL_DONE_BUTTONS.done)
    throw new HostError('cancelled', `you cancelled the wait for ${host} (${ctx.round.server} ${ctx.round.method} ${ctx.round.target})`);
}
