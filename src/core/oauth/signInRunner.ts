/**
 * One server's sign-ins, one at a time: a caller arriving while one runs waits for the same one (and
 * may stop waiting on its own signal). The scope asked for is the challenge's; on a step-up (`403
 * insufficient_scope`) the union with what was asked before, with re-consent forced when that is more
 * than was granted; a `401` after a token re-runs discovery. Refreshes ahead of expiry share one
 * refresh as well.
 *
 * Spec: MCP 2026-07-28 "Authorization": scope challenge handling, step-up with the union of scopes
 * (SEP-2350), refresh tokens.
 */
import { computeScopeUnion, isStrictScopeSuperset } from '@modelcontextprotocol/client';
import { abortRejection } from '../util/async';
import { HostError } from '../util/errors';
import { describeChallenge, type AuthChallenge } from './challenge';
import { runSignIn, type SignInContext } from './signInFlow';

/** The sign-in and the refresh under way, if any. */
export class SignInRunner {
  private inFlight?: Promise<void>;
  private refreshing?: Promise<unknown>;

  constructor(private readonly ctx: SignInContext) {}

  /** True while a sign-in runs. */
  get running(): boolean {
    return !!this.inFlight;
  }

  /**
   * Sign in for `challenge`, or wait for the sign-in under way.
   * @throws HostError `authRequired`, `cancelled` (also when `signal` aborts the wait), `auth` (see `signInFlow.ts`)
   */
  async signIn(challenge: AuthChallenge, signal?: AbortSignal): Promise<void> {
    this.inFlight ??= this.run(challenge, signal).finally(() => (this.inFlight = undefined));
    const stop = abortRejection(signal, () => new HostError('cancelled', `the sign-in to ${this.ctx.server} was cancelled`));
    try {
      await Promise.race([this.inFlight, stop.promise]);
    } finally {
      stop.dispose();
    }
  }

  /** Refresh the token (one refresh at a time; best effort: a failure is logged and leaves it to the server's 401). */
  async refresh(): Promise<void> {
    this.refreshing ??= runSignIn(this.ctx, { force: false, refreshOnly: true })
      .catch((e: unknown) => this.ctx.step(`refreshing the token ahead of its expiry failed: ${(e as Error).message}`))
      .finally(() => (this.refreshing = undefined));
    await this.refreshing;
  }

  private async run(challenge: AuthChallenge, signal?: AbortSignal): Promise<void> {
    const { ctx } = this;
    const record = await ctx.credentials.tokens(ctx.serverUrl);
    const granted = typeof record?.tokens.scope === 'string' ? record.tokens.scope : undefined;
    const previous = record?.requestedScope ?? granted;
    const scope = challenge.status === 403 ? computeScopeUnion(previous, challenge.scope) : challenge.scope;
    const force = challenge.status === 403 && isStrictScopeSuperset(scope, granted);
    ctx.step(
      `${ctx.server} answered ${challenge.operation} with ${describeChallenge(challenge)}${challenge.hadToken ? '' : ' (no token yet)'}; ${force ? 'asking for more scopes' : 'signing in'}`,
    );
    // A token refused with 401: the server may now name another authorization server.
    if (challenge.status === 401 && challenge.hadToken) await ctx.provider.invalidateCredentials('discovery');
    try {
      await runSignIn(ctx, { challenge, scope, force, signal });
    } catch (e) {
      // No sign-in possible here: the call's error says why and what to do; the log names it only.
      ctx.step(
        e instanceof HostError && e.kind === 'authRequired'
          ? 'did not sign in: none can be done here (the call says what to do)'
          : `did not sign in: ${(e as Error).message}`,
      );
      throw e;
    }
  }
}
