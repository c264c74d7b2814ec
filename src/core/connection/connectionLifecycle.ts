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
import { HostError } from '../util/errors';
import { keepingMessage, type ConnectionState, type ConnectionStatus } from './connectionState';
import type { ConnectionOptions } from './connectionOptions';
import { ServerDiagnostics } from './diagnostics';
import type { ServerSpec } from './serverSpec';
import { Session, type EraVerdict } from './session';
import { createTransport, isStdio } from './transports';

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-roundtrip', version: '0.1.0' };

/**
 * The lifecycle half of {@link ServerConnection}: its status, the SDK session of the current connection,
 * and connect, close and restart. The subclass adds what is sent over it.
 */
export abstract class ConnectionLifecycle {
  /** Where the connection stands, with what went wrong (shown in the servers view). */
  status: ConnectionStatus = { kind: 'idle' };
  /** What the server negotiated, from its last successful handshake (kept after it closed). */
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  serverInfo?: Implementation;
  instructions?: string;
  protected readonly diagnostics: ServerDiagnostics;
  private session?: Session;
  private connecting?: Promise<Session>;
  /** The current connection's `lost` controller (replaced on connect; aborted by a host close). */
  private lost = new AbortController();
  private prior?: EraVerdict;
  private everConnected = false;

  constructor(
    readonly spec: ServerSpec,
    protected readonly options: ConnectionOptions,
  ) {
    this.diagnostics = new ServerDiagnostics(spec.name, (e) => this.emit(e));
  }

  /** The kind of {@link status}. */
  get state(): ConnectionState {
    return this.status.kind;
  }

  /** A signal aborted when the current connection is lost (used to end rounds waiting for input). */
  get lostSignal(): AbortSignal {
    return this.lost.signal;
  }

  /** What the server supports (from discover or initialize), once connected. */
  get serverCapabilities(): ReturnType<Client['getServerCapabilities']> {
    return this.session?.client.getServerCapabilities();
  }

  /** The session of the current connection, when there is one (no connect). */
  protected get openSession(): Session | undefined {
    return this.session;
  }

  /**
   * The current session; connects when there is none (concurrent callers share one attempt).
   * @throws HostError kind `connection` naming the server and the cause (with the stderr tail)
   */
  ensureConnected(): Promise<Session> {
    if (this.session) return Promise.resolve(this.session);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Close the connection (kills a stdio server). The next use reconnects. */
  async close(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    this.status = keepingMessage('idle', this.status);
    this.lost.abort(new HostError('connection', `connection to ${this.spec.name} was closed by the host`));
    await session?.client.close().catch(() => {});
  }

  /** Close and forget the remembered era verdict (a restarted server may have been upgraded). */
  async restart(): Promise<void> {
    this.prior = undefined;
    await this.close();
    await this.ensureConnected();
  }

  /** Prepare a new client before it connects (handlers of pushed requests). */
  protected abstract prepare(client: Client): void;
  /** A new connection is up (what was learnt from the previous one may be stale). */
  protected abstract connectedAgain(): void;
  /** Send a host event (a broken listener never breaks a call). */
  protected abstract emit(e: HostEvent): void;

  private async connect(): Promise<Session> {
    const { spec, options, diagnostics } = this;
    this.status = keepingMessage('connecting', this.status);
    this.emit({ kind: 'connecting', server: spec.name, attempt: this.everConnected ? 'reconnect' : 'first' });
    const started = Date.now();
    let session: Session;
    try {
      session = await Session.open(
        {
          server: spec.name,
          era: spec.era ?? 'auto',
          stdio: isStdio(spec),
          clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
          capabilities: options.provider.capabilities,
          prepare: (client) => this.prepare(client),
          newTransport: () => createTransport(spec, (line) => diagnostics.stderr(line)),
          observe: options.onWire ? (dir, msg) => options.onWire!(spec.name, dir, msg) : undefined,
          timeoutMs: options.connectTimeoutMs ?? 30_000,
          onClose: (closed) => this.closedByServer(closed),
          onError: (e) => diagnostics.unreadable(e),
        },
        this.prior,
      );
    } catch (e) {
      this.status = { kind: 'error', message: diagnostics.connectFailed(e) };
      throw new HostError('connection', this.status.message);
    }
    const client = session.client;
    [this.era, this.protocolVersion, this.serverInfo, this.instructions] = [client.getProtocolEra() ?? 'legacy', client.getNegotiatedProtocolVersion(), client.getServerVersion(), client.getInstructions?.()];
    if ((spec.era ?? 'auto') === 'auto') this.prior = session.verdict;
    [this.session, this.lost, this.status, this.everConnected] = [session, session.lost, { kind: 'connected' }, true];
    this.connectedAgain();
    this.emit({ kind: 'connected', server: spec.name, era: this.era, protocolVersion: this.protocolVersion, serverName: this.serverInfo?.name, serverVersion: this.serverInfo?.version, ms: Date.now() - started });
    return session;
  }

  private closedByServer(session: Session): void {
    if (this.session !== session) return;
    this.session = undefined;
    this.status = { kind: 'closed', message: this.diagnostics.closedByServer() };
    this.emit({ kind: 'disconnected', server: this.spec.name, reason: this.status.message });
  }
}
