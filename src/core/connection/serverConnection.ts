/**
 * One server as the host sees it: its lifecycle (`connectionLifecycle.ts`: lazy connect, era verdict,
 * reconnect, close, restart), and what is sent over it: MRTR legs and lists. The MRTR loop itself is
 * `mrtr/driver.ts`. Its other parts: the SDK session (`session.ts`), the transport (`transports.ts`),
 * the SDK error mapping (`sdkErrors.ts`), 2025-era pushed requests (`legacyPush.ts`) and
 * tool-parameter headers (`toolHeaders.ts`).
 *
 * Spec: MCP 2026-07-28 "Lifecycle" and "Multi Round-Trip Requests"; the 2025-11-25 lifecycle for
 * 2025-era servers.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { HostEvent } from '../log/events';
import type { FormContentCheck } from '../mrtr/answers';
import type { InputProvider, MrtrMethod } from '../mrtr/inputs';
import { deadline, raceAbort } from '../util/async';
import { HostError, cancellation, isHostError } from '../util/errors';
import { ConnectionLifecycle } from './connectionLifecycle';
import type { ConnectionOptions } from './connectionOptions';
import { LegacyPushes, type ActiveFlow } from './legacyPush';
import { mapListError, mapSdkError } from './sdkErrors';
import type { ServerSpec } from './serverSpec';
import { LIST_METHODS, type LegOptions, type LegOutcome, type ListKind, type ListOptions, type Session } from './session';
import type { LegRecord } from './wireTap';
import { ToolHeaders } from './toolHeaders';
import { SignInNeeded } from '../oauth/challenge';


/** JSON-RPC code of a request whose HTTP headers do not match its body (spec: HeaderMismatchError). */
export const HEADER_MISMATCH = -32020;

/**
 * A lazily connected server: legs and lists go over it; its lifecycle is {@link ConnectionLifecycle}.
 * Every method that talks to the server throws {@link HostError}s naming the server.
 */
export class ServerConnection extends ConnectionLifecycle {
  /** The handlers of 2025-era pushed requests, and the calls in flight they refer to. */
  private readonly pushes: LegacyPushes;
  /** The `x-mcp-header` declarations of the listed tools (a 2026-07-28 HTTP connection only). */
  private readonly headers: ToolHeaders;

  constructor(spec: ServerSpec, options: ConnectionOptions) {
    super(spec, options);
    this.pushes = new LegacyPushes({ server: spec.name, provider: options.provider, checkFormContent: options.checkFormContent, emit: (e) => this.emit(e) });
    this.headers = new ToolHeaders((message) => this.emit({ kind: 'serverWarning', server: spec.name, message }));
  }

  get name(): string {
    return this.spec.name;
  }

  /** Who answers this server's input requests by default (its capabilities are the ones declared). */
  get provider(): InputProvider {
    return this.options.provider;
  }

  /** The deep check of accepted form content, when the host wired one. */
  get checkFormContent(): FormContentCheck | undefined {
    return this.options.checkFormContent;
  }

  /** The last lines the server wrote on stderr (newest last). */
  get stderrTail(): readonly string[] {
    return this.diagnostics.stderrTail;
  }

  /** The last error reported outside any request (a message that could not be read), with its time. */
  get lastUnreadable(): { at: number; message: string } | undefined {
    return this.diagnostics.lastUnreadable;
  }

  /**
   * Send one leg of an MRTR call and return what the server answered, `input_required` included.
   * Reserved `_meta` keys must already be stripped (the driver does it); the SDK adds the protocol envelope.
   * On a 2026-07-28 HTTP connection, a `tools/call` answered HeaderMismatch (-32020) is sent once
   * more after the tools are listed again (their `x-mcp-header` declarations may have changed).
   * @param params the original params plus this round's `inputResponses`/`requestState`
   * @throws HostError: `server` (JSON-RPC error, with code; a second HeaderMismatch too), `protocol`
   *   (malformed result), `connection`, `cancelled` (signal aborted), `timeLimit` (leg timeout);
   *   {@link SignInNeeded} when the server wants a sign-in first (the caller runs it outside the leg's
   *   time limit and sends the leg again)
   */
  sendLeg(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): Promise<LegOutcome> {
    // The hot path (connected, no headers to mirror) is written without a wait: a retry is on the
    // round latency measured in test/bench.
    const session = this.current;
    if (session && (method !== 'tools/call' || !this.mirrorsHeaders)) return session.sendLeg(method, params, opts, undefined, this.legFailure(method, params, opts), this.spec.name);
    return this.connectAndSendLeg(method, params, opts);
  }

