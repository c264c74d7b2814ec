/**
 * One server as the host sees it: its lifecycle (lazy connect, era verdict, reconnect, close,
 * restart), and what is sent over it: MRTR legs and lists. The MRTR loop itself is `mrtr/driver.ts`.
 *
 * Spec: MCP 2026-07-28 "Lifecycle" and "Multi Round-Trip Requests"; the 2025-11-25 lifecycle for
 * 2025-era servers.
 */
import type { Client, Implementation } from '@modelcontextprotocol/client';
import { raceAbort } from '../util/async';
import { cancellation, errorMessage } from '../util/errors';
import { isPlainObject } from '../util/json';
import type { ChangedList, HostEvent } from '../log/events';
import type { FormContentCheck } from '../inputs/answers';
import type { InputProvider, MrtrMethod } from '../inputs/inputProvider';
import type { ServerOAuth } from '../oauth/serverOAuth';
import type { ListKind, ListOptions } from './boundedList';
import { ConnectionLifecycle } from './connectionLifecycle';
import type { ConnectionOptions } from './connectionOptions';
import type { ConnectionState, ConnectionStatus } from './connectionState';
import { ServerDiagnostics } from './diagnostics';
import { LegacyPushes, type ActiveFlow } from './legacyPush';
import { sendKnownLeg, sendMirroredLeg } from './mirroredLeg';
import type { ServerSpec } from './serverSpec';
import type { LegOptions, LegOutcome, Session } from './session';
import { CHANGED_LIST_OF, ListCache } from './listCache';
import { listSigningIn } from './signedInList';
import { ToolHeaders } from './toolHeaders';

/** The lists whose `notifications/<list>/list_changed` the host listens to. */
const CHANGED_LISTS = ['tools', 'prompts', 'resources'] as const;

/**
 * A lazily connected server, made of its parts: the session's lifecycle ({@link ConnectionLifecycle},
 * whose status is a tagged union), its diagnostics, the handlers of 2025-era pushes and its tools'
 * header declarations. Every method that talks to the server throws `HostError`s naming the server.
 */
export class ServerConnection {
  private readonly lifecycle: ConnectionLifecycle;
  private readonly diagnostics: ServerDiagnostics;
  /** The handlers of 2025-era pushed requests, and the calls in flight they refer to. */
  private readonly pushes: LegacyPushes;
  /** The `x-mcp-header` declarations of the listed tools (a 2026-07-28 HTTP connection only). */
  private readonly headers: ToolHeaders;
  /** Told of every `list_changed` the server sends (the log admits only some of them). */
  private readonly listListeners = new Set<(list: ChangedList) => void>();
  /** Who follows the server's pushed task statuses (`notifications/tasks/status`). */
  private readonly taskStatusListeners = new Set<(params: Record<string, unknown>) => void>();
  /** The `subscriptions/listen` streams asked on a 2026-07-28 session, by list: settled once acknowledged or refused. */
  private readonly followed = new WeakMap<Session, Map<ChangedList, Promise<void>>>();
  /** The lists whose changes a 2026-07-28 session's `subscriptions/listen` stream tells, by session. */
  private readonly told = new WeakMap<Session, Set<ChangedList>>();
  /** The lists read on the current session, kept while the server tells of their changes. */
  private readonly lists = new ListCache();

  constructor(
    readonly spec: ServerSpec,
    private readonly options: ConnectionOptions,
  ) {
    const emit = (e: HostEvent) => this.emit(e);
    this.diagnostics = new ServerDiagnostics(spec.name, emit);
    this.pushes = new LegacyPushes({
      server: spec.name,
      provider: options.provider,
      checkFormContent: options.checkFormContent,
      emit,
      warn: (message) => this.diagnostics.warning(`${spec.name} ${message}`),
    });
    this.headers = new ToolHeaders((message) => emit({ kind: 'serverWarning', server: spec.name, message }));
    this.lifecycle = new ConnectionLifecycle(spec, options, this.diagnostics, {
      prepare: (client: Client) => {
        this.pushes.register(client);
        client.setNotificationHandler('notifications/message', (n) => this.diagnostics.serverLog(n.params));
        // The SDK has no handler slot for it (its tasks are types only): taken before the fallback's warning.
        const fallback = client.fallbackNotificationHandler;
        client.fallbackNotificationHandler = (n) => {
          if (n.method !== 'notifications/tasks/status' || !isPlainObject(n.params)) return fallback?.(n) ?? Promise.resolve();
          for (const listener of this.taskStatusListeners) listener(n.params);
          return Promise.resolve();
        };
        for (const list of CHANGED_LISTS)
          client.setNotificationHandler(`notifications/${list}/list_changed`, () => {
            this.lists.changed(list);
            this.diagnostics.listChanged(list);
            for (const listener of this.listListeners) listener(list);
          });
      },
      connected: () => {
        // A (re)connected server may list other tools: read the declarations again.
        this.headers.reset();
        this.lists.clear();
        askLogLevel(this.lifecycle.current, options.logLevel, (message) => emit({ kind: 'serverWarning', server: spec.name, message }));
      },
      emit,
    });
  }

