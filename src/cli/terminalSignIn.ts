/**
 * Sign-ins on a terminal: before the sign-in reaches another origin than the server's, the host it
 * goes to and a yes/no question (Enter: yes); then the host the browser goes to (and the authorization server's when it
 * differs), every scope (a step-up's new ones first) and any warning, printed whole; the URL printed (server
 * text made safe for a terminal), the browser opened unless `--no-browser`, then whichever comes
 * first: the browser back at the loopback listener, or the URL the browser ended on pasted at the
 * prompt (a browser on another machine). Ctrl+C cancels. Without a terminal nothing can be asked:
 * the driver says so and the CLI exits with the sign-in exit code.
 */
import { spawn } from 'node:child_process';
import type { AuthorizationDriver, AuthorizationRequest, SignInStartRequest } from '../core/oauth/driver';
import { parsePastedCallback } from '../core/oauth/callbackParams';
import { alreadyAgreed, signInPrompt } from '../core/oauth/signInPrompt';
import { HostError } from '../core/util/errors';
import type { Ask } from './terminalPrompt';
import { cliText } from './messages';

/** Open `url` in the desktop's browser (best effort: a failure only means the person opens it). */
export function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    /* the URL is printed: the person opens it */
  }
}

/** What the terminal driver needs. */
export interface TerminalSignInOptions {
  /** Whether stdin is a terminal (a pasted URL can be read, someone is there). */
  interactive: boolean;
  out: NodeJS.WritableStream;
  ask: Ask;
  /** False with `--no-browser`. */
  openBrowser: boolean;
  /** Where the sign-ins are kept, for the message when none can be done; `undefined` when none is kept between runs (`--oauth-store memory`). */
  storeHint: string | undefined;
  open?: (url: string) => void;
}

/** The CLI's {@link AuthorizationDriver}. */
export function terminalSignIn(o: TerminalSignInOptions): AuthorizationDriver {
  return {
    interactive: o.interactive,
    unavailable:
      o.storeHint === undefined
        ? 'stdin is not a terminal. Run the same command once in a terminal to sign in (with --oauth-store memory, a sign-in lasts that one run: none is kept from an earlier one), or give a token with --header "Authorization=Bearer …"'
        : `stdin is not a terminal. Run the same command once in a terminal to sign in (the sign-in is kept in ${o.storeHint}), or give a token with --header "Authorization=Bearer …"`,
    // Before the sign-in leaves the server's origin: the host it goes to, every scope known, a question (Enter: yes).
    async approveSignIn(req: SignInStartRequest): Promise<void> {
      const p = signInPrompt({ ...req, issuer: req.origin.href, authorizationUrl: req.origin });
      const warnings = p.warnings.map((w) => `  ${cliText('Warning: {0}', w)}\n`).join('');
      o.out.write(`\n${p.headline}${p.scopes ? ` (${p.scopes})` : ''}.\n${warnings}`);
      const answer = (await o.ask(`  ${cliText('Sign in there? Nothing is sent to it before you say yes [Y/n]')} `, req.signal))
        .trim()
        .toLowerCase();
      if (answer === 'n' || answer === 'no') throw new HostError('cancelled', `signing in to ${req.server} was declined`);
    },
    async authorize(req: AuthorizationRequest): Promise<URLSearchParams> {
      const p = signInPrompt(req);
      const warnings = p.warnings.map((w) => `  ${cliText('Warning: {0}', w)}\n`).join('');
      const open = o.openBrowser ? cliText('Open this URL in your browser (opening it now):') : cliText('Open this URL in your browser:');
      // Agreed to already (same host, no other scope): the URL alone; else the whole prompt again.
      const said = alreadyAgreed(req) ? '' : `\n${p.headline}${p.scopes ? ` (${p.scopes})` : ''}.\n${warnings}`;
      o.out.write(`${said}  ${open}\n\n  ${req.authorizationUrl.href}\n\n`);
      if (o.openBrowser) (o.open ?? openInBrowser)(req.authorizationUrl.href);
      // Whichever comes first: the browser at the listener, or a pasted URL.
      const pasting = new AbortController();
      const unlink = () => pasting.abort();
      req.signal.addEventListener('abort', unlink, { once: true });
      const pasted = (async (): Promise<URLSearchParams> => {
        for (;;) {
          const line = await o.ask(
            `  ${cliText('Waiting for the browser to come back to {0}. Or paste the URL your browser ended on (Enter):', req.redirectUrl.origin)} `,
            pasting.signal,
          );
          try {
            return parsePastedCallback(line);
          } catch (e) {
            o.out.write(`  ${(e as HostError).message}\n`);
          }
        }
      })();
      try {
        return await Promise.race([req.callback, pasted]);
      } finally {
        pasting.abort();
        req.signal.removeEventListener('abort', unlink);
        pasted.catch(() => {});
        o.out.write('\n');
      }
    },
  };
}