  /**
   * {@link sendLeg} once connected, with the tool's `Mcp-Param-*` headers when it mirrors them. The
   * leg's time limit bounds the connect and the listing too; the leg gets what is left of it.
   */
  private async connectAndSendLeg(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): Promise<LegOutcome> {
    const started = Date.now();
    const what = `${method} ${String(params.name ?? params.uri ?? '')}`.trim();
    const limitError = () => opts.limitError?.() ?? new HostError('timeLimit', `${what} on ${this.spec.name} exceeded its time limit of ${opts.timeoutMs} ms`);
    const limit = opts.timeoutMs === undefined ? undefined : deadline(opts.signal, opts.timeoutMs, limitError);
    const signal = limit?.signal ?? opts.signal;
    const mapError = this.legFailure(method, params, opts);
    const send = async () => {
      const session = this.current ?? (await this.connectedFor(signal));
      let headers: Record<string, string> | undefined;
      if (method === 'tools/call' && this.mirrorsHeaders) {
        const listed = this.headers.headersFor(params, () => this.list('tools'));
        // The listing may be shared with other calls: this leg stops waiting for it when its signal aborts.
        headers = signal ? await raceAbort(listed, signal, () => cancellation(signal, `${what} was cancelled`)) : await listed;
      }
      const left = opts.timeoutMs === undefined ? undefined : opts.timeoutMs - (Date.now() - started);
      if (left !== undefined && left <= 0) throw limitError();
      return session.sendLeg(method, params, left === undefined ? opts : { ...opts, timeoutMs: left }, headers, mapError, this.spec.name);
    };
    try {
      return await send();
    } catch (e) {
      if (!isHostError(e, 'server') || e.code !== HEADER_MISMATCH) throw e;
      // Spec (Streamable HTTP, custom headers): the tool's definition may have changed since it was
      // listed; the client SHOULD list the tools again and retry once. A second mismatch is reported.
      this.emit({ kind: 'serverWarning', server: this.spec.name, message: `${this.spec.name} answered ${what} with HeaderMismatch (${HEADER_MISMATCH}): tools listed again, the request sent once more` });
      this.headers.reset();
      await this.list('tools', { signal });
      return await send();
    } finally {
      limit?.dispose();
    }
  }

  /** How a failed leg is reported: the SDK's error mapped with what the host saw of the leg. */
  private legFailure(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): (e: unknown, leg: LegRecord) => HostError {
    return (e, leg) => {
      const mapped = mapSdkError(e, this.diagnostics.failure(`${method} ${String(params.name ?? params.uri ?? '')}`.trim(), leg, opts.signal));
      // The SDK's timer of the request is the leg's limit: its expiry is told as the caller words it.
      return mapped.kind === 'timeLimit' && opts.limitError ? opts.limitError() : mapped;
    };
  }

  /**
   * List tools, prompts, resources or resource templates (all pages, within the limits of
   * `Session.list`). On a 2026-07-28 HTTP connection, tools whose `x-mcp-header` declarations break
   * a rule are left out (spec: Streamable HTTP, custom headers). A server that wants a sign-in first
   * gets one (the host's driver asks the person), then the list is asked again.
   * @param opts.timeoutMs the time limit of the whole listing, connecting included, ms
   * @throws HostError; an `input_required` answer to a list is a protocol error (spec: only
   *   tools/call, prompts/get and resources/read may answer it); `timeLimit` past `opts.timeoutMs`;
   *   the signal's reason (or `cancelled`) once it aborts; `auth`, `authRequired` or `cancelled` when
   *   the sign-in fails
   */
  async list(kind: ListKind, opts: ListOptions = {}): Promise<unknown[]> {
    // Bounded: each sign-in counts against the operation's limit (`oauth/serverOAuth.ts`); the time a
    // person spends signing in is not the listing's, so each attempt has its own time limit.
    for (;;) {
      try {
        return await this.listOnce(kind, opts);
      } catch (e) {
        if (!(e instanceof SignInNeeded)) throw e;
        await e.signIn(opts.signal);
      }
    }
  }

  private async listOnce(kind: ListKind, opts: ListOptions): Promise<unknown[]> {
    const what = LIST_METHODS[kind];
    const limit = opts.timeoutMs === undefined ? undefined : deadline(opts.signal, opts.timeoutMs, () => new HostError('timeLimit', `${what} on ${this.spec.name} exceeded its time limit of ${opts.timeoutMs} ms`));
    const signal = limit?.signal ?? opts.signal;
    try {
      const session = await this.connectedFor(signal);
      const items = await session.list(kind, { signal }, this.spec.name, () => this.diagnostics.bytesReceived);
      return kind === 'tools' && this.mirrorsHeaders ? this.headers.remember(items as { name: string; inputSchema?: unknown }[]) : items;
    } catch (e) {
      throw mapListError(e, this.diagnostics.failure(what, undefined, signal));
    } finally {
      limit?.dispose();
    }
  }

  /** Forget this server's sign-in (the next request asks again). @returns whether it was signed in */
  async signOut(): Promise<boolean> {
    return (await this.oauth?.signOut()) ?? false;
  }


  /**
   * The session, connecting first when needed; a wait ended by `signal` says it was connecting.
   * @throws what {@link ensureConnected} throws
   */
  private async connectedFor(signal: AbortSignal | undefined): Promise<Session> {
    try {
      return await this.ensureConnected(signal);
    } catch (e) {
      if (e instanceof HostError && (e.kind === 'timeLimit' || e.kind === 'cancelled')) throw new HostError(e.kind, `${e.message}, while connecting to ${this.spec.name}`, e.code, e.data);
      throw e;
    }
  }

  /** The SDK sees the answers held back for it (`Session.flushHeldBack`): before a leg's signal aborts. */
  flushHeldBack(): void {
    this.current?.flushHeldBack();
  }

  /** Register a call in flight, so 2025-era pushed requests can say which call they belong to. */
  beginFlow(flow: ActiveFlow): () => void {
    return this.pushes.beginFlow(flow);
  }

  /** Tool parameters go out as `Mcp-Param-*` headers: on a 2026-07-28 HTTP connection only. */
  private get mirrorsHeaders(): boolean {
    return this.spec.transport === 'http' && this.era === 'modern';
  }

  protected prepare(client: Client): void {
    this.pushes.register(client);
  }

  protected connectedAgain(): void {
    // A (re)connected server may list other tools: read the declarations again.
    this.headers.reset();
  }

  protected emit(e: HostEvent): void {
    try {
      this.options.onEvent?.(e);
    } catch {
      /* a broken listener never breaks a call */
    }
  }
}
