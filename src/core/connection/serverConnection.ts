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
import { ConnectionLifecycle } from './connectionLifecycle';
import type { ConnectionOptions } from './connectionOptions';
import { LegacyPushes, type ActiveFlow } from './legacyPush';
import { mapListError, mapSdkError } from './sdkErrors';
import type { ServerSpec } from './serverSpec';
import { LIST_METHODS, type LegOptions, type LegOutcome, type ListKind, type Session } from './session';
import type { LegRecord } from './wireTap';
import { ToolHeaders } from './toolHeaders';


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
   * @param params the original params plus this round's `inputResponses`/`requestState`
   * @throws HostError: `server` (JSON-RPC error, with code), `protocol` (malformed result), `connection`,
   *   `cancelled` (signal aborted), `timeLimit` (leg timeout)
   */
  sendLeg(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): Promise<LegOutcome> {
    // Connected, with no header still to learn: the leg is written without a wait (a retry is on the
    // round latency measured in test/bench).
    const session = this.openSession;
    const mirrors = method === 'tools/call' && this.mirrorsHeaders;
    if (session && (!mirrors || this.headers.listed)) return this.legOn(session, method, params, opts, mirrors ? this.headers.headersOf(params) : undefined);
    return this.connectAndSendLeg(method, params, opts);
  }

  private async connectAndSendLeg(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): Promise<LegOutcome> {
    const session = await this.ensureConnected();
    const headers = method === 'tools/call' && this.mirrorsHeaders ? await this.headers.headersFor(params, () => this.list('tools')) : undefined;
    return this.legOn(session, method, params, opts, headers);
  }

  private legOn(session: Session, method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions, headers: Record<string, string> | undefined): Promise<LegOutcome> {
    const failure = (e: unknown, leg: LegRecord) => mapSdkError(e, this.diagnostics.failure(`${method} ${String(params.name ?? params.uri ?? '')}`.trim(), leg, opts.signal));
    return session.sendLeg(method, params, opts, headers, failure, this.spec.name);
  }

  /**
   * List tools, prompts, resources or resource templates (all pages).
   * @throws HostError; an `input_required` answer to a list is a protocol error (spec: only
   *   tools/call, prompts/get and resources/read may answer it)
   */
  async list(kind: ListKind): Promise<unknown[]> {
    const session = await this.ensureConnected();
    try {
      const items = await session.list(kind);
      if (kind === 'tools' && this.mirrorsHeaders) this.headers.remember(items as { name: string; inputSchema?: unknown }[]);
      return items;
    } catch (e) {
      throw mapListError(e, this.diagnostics.failure(LIST_METHODS[kind]));
    }
  }

  /** The SDK sees the answers held back for it (`Session.flushHeldBack`): before a leg's signal aborts. */
  flushHeldBack(): void {
    this.openSession?.flushHeldBack();
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
