/**
 * Sign-ins in VS Code: a notification naming the server, the host the browser goes to (and the
 * authorization server's when it differs) and every scope, with **Sign in…** (a modal dialog when
 * that is too long for a notification or the URL draws a warning); the browser opens only after that click (`openExternal`, https or
 * loopback URLs only); then a progress notification with Cancel while the browser is out, and a
 * notification to paste the URL the browser ended on (a browser that cannot come back to this
 * machine). In a remote window the callback is reached through `asExternalUri`. A server defined by
 * an untrusted workspace gets no sign-in.
 */
import * as vscode from 'vscode';
import type { AuthorizationDriver, AuthorizationRequest, SignInStartRequest } from '../../core/oauth/driver';
import { browserUrlProblem } from '../../core/oauth/driver';
import { parsePastedCallback } from '../../core/oauth/callbackParams';
import { alreadyAgreed, signInPrompt, type SignInPromptRequest } from '../../core/oauth/signInPrompt';
import { isLoopbackHost } from '../../core/oauth/clientIdentity';
import { HostError, errorMessage } from '../../core/util/errors';
import { notificationText } from '../shared/notificationText';

/** The button of the sign-in notification (a contract). */
export const SIGN_IN = vscode.l10n.t('Sign in…');
/** The button that pastes the URL the browser ended on. */
export const PASTE = vscode.l10n.t('Paste the URL your browser ended on…');

/** The longest sign-in text shown in a notification; a longer one goes to a modal dialog, whole. */
export const NOTIFICATION_MAX = 500;

/**
 * How the sign-in is asked (no link syntax, one line each): a notification when the whole text fits
 * one and the URL draws no warning; else a modal dialog, the headline as its message and every scope
 * and warning in its detail, never cut.
 */
export function signInMessage(req: SignInPromptRequest): { message: string; modal?: { detail: string } } {
  const p = signInPrompt(req);
  if (p.text.length <= NOTIFICATION_MAX && !p.warnings.length) return { message: notificationText(p.text, NOTIFICATION_MAX) };
  const detail = [p.scopes ? `${p.scopes[0].toUpperCase()}${p.scopes.slice(1)}.` : '', ...p.warnings.map((w) => `Warning: ${w}`)];
  return {
    message: notificationText(`${p.headline}.`, NOTIFICATION_MAX),
    modal: { detail: notificationText(detail.filter(Boolean).join(' '), Number.MAX_SAFE_INTEGER) },
  };
}

/** Show `asked` with {@link SIGN_IN}; resolves when it is clicked, throws HostError `cancelled` otherwise. */
async function askToSignIn(asked: { message: string; modal?: { detail: string } }, server: string, signal: AbortSignal): Promise<void> {
  const choice = await Promise.race([
    asked.modal
      ? vscode.window.showInformationMessage(asked.message, { modal: true, detail: asked.modal.detail }, SIGN_IN)
      : vscode.window.showInformationMessage(asked.message, SIGN_IN, vscode.l10n.t('Not now')),
    new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })),
  ]);
  if (choice !== SIGN_IN) throw new HostError('cancelled', `signing in to ${server} was declined`);
}

/**
 * The question before a sign-in leaves the server's origin: the same notification, naming the host
 * the sign-in reaches first (the browser's host is known only from that host's metadata; when it turns
 * out another one, or scopes not shown here are asked for, the sign-in asks again).
 */
export function signInStartMessage(req: SignInStartRequest): { message: string; modal?: { detail: string } } {
  return signInMessage({ ...req, issuer: req.origin.href, authorizationUrl: req.origin });
}

/** Ask for the pasted URL until it reads, or the person gives up (undefined). */
async function askPasted(): Promise<URLSearchParams | undefined> {
  for (let value = ''; ;) {
    const text = await vscode.window.showInputBox({
      title: vscode.l10n.t('MCP Roundtrip: finish signing in'),
      prompt: vscode.l10n.t('Paste the whole address your browser ended on after signing in'),
      value,
      ignoreFocusOut: true,
    });
    if (text === undefined) return undefined;
    try {
      return parsePastedCallback(text);
    } catch (e) {
      value = text;
      void vscode.window.showWarningMessage(notificationText(errorMessage(e)));
    }
  }
}

/**
 * The extension's {@link AuthorizationDriver}.
 * @param mayAuthorize throws (HostError `auth`) for a server that must not sign in (untrusted workspace)
 */
export function vscodeSignIn(mayAuthorize: (server: string) => void): AuthorizationDriver {
  return {
    interactive: true,
    async redirectUrlFor(local: URL): Promise<URL> {
      if (!vscode.env.remoteName && vscode.env.uiKind !== vscode.UIKind.Web) return local;
      // Remote: the browser runs elsewhere; VS Code forwards the port (or proxies it over https).
      const external = new URL((await vscode.env.asExternalUri(vscode.Uri.parse(local.href))).toString(true));
      return external.protocol === 'https:' || (external.protocol === 'http:' && isLoopbackHost(external.hostname)) ? external : local;
    },
    async approveSignIn(req: SignInStartRequest): Promise<void> {
      mayAuthorize(req.server);
      await askToSignIn(signInStartMessage(req), req.server, req.signal);
    },
    async authorize(req: AuthorizationRequest): Promise<URLSearchParams> {
      mayAuthorize(req.server);
      const problem = browserUrlProblem(req.authorizationUrl);
      if (problem) throw new HostError('auth', `not opening ${problem}`);
      // Asked already before the sign-in left the server's origin, for this host and these scopes: not twice.
      if (!alreadyAgreed(req)) await askToSignIn(signInMessage(req), req.server, req.signal);
      // The loopback start URL: openExternal re-encodes query strings (it turned "http%3A%2F%2F" in
      // `resource` into "http:/"); the listener redirects to the authorization URL byte for byte.
      const opened = await vscode.env.openExternal(vscode.Uri.parse(req.launchUrl.href, true));
      if (!opened) throw new HostError('cancelled', `the browser was not opened; signing in to ${req.server} was cancelled`);
      const as = signInPrompt(req).host;
      return vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: notificationText(vscode.l10n.t('Signing in to {0} at {1}: waiting for your browser…', req.server, as), 300),
          cancellable: true,
        },
        async (_progress, token) => {
          const stop = new AbortController();
          const cancelled = new Promise<never>((_, reject) => {
            token.onCancellationRequested(() => reject(new HostError('cancelled', `signing in to ${req.server} was cancelled`)));
            req.signal.addEventListener(
              'abort',
              () => reject(req.signal.reason ?? new HostError('cancelled', `signing in to ${req.server} was cancelled`)),
              { once: true },
            );
          });
          cancelled.catch(() => {});
          const pasted = new Promise<URLSearchParams>((resolve) => {
            void vscode.window
              .showInformationMessage(
                notificationText(
                  vscode.l10n.t('If your browser cannot come back to VS Code after signing in at {0}, paste the address it ended on.', as),
                ),
                PASTE,
              )
              .then(async (pick) => {
                if (pick !== PASTE || stop.signal.aborted) return;
                const params = await askPasted();
                if (params && !stop.signal.aborted) resolve(params);
              });
          });
          try {
            return await Promise.race([req.callback, pasted, cancelled]);
          } finally {
            stop.abort();
          }
        },
      );
    },
  };
}
