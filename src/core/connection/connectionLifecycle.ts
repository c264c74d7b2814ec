/**
 * The lifecycle of a server connection: nothing happens until the first use; concurrent first uses
 * share one attempt; the era verdict is remembered so a reconnect skips the probe; a connection the
 * server closed is re-established on the next use; the host may close or restart it. The state
 * carries its own message (`connectionState.ts`).
 *
 * Spec: MCP 2026-07-28 "Lifecycle" (`server/discover`), and the 2025-11-25 `initialize` handshake.
 */
import type { Client, Implementation } from '@modelcontextprotocol/client';
import type { HostEvent } from '../log/events';
import { CONNECT_TIMEOUT_MS } from '../limits';
import { findSignInError } from '../oauth/challenge';
import { ServerOAuth } from '../oauth/serverOAuth';
import { raceAbort } from '../util/async';
import { HostError, cancellation } from '../util/errors';
import { keepingMessage, type ConnectionState, type ConnectionStatus } from './connectionState';
import type { ConnectionOptions } from './connectionOptions';
import type { ServerDiagnostics } from './diagnostics';
import { describeConnectFailure } from './sdkErrors';
import { usesOAuth, type ServerSpec } from './serverSpec';
import { Session } from './session';
import type { EraVerdict, SessionOptions } from './handshake';
import { createTransport, isStdio } from './transports';

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-roundtrip', version: '0.1.0' };

/** What a lifecycle tells the connection that owns it. */
export interface LifecycleHooks {
  /** Prepare a new client before it connects (handlers of pushed requests). */
  prepare(client: Client): void;
  /** A new connection is up (what was learnt from the previous one may be stale). */
  connected(): void;
  /** Send a host event (a broken listener never breaks a call). */
  emit(e: HostEvent): void;
}

/**
 * The SDK session of one server over time: its status, the session of the current connection, and
 * connect, close and restart. The connection that owns it sends over it.
 */
export class ConnectionLifecycle {
  /** Where the connection stands, with what went wrong (shown in the servers view). */
  status: ConnectionStatus = { kind: 'idle' };
  /** What the server negotiated, from its last successful handshake (kept after it closed). */
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  serverInfo?: Implementation;
  instructions?: string;
  /** The protocol versions a 2026-07-28 server's `server/discover` listed (kept after it closed). */
  supportedVersions?: readonly string[];
  /** The server's sign-in, when it is an HTTP server that may sign in and the host can do sign-ins. */
  readonly oauth?: ServerOAuth;
  private session?: Session;
  private connecting?: Promise<Session>;
  /** The current connection's `lost` controller (replaced on connect; aborted by a host close). */
  private lost = new AbortController();
  private prior?: EraVerdict;
  private everConnected = false;
  /** Ends the connection attempt under way (a host close or kill). */
  private attempt?: AbortController;
  /** Sessions being closed (their server asked to stop): a kill reaches them too. */
  private readonly closing = new Set<Session>();

  constructor(
    readonly spec: ServerSpec,
    private readonly options: ConnectionOptions,
    readonly diagnostics: ServerDiagnostics,
    private readonly hooks: LifecycleHooks,
  ) {
    if (options.oauth && usesOAuth(spec))
      this.oauth = new ServerOAuth(spec.name, spec.url, spec.oauth || {}, options.oauth, (e) => hooks.emit(e), spec.era);
  }

  /** The kind of {@link status}. */
  get state(): ConnectionState {
    return this.status.kind;
  }

  /** A signal aborted when the current connection is lost (used to end rounds waiting for input). */
  get lostSignal(): AbortSignal {
    return this.lost.signal;
  }

  /** The session of the current connection, when there is one (no connecting). */
  get current(): Session | undefined {
    return this.session;
  }

  /** Tool parameters go out as `Mcp-Param-*` headers: on a 2026-07-28 HTTP connection only. */
  get mirrorsHeaders(): boolean {
    return this.spec.transport === 'http' && this.era === 'modern';
  }

  /** What the server supports (from discover or initialize), once connected. */
  get serverCapabilities(): ReturnType<Client['getServerCapabilities']> {
    return this.session?.client.getServerCapabilities();
  }

  /**
   * The current session; connects when there is none (concurrent callers share one attempt, which
   * is bounded by the connect time limit, `connectTimeoutMs`).
   * @param signal ends this caller's wait (not the attempt, which other callers may share)
   * @throws HostError kind `connection` naming the server and the cause (with the stderr tail); the
   *   signal's reason (or HostError `cancelled`, which `connectedFor` tells as "while connecting") once it aborts
   */
  ensureConnected(signal?: AbortSignal): Promise<Session> {
    if (this.session) return Promise.resolve(this.session);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return signal ? raceAbort(this.connecting, signal, () => cancellation(signal, 'cancelled')) : this.connecting;
  }

  /**
   * The session, connecting first when needed; a wait ended by `signal` says it was connecting.
   * @throws what {@link ensureConnected} throws
   */
  async connectedFor(signal: AbortSignal | undefined): Promise<Session> {
    try {
      return await this.ensureConnected(signal);
    } catch (e) {
      // Only a wait this caller's signal ended is told as "while connecting".
      if (signal?.aborted && e instanceof HostError && (e.kind === 'timeLimit' || e.kind === 'cancelled'))
        throw new HostError(e.kind, `${e.message}, while connecting to ${this.spec.name}`, e.code, e.data);
      throw e;
    }
  }