  get name(): string {
    return this.spec.name;
  }

  /** Where the connection stands, with what went wrong (shown in the servers view). */
  get status(): ConnectionStatus {
    return this.lifecycle.status;
  }

  /** The kind of {@link status}. */
  get state(): ConnectionState {
    return this.lifecycle.state;
  }

  /** What the server negotiated, from its last successful handshake (kept after it closed). */
  get era(): 'modern' | 'legacy' | undefined {
    return this.lifecycle.era;
  }

  get protocolVersion(): string | undefined {
    return this.lifecycle.protocolVersion;
  }

  get serverInfo(): Implementation | undefined {
    return this.lifecycle.serverInfo;
  }

  get instructions(): string | undefined {
    return this.lifecycle.instructions;
  }

  /** The protocol versions a 2026-07-28 server's `server/discover` listed (kept after it closed). */
  get supportedVersions(): readonly string[] | undefined {
    return this.lifecycle.supportedVersions;
  }

  /** The server's sign-in, when it is an HTTP server that may sign in and the host can do sign-ins. */
  get oauth(): ServerOAuth | undefined {
    return this.lifecycle.oauth;
  }

  /** A signal aborted when the current connection is lost (used to end rounds waiting for input). */
  get lostSignal(): AbortSignal {
    return this.lifecycle.lostSignal;
  }

