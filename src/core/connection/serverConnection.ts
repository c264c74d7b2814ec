/**
 * One server as the host sees it: its lifecycle (`connectionLifecycle.ts`: lazy connect, era verdict,
 * reconnect, close, restart), and what is sent over it: MRTR legs and lists. The MRTR loop itself is
 * `mrtr/driver.ts`. Its other parts: the SDK session (`session.ts`), the transport (`transports.ts`),
 * the SDK error mapping (`sdkErrors.ts`), 2025-era pushed requests (`legacyPush.ts`),
 * tool-parameter headers (`toolHeaders.ts`), a leg that mirrors them or connects first
 * (`mirroredLeg.ts`) and the listing with its sign-ins (`signedInList.ts`), both reaching the
 * connection through `connectionRoute.ts`.
 *
 * Spec: MCP 2026-07-28 "Lifecycle" and "Multi Round-Trip Requests"; the 2025-11-25 lifecycle for
 * 2025-era servers.
 */
import type { Client } from '@modelcontextprotocol/client';
import type { HostEvent } from '../log/events';
import type { FormContentCheck } from '../inputs/answers';
import type { InputProvider, MrtrMethod } from '../inputs/inputProvider';
import { ConnectionLifecycle } from './connectionLifecycle';
import type { ConnectionOptions } from './connectionOptions';
import type { ConnectionRoute } from './connectionRoute';
import { LegacyPushes, type ActiveFlow } from './legacyPush';
import { sendKnownLeg, sendMirroredLeg } from './mirroredLeg';
import type { ServerSpec } from './serverSpec';
import type { LegOptions, LegOutcome, Session } from './session';
import type { ListKind, ListOptions } from './boundedList';
import { listSigningIn } from './signedInList';
import { ToolHeaders } from './toolHeaders';

export { HEADER_MISMATCH } from './mirroredLeg';

/**
 * A lazily connected server: legs and lists go over it; its lifecycle is {@link ConnectionLifecycle}.
 * Every method that talks to the server throws `HostError`s naming the server.
 */
export class ServerConnection extends ConnectionLifecycle {
  /** The handlers of 2025-era pushed requests, and the calls in flight they refer to. */
  private readonly pushes: LegacyPushes;
  /** The `x-mcp-header` declarations of the listed tools (a 2026-07-28 HTTP connection only). */
  private readonly headers: ToolHeaders;
  /** What the sending parts (`mirroredLeg.ts`, `signedInList.ts`) reach of this connection. */
  private readonly route: ConnectionRoute;

  constructor(spec: ServerSpec, options: ConnectionOptions) {
    super(spec, options);
    this.pushes = new LegacyPushes({ server: spec.name, provider: options.provider, checkFormContent: options.checkFormContent, emit: (e) => this.emit(e) });
    const warn = (message: string) => this.emit({ kind: 'serverWarning', server: spec.name, message });
    this.headers = new ToolHeaders(warn);
    this.route = {
      server: spec.name,
      diagnostics: this.diagnostics,
      headers: this.headers,
      current: () => this.current,
      connectedFor: (signal) => this.connectedFor(signal),
      mirrorsHeaders: () => this.mirrorsHeaders,
      list: (kind, opts) => this.list(kind, opts),
      warn,
    };
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
   *   `SignInNeeded` when the server wants a sign-in first (the caller runs it outside the leg's
   *   time limit and sends the leg again)
   */
  sendLeg(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): Promise<LegOutcome> {
    // The hot paths (connected; no headers to mirror, or the tool's known) never wait (round latency, test/bench).
    const session = this.current;
    const mapError = this.diagnostics.legFailure(method, params, opts);
    if (session && (method !== 'tools/call' || !this.mirrorsHeaders)) return session.sendLeg(method, params, opts, undefined, mapError, this.spec.name);
    return (session && sendKnownLeg(this.route, session, params, opts, mapError)) || sendMirroredLeg(this.route, method, params, opts, mapError);
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
  list(kind: ListKind, opts: ListOptions = {}): Promise<unknown[]> {
    return listSigningIn(this.route, kind, opts);
  }

  /** Forget this server's sign-in (the next request asks again). @returns whether it was signed in */
  async signOut(): Promise<boolean> {
    return (await this.oauth?.signOut()) ?? false;
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