  /** Close the connection (a stdio server is asked to stop), or end the attempt under way. The next use reconnects. */
  async close(): Promise<void> {
    const session = this.detach(`connection to ${this.spec.name} was closed by the host`);
    if (session) {
      this.closing.add(session);
      await session.client.close().catch(() => {});
      this.closing.delete(session);
    }
    this.diagnostics.flush();
  }

  /**
   * {@link close}, and {@link kill} the server if it has not stopped within `graceMs` (a process
   * about to exit cannot wait out the polite sequence of a server that ignores it).
   */
  async closeWithin(graceMs: number): Promise<void> {
    const closed = this.close();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)));
    if (await Promise.race([closed.then(() => false), late])) await this.kill();
    clearTimeout(timer);
    await closed;
  }

  /** Stop the server at once (a stdio server is killed, not asked), connected or connecting. */
  async kill(): Promise<void> {
    const session = this.detach(`the server ${this.spec.name} was stopped by the host`);
    await Promise.all([...(session ? [session] : []), ...this.closing].map((s) => s.kill()));
    this.diagnostics.flush();
  }

  /** Let go of the current session (returned) and end the attempt under way; rounds waiting end with `why`. */
  private detach(why: string): Session | undefined {
    const session = this.session;
    this.session = undefined;
    this.status = keepingMessage('idle', this.status);
    this.attempt?.abort(new HostError('connection', `connecting to ${this.spec.name} was stopped by the host`));
    this.lost.abort(new HostError('connection', why));
    return session;
  }

  /** Close and forget the remembered era verdict (a restarted server may have been upgraded). */
  async restart(): Promise<void> {
    this.prior = undefined;
    await this.close();
    await this.ensureConnected();
  }

  private async connect(): Promise<Session> {
    const { spec, options, diagnostics } = this;
    this.status = keepingMessage('connecting', this.status);
    this.hooks.emit({ kind: 'connecting', server: spec.name, attempt: this.everConnected ? 'reconnect' : 'first' });
    const started = Date.now();
    const attempt = (this.attempt = new AbortController());
    let session: Session;
    try {
      session = await Session.open(
        sessionOptions(spec, options, diagnostics, this.oauth, {
          prepare: (client) => this.hooks.prepare(client),
          signal: attempt.signal,
          onClose: (closed) => this.closedByServer(closed),
        }),
        this.prior,
      );
    } catch (e) {
      // The server wants a sign-in first: the caller signs in and connects again.
      const signIn = findSignInError(e);
      this.status = { kind: 'error', message: signIn ? signIn.message : diagnostics.connectFailed(describeConnectFailure(e)) };
      // The handshake's own time limit is a time limit (CLI exit 4), whatever else went wrong is the connection's.
      throw signIn ?? new HostError(e instanceof HostError && e.kind === 'timeLimit' ? 'timeLimit' : 'connection', this.status.message);
    } finally {
      if (this.attempt === attempt) this.attempt = undefined;
    }
    if (attempt.signal.aborted) {
      // Closed by the host just as the handshake finished: this session is not kept.
      await session.kill();
      throw attempt.signal.reason;
    }
    const client = session.client;
    [this.era, this.protocolVersion, this.serverInfo, this.instructions] = [
      client.getProtocolEra() ?? 'legacy',
      client.getNegotiatedProtocolVersion(),
      client.getServerVersion(),
      client.getInstructions?.(),
    ];
    const verdict = session.verdict;
    this.supportedVersions = verdict.kind === 'modern' ? verdict.discover.supportedVersions : undefined;
    if ((spec.era ?? 'auto') === 'auto') this.prior = verdict;
    [this.session, this.lost, this.status, this.everConnected] = [session, session.lost, { kind: 'connected' }, true];
    this.hooks.connected();
    this.hooks.emit({
      kind: 'connected',
      server: spec.name,
      era: this.era,
      protocolVersion: this.protocolVersion,
      serverName: this.serverInfo?.name,
      serverVersion: this.serverInfo?.version,
      ms: Date.now() - started,
    });
    return session;
  }

  private closedByServer(session: Session): void {
    if (this.session !== session) return;
    this.session = undefined;
    this.diagnostics.flush();
    this.status = { kind: 'closed', message: this.diagnostics.closedByServer() };
    this.hooks.emit({ kind: 'disconnected', server: this.spec.name, reason: this.status.message });
  }
}

/**
 * The handshake's options for one connection attempt to `spec`: its transport reports to `diagnostics`
 * and signs in through `oauth`; `attempt` holds what belongs to this attempt.
 */
function sessionOptions(
  spec: ServerSpec,
  options: ConnectionOptions,
  diagnostics: ServerDiagnostics,
  oauth: ServerOAuth | undefined,
  attempt: Pick<SessionOptions<Session>, 'prepare' | 'signal' | 'onClose'>,
): SessionOptions<Session> {
  return {
    ...attempt,
    server: spec.name,
    era: spec.era ?? 'auto',
    stdio: isStdio(spec),
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    capabilities: options.provider.capabilities,
    newTransport: () =>
      createTransport(spec, {
        onStderr: (line, cut) => diagnostics.stderr(line, cut),
        onUnreadable: (reason) => diagnostics.unreadable(reason),
        onBytes: (n) => (diagnostics.bytesReceived += n),
        wrapFetch: oauth ? (inner) => oauth.wrapFetch(inner) : undefined,
      }),
    observe: options.onWire ? (dir, msg) => options.onWire!(spec.name, dir, msg) : undefined,
    timeoutMs: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    // A refusal for want of a sign-in is the request's error, not the server's fault.
    onError: (e) => findSignInError(e) === undefined && diagnostics.unreadable(e),
    onRefused: (what) => diagnostics.warning(`${spec.name} ${what}`),
  };
}