  /** What the server supports (from discover or initialize), once connected. */
  get serverCapabilities(): ReturnType<Client['getServerCapabilities']> {
    return this.lifecycle.serverCapabilities;
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

  /** {@link ConnectionLifecycle.ensureConnected}. */
  ensureConnected(signal?: AbortSignal): Promise<Session> {
    return this.lifecycle.ensureConnected(signal);
  }

  /** {@link ConnectionLifecycle.close}. */
  close(): Promise<void> {
    return this.lifecycle.close();
  }

  /** {@link ConnectionLifecycle.closeWithin}. */
  closeWithin(graceMs: number): Promise<void> {
    return this.lifecycle.closeWithin(graceMs);
  }

  /** {@link ConnectionLifecycle.kill}. */
  kill(): Promise<void> {
    return this.lifecycle.kill();
  }

  /** {@link ConnectionLifecycle.restart}. */
  restart(): Promise<void> {
    return this.lifecycle.restart();
  }

  /**
   * Send one leg of an MRTR call and return what the server answered, `input_required` included.
   * Reserved `_meta` keys must already be stripped (the driver does it); the SDK adds the protocol envelope,
   * and on a 2026-07-28 connection the log level of the options goes with it (`LegOptions.logLevel`).
   * On a 2026-07-28 HTTP connection, a `tools/call` answered HeaderMismatch (-32020) is sent once
   * more after the tools are listed again (their `x-mcp-header` declarations may have changed).
   * @param params the original params plus this round's `inputResponses`/`requestState`
   * @throws HostError: `server` (JSON-RPC error, with code; a second HeaderMismatch too), `protocol`
   *   (malformed result), `connection`, `cancelled` (signal aborted), `timeLimit` (leg timeout);
   *   `SignInNeeded` when the server wants a sign-in first (the caller runs it outside the leg's
   *   time limit and sends the leg again)
   */
  sendLeg(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions): Promise<LegOutcome> {
    // The hot paths (connected; no headers to mirror, or the tool's known) never wait (the hot path, docs/architecture.md).
    const { lifecycle, headers } = this;
    const session = lifecycle.current;
    const { logLevel } = this.options;
    if (logLevel) opts = { ...opts, logLevel };
    const mapError = this.diagnostics.legFailure(method, params, opts);
    if (session && (method !== 'tools/call' || !lifecycle.mirrorsHeaders))
      return session.sendLeg(method, params, opts, undefined, mapError, this.spec.name);
    return (
      (session && sendKnownLeg(lifecycle, headers, session, params, opts, mapError)) ||
      sendMirroredLeg(lifecycle, headers, method, params, opts, mapError)
    );
  }

  /**
   * Send one request outside the MRTR methods (the task methods: `tasks/get`, `tasks/update`,
   * `tasks/result`, `tasks/cancel`), connecting first if need be, and return its raw result.
   * @param opts.timeoutMs the request's time limit, ms
   * @throws HostError: `server` (JSON-RPC error, with code), `protocol`, `connection`, `cancelled`
   *   (signal aborted), `timeLimit`
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<Record<string, unknown>> {
    const session = this.lifecycle.current ?? (await this.lifecycle.connectedFor(opts.signal));
    const mapError = this.diagnostics.requestFailure(method, opts.signal);
    return session.request(method, params, opts, mapError, this.spec.name);
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
    const kept = this.lists.kept(this.lifecycle.current, kind);
    if (kept) return kept;
    const stamp = this.lists.stamp(kind);
    const before = this.lifecycle.current;
    const items = await listSigningIn(this.lifecycle, this.headers, kind, opts);
    const session = this.lifecycle.current;
    // Kept for the session it was read on only (none before: the listing connected it).
    if (session && (!before || before === session) && this.tellsOfChanges(session, kind)) this.lists.keep(session, kind, stamp, items);
    return items;
  }

  /**
   * Whether the server will say when `kind` changes, so that a listing of it may be kept: it declares
   * `<list>.listChanged`, and on 2026-07-28 a `subscriptions/listen` stream for it is open
   * ({@link followChanges}); a 2025-era server pushes the notifications unasked.
   */
  private tellsOfChanges(session: Session, kind: ListKind): boolean {
    const list = CHANGED_LIST_OF[kind];
    const declared = (session.client.getServerCapabilities() as Record<string, { listChanged?: unknown } | undefined> | undefined)?.[list];
    if (declared?.listChanged !== true) return false;
    return this.era === 'legacy' || this.told.get(session)?.has(list) === true;
  }

  /** Forget this server's sign-in (the next request asks again). @returns whether it was signed in */
  async signOut(): Promise<boolean> {
    return (await this.lifecycle.oauth?.signOut()) ?? false;
  }

  /**
   * The abort controller of a call's legs over this connection. Its abort first hands the SDK the
   * answers the connection took early: the SDK would otherwise cancel, on the wire, a leg already answered.
   */
  callController(): AbortController {
    return new CallController(() => this.lifecycle.current?.flushHeldBack());
  }

  /** {@link LegacyPushes.elicitationComplete}: the server's `notifications/elicitation/complete` for `elicitationId`. */
  elicitationComplete(elicitationId: string, signal: AbortSignal): Promise<void> {
    return this.pushes.elicitationComplete(elicitationId, signal);
  }

  /**
   * Subscribes to the server's `notifications/tools|prompts|resources/list_changed` (MCP 2025-11-25
   * "List Changed Notification"; on 2026-07-28 only on a stream {@link followChanges} opened), across
   * reconnects: the SDK keeps one handler per notification, which the connection owns, so a part that
   * needs to know subscribes here instead.
   * @returns the unsubscribe
   */
  onListChanged(listener: (list: ChangedList) => void): () => void {
    this.listListeners.add(listener);
    return () => this.listListeners.delete(listener);
  }

  /**
   * Subscribes to the task statuses a 2025-era server pushes unasked (`notifications/tasks/status`, MCP
   * 2025-11-25 "Tasks": its params are the task, as `tasks/get` gives it), across reconnects. The
   * listener gets the params as sent: it reads and bounds them itself (`core/tasks`).
   * @returns the unsubscribe
   */
  onTaskStatus(listener: (params: Record<string, unknown>) => void): () => void {
    this.taskStatusListeners.add(listener);
    return () => this.taskStatusListeners.delete(listener);
  }

  /**
   * Have the server tell of its changes to `list` from now on, through {@link onListChanged}. A
   * 2025-era server pushes them unasked. A 2026-07-28 server sends them only on a `subscriptions/listen`
   * stream that asked for them (MCP 2026-07-28 "Subscriptions", `SubscriptionFilter`), so, when it
   * declares `<list>.listChanged`, one stream per session and list is opened, and this resolves once the
   * server acknowledged it: a listing made after that misses no change. A stream that ended while the
   * session lives is opened again on the next call. Connects when needed.
   * Never throws for the stream: one refused or not acknowledged in time is a `serverWarning`, and that
   * list's changes are then seen only when it is listed again.
   * @param opts.timeoutMs how long the acknowledgement is awaited, ms
   * @throws what connecting throws; the signal's reason (or `cancelled`) once it aborts
   */
  async followChanges(list: ChangedList, opts: { signal?: AbortSignal; timeoutMs: number }): Promise<void> {
    const session = await this.lifecycle.ensureConnected(opts.signal);
    if (this.era !== 'modern') return;
    const declared = (session.client.getServerCapabilities() as Record<string, { listChanged?: unknown } | undefined> | undefined)?.[list];
    if (declared?.listChanged !== true) return;
    let streams = this.followed.get(session);
    if (!streams) this.followed.set(session, (streams = new Map<ChangedList, Promise<void>>()));
    let opened = streams.get(list);
    if (!opened) {
      const open = streams;
      const flag = `${list}ListChanged` as const;
      // Not the caller's signal: the stream outlives the request that opened it (it ends with the session).
      opened = session.client.listen({ [flag]: true }, { timeout: opts.timeoutMs }).then(
        (sub) => {
          if (sub.honoredFilter[flag] === true) {
            let told = this.told.get(session);
            if (!told) this.told.set(session, (told = new Set()));
            told.add(list);
          }
          void sub.closed.then((how) => {
            if (how !== 'local' && open.get(list) === opened) open.delete(list);
            // No longer told of its changes: what was kept of it may go stale unseen.
            this.told.get(session)?.delete(list);
            this.lists.changed(list);
          });
          if (sub.honoredFilter[flag] !== true)
            this.diagnostics.warning(
              `${this.name} declined to tell of changes to its ${list} (subscriptions/listen); they are seen only when listed again`,
            );
        },
        (e: unknown) => {
          if (open.get(list) === opened) open.delete(list);
          this.diagnostics.warning(
            `${this.name} did not open a stream for changes to its ${list} (subscriptions/listen: ${errorMessage(e)}); they are seen only when listed again`,
          );
        },
      );
      streams.set(list, opened);
    }
    if (opts.signal)
      await raceAbort(opened, opts.signal, () => cancellation(opts.signal!, `following ${this.name}'s ${list} changes was cancelled`));
    else await opened;
  }

  /** Register a call in flight, so 2025-era pushed requests can say which call they belong to. */
  beginFlow(flow: ActiveFlow): () => void {
    return this.pushes.beginFlow(flow);
  }

  private emit(e: HostEvent): void {
    try {
      this.options.onEvent?.(e);
    } catch {
      /* a broken listener never breaks a call */
    }
  }
}

/**
 * Ask a 2025-era server that declares `logging` for `level` (`logging/setLevel`; 2026-07-28 removed it).
 * Not awaited: the request goes before the first leg on the same connection; a refusal is a warning
 * (`warn`), never a failed call.
 */
function askLogLevel(session: Session | undefined, level: ConnectionOptions['logLevel'], warn: (message: string) => void): void {
  const client = session?.client;
  if (!level || !client || client.getProtocolEra() === 'modern' || !client.getServerCapabilities()?.logging) return;
  void client.setLoggingLevel(level).catch((e: unknown) => warn(`logging/setLevel ${level} was refused: ${errorMessage(e)}`));
}

/** An abort controller that runs `beforeAbort` once, before its signal aborts. */
class CallController extends AbortController {
  constructor(private readonly beforeAbort: () => void) {
    super();
  }

  override abort(reason?: unknown): void {
    if (!this.signal.aborted) this.beforeAbort();
    super.abort(reason);
  }
}
