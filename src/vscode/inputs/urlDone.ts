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

/** The words of the notification: English here (no `vscode` import); the extension gives `vscode.l10n.t`'s. */
export interface UrlDoneText {
  /** The message, from the server, the method and target sent again, the URL's host and the Done button. */
  message(server: string, method: string, target: string, host: string, done: string): string;
  done: string;
  cancel: string;
}

/** The English words, as the buttons' contract names them. */
export const URL_DONE_ENGLISH: UrlDoneText = {
  // l10n-exempt: the default of the Node tests; the extension passes vscode.l10n.t's words.
  message: (server, method, target, host, done) =>
    `MCP Roundtrip: ${server} sends ${method} ${target} again once you are done at ${host}. Choose ${done} when you are.`,
  ...URL_DONE_BUTTONS,
};

/** Shows a notification with buttons; resolves to the button chosen, `undefined` when it is closed. */
export type ShowNotification = (message: string, ...items: string[]) => PromiseLike<string | undefined>;

/**
 * Wait for the person's Done.
 * @param show `vscode.window.showInformationMessage`
 * @throws HostError `cancelled` when the person chooses Cancel or closes the notification; the
 *   signal's reason when `ctx.signal` aborts first
 */
export async function askUrlDone(
  params: ElicitRequestParams,
  ctx: InputContext,
  show: ShowNotification,
  text: UrlDoneText = URL_DONE_ENGLISH,
): Promise<void> {
  const host = analyzeUrl(String((params as { url?: unknown }).url ?? '')).host;
  const message = notificationText(text.message(ctx.round.server, ctx.round.method, ctx.round.target, host, text.done), 600);
  const chosen = await raceAbort(Promise.resolve(show(message, text.done, text.cancel)), ctx.signal, () =>
    ctx.signal.reason instanceof HostError ? ctx.signal.reason : new HostError('cancelled', 'the wait for the URL was ended'),
  );
  if (chosen !== text.done)
    throw new HostError('cancelled', `you cancelled the wait for ${host} (${ctx.round.server} ${ctx.round.method} ${ctx.round.target})`);
}
