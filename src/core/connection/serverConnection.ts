/**
 * One SDK `Client` per server: era negotiation, spawning (once), stderr capture, the legacy-era
 * handlers that route pushed requests to the {@link InputProvider}, and reconnection of a dead
 * server on the next call. The MRTR loop itself lives in `roundTrip.ts`; this file only sends legs.
 *
 * Spec: MCP 2026-07-28 "Lifecycle" (`server/discover`, no `initialize`, `_meta` per request),
 * and the 2025-11-25 lifecycle for legacy-era servers.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  Client,
  SdkError,
  StreamableHTTPClientTransport,
  type DiscoverResult,
  type Implementation,
  type StandardSchemaV1,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ContentValidator } from '../mrtr/answers';
import { HostError, errorMessage } from '../util/errors';
import type { HostEventListener } from '../log/events';
import { buildParamHeaders, scanHeaderDeclarations, type HeaderDeclaration } from './mcpParamHeaders';
import type { InputProvider, MrtrMethod } from '../mrtr/inputs';
import { LegacyPushes, type ActiveFlow } from './legacyPush';
import { mapListError, mapSdkError, type FailureContext } from './sdkErrors';
import type { ServerSpec } from './serverSpec';
import { WireTap, type LegRecord } from './wireTap';

/** The protocol revision this host implements (and pins in `modern` mode). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Connection state as shown in the servers view. */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'closed' | 'error';

/** What one leg returned: the raw result (byte truth) and what the tap saw. */
export interface LegOutcome {
  leg: LegRecord;
  /** The result as received (SDK-validated for complete results). */
  result: Record<string, unknown>;
  inputRequired: boolean;
}

/** Options for {@link ServerConnection}. */
export interface ConnectionOptions {
  provider: InputProvider;
  clientInfo?: Implementation;
  onEvent?: HostEventListener;
  /** Every JSON-RPC message in both directions (debug tracing). */
  onWire?: (server: string, direction: 'out' | 'in', message: JSONRPCMessage) => void;
  /** Deep check of accepted form content (wired to ajv by the host). */
  validateContent?: ContentValidator;
  /** Time limit for connecting (handshake or probe), ms. Default 30000. */
  connectTimeoutMs?: number;
}

/**
 * Accept any complete result shape at the SDK level: the host checks the containers itself
 * ({@link checkCompleteResult}) and renders unknown content blocks as placeholders (field case F12)
 * instead of failing the whole call on one block it does not know.
 */
const ANY_RESULT: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'mcp-roundtrip', validate: (value: unknown) => ({ value }) } };

/**
 * The minimal structure a complete result needs to be shown: an object, with `content` (tools/call,
 * when present), `messages` (prompts/get) or `contents` (resources/read) as arrays.
 * @throws HostError kind `protocol` naming the member that is wrong
 */
export function checkCompleteResult(method: MrtrMethod, result: unknown, what: string, server: string): void {
  const bad = (why: string) => new HostError('protocol', `${server} sent an invalid result for ${what}: ${why}`);
  if (typeof result !== 'object' || result === null || Array.isArray(result)) throw bad('the result is not an object');
  const r = result as Record<string, unknown>;
  if (method === 'tools/call' && r.content !== undefined && !Array.isArray(r.content)) throw bad('content must be an array');
  if (method === 'tools/call' && r.content === undefined && r.structuredContent === undefined) throw bad('it has neither content nor structuredContent');
  if (method === 'prompts/get' && !Array.isArray(r.messages)) throw bad('messages must be an array');
  if (method === 'resources/read' && !Array.isArray(r.contents)) throw bad('contents must be an array');
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-roundtrip', version: '0.1.0' };
const STDERR_TAIL = 20;

/**
 * A lazily connected server. Nothing happens until the first call; a connection that died is
 * re-established on the next call.
 */
export class ServerConnection {
  state: ConnectionState = 'idle';
  /** Last connection or protocol error, for the servers view. */
  lastError?: string;
  /**
   * The last error the SDK or the transport reported outside any request, with its time: typically a
   * message from the server that could not be read (not JSON-RPC, a result that is not an object),
   * which the SDK drops, so the request it answered waits until its time limit.
   */
  lastUnreadable?: { at: number; message: string };
  era?: 'modern' | 'legacy';
  protocolVersion?: string;
  serverInfo?: Implementation;
  instructions?: string;
  /** The last lines the server wrote on stderr (newest last). */
  readonly stderrTail: string[] = [];

  private client?: Client;
  private tap?: WireTap;
  private connecting?: Promise<Client>;
  /** Aborted when the current connection is lost; replaced on reconnect. */
  private lost = new AbortController();
  /** Remembered era verdict so reconnects skip the probe (SDK `prior`). */
  private prior?: { kind: 'modern'; discover: DiscoverResult } | { kind: 'legacy' };
  private everConnected = false;
  /** The handlers of 2025-era pushed requests, and the calls in flight they refer to. */
  private readonly pushes: LegacyPushes;
  /** SEP-2243: each listed tool's `x-mcp-header` declarations, from this connection's last `tools/list`. */
  private toolHeaders?: Map<string, HeaderDeclaration[]>;
  private loadingToolHeaders?: Promise<unknown>;

  constructor(
    readonly spec: ServerSpec,
    private readonly options: ConnectionOptions,
  ) {
    this.pushes = new LegacyPushes({ server: spec.name, provider: options.provider, validateContent: options.validateContent, emit: (e) => this.emit(e) });
  }

  get name(): string {
    return this.spec.name;
  }

  /** The client capabilities declared to this server: exactly what the provider can answer. */
  get capabilities() {
    return this.options.provider.capabilities;
  }

  /** Who answers this server's input requests by default. */
  get provider(): InputProvider {
    return this.options.provider;
  }

  /** The deep check of accepted form content, when the host wired one. */
  get validateContent(): ContentValidator | undefined {
    return this.options.validateContent;
  }

  /** A signal aborted when the current connection is lost (used to end rounds waiting for input). */
  get lostSignal(): AbortSignal {
    return this.lost.signal;
  }

  private emit(e: Parameters<HostEventListener>[0]): void {
    try {
      this.options.onEvent?.(e);
    } catch {
      /* a broken listener never breaks a call */
    }
  }

  /**
   * Connect if not connected (concurrent callers share one attempt).
   * @throws HostError kind `connection` naming the server and the cause (with the stderr tail)
   */
  async ensureConnected(): Promise<Client> {
    if (this.client) return this.client;
    if (!this.connecting) {
      this.connecting = this.connect().finally(() => (this.connecting = undefined));
    }
    return this.connecting;
  }

  private makeTransport(): Transport {
    const spec = this.spec;
    switch (spec.transport) {
      case 'stdio': {
        const t = new StdioClientTransport({
          command: spec.command,
          args: spec.args ?? [],
          // Like VS Code: the server gets the host's environment plus its own settings.
          env: { ...(process.env as Record<string, string>), ...(spec.env ?? {}) },
          cwd: spec.cwd,
          stderr: 'pipe',
        });
        const stderr = t.stderr as Readable | null;
        if (stderr) {
          createInterface({ input: stderr }).on('line', (line) => {
            this.stderrTail.push(line);
            if (this.stderrTail.length > STDERR_TAIL) this.stderrTail.shift();
            this.emit({ kind: 'stderr', server: spec.name, line });
          });
        }
        return t;
      }
      case 'http':
        return new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers ?? {} } });
      case 'custom': {
        const t = spec.create();
        // The SDK treats a transport with stderr+pid as stdio (probe timeout = legacy server).
        if (spec.kind === 'stdio' && !('pid' in t)) Object.assign(t, { stderr: null, pid: null });
        return t;
      }
    }
  }

  private newClient(useAuto: boolean): Client {
    const era = this.spec.era ?? 'auto';
    const client = new Client(this.options.clientInfo ?? DEFAULT_CLIENT_INFO, {
      capabilities: this.options.provider.capabilities,
      versionNegotiation:
        era === 'legacy' ? { mode: 'legacy' } : era === 'modern' ? { mode: { pin: MODERN_PROTOCOL_VERSION } } : useAuto ? { mode: 'auto' } : { mode: 'legacy' },
      // We drive MRTR ourselves (roundTrip.ts); the SDK must hand input_required back to us.
      inputRequired: { autoFulfill: false },
    });
    this.pushes.register(client);
    return client;
  }

  private async connect(): Promise<Client> {
    const spec = this.spec;
    this.state = 'connecting';
    this.emit({ kind: 'connecting', server: spec.name, attempt: this.everConnected ? 'reconnect' : 'first' });
    const started = Date.now();
    try {
      const client = await this.connectOnce(this.prior).catch(async (e) => {
        // A stdio server that exits on an unknown pre-initialize request kills the in-place probe:
        // it is a 2025-era server; start it again and speak 2025 to it.
        const isStdio = spec.transport === 'stdio' || (spec.transport === 'custom' && spec.kind === 'stdio');
        if ((spec.era ?? 'auto') === 'auto' && isStdio && !this.prior && e instanceof SdkError && e.code === 'ERA_NEGOTIATION_FAILED') {
          return this.connectOnce({ kind: 'legacy' });
        }
        throw e;
      });
      this.era = client.getProtocolEra() ?? 'legacy';
      this.protocolVersion = client.getNegotiatedProtocolVersion();
      this.serverInfo = client.getServerVersion();
      this.instructions = client.getInstructions?.();
      const discover = client.getDiscoverResult();
      if ((spec.era ?? 'auto') === 'auto') this.prior = discover ? { kind: 'modern', discover } : { kind: 'legacy' };
      this.state = 'connected';
      this.lastError = undefined;
      this.everConnected = true;
      this.emit({
        kind: 'connected',
        server: spec.name,
        era: this.era,
        protocolVersion: this.protocolVersion,
        serverName: this.serverInfo?.name,
        serverVersion: this.serverInfo?.version,
        ms: Date.now() - started,
      });
      return client;
    } catch (e) {
      this.state = 'error';
      const tail = this.stderrTail.length ? ` (server stderr: ${this.stderrTail.slice(-3).join(' | ')})` : '';
      this.lastError = `could not connect to ${spec.name}: ${errorMessage(e)}${tail}`;
      throw new HostError('connection', this.lastError);
    }
  }

  private async connectOnce(prior: ServerConnection['prior']): Promise<Client> {
    const client = this.newClient(prior === undefined);
    const tap = new WireTap(this.makeTransport(), {
      fillResultType: () => client.getProtocolEra() === 'modern',
      observe: this.options.onWire ? (dir, msg) => this.options.onWire!(this.spec.name, dir, msg) : undefined,
    });
    const lost = new AbortController();
    client.onclose = () => {
      if (this.client === client) {
        this.client = undefined;
        this.tap = undefined;
        this.state = 'closed';
        const tail = this.stderrTail.length ? `; last stderr: ${this.stderrTail[this.stderrTail.length - 1]}` : '';
        this.lastError = `server ${this.spec.name} closed the connection${tail}`;
        this.emit({ kind: 'disconnected', server: this.spec.name, reason: this.lastError });
      }
      lost.abort(new HostError('connection', `server ${this.spec.name} closed the connection`));
    };
    client.onerror = (e) => {
      this.lastUnreadable = { at: Date.now(), message: errorMessage(e) };
      this.emit({ kind: 'serverWarning', server: this.spec.name, message: errorMessage(e) });
    };
    try {
      await client.connect(tap, { timeout: this.options.connectTimeoutMs ?? 30_000, ...(prior ? { prior } : {}) });
    } catch (e) {
      await client.close().catch(() => {});
      throw e;
    }
    this.client = client;
    this.tap = tap;
    this.lost = lost;
    // A (re)connected server may list other tools: read the declarations again.
    this.toolHeaders = undefined;
    return client;
  }

  /**
   * Send one leg of an MRTR flow and return what the server answered, `input_required` included.
   * Caller-supplied `_meta` keys under the reserved `io.modelcontextprotocol/` prefix must already
   * be stripped (roundTrip.ts does it); the SDK adds the protocol envelope on modern connections.
   *
   * @param params the leg's params: the original params plus this round's `inputResponses`/`requestState`
   * @throws HostError: `server` (JSON-RPC error, with code), `protocol` (malformed result),
   *   `connection`, `cancelled` (signal aborted), `timeLimit` (leg timeout)
   */
  async sendLeg(
    method: MrtrMethod,
    params: Record<string, unknown>,
    opts: {
      signal?: AbortSignal;
      timeoutMs?: number;
      onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
      /** Called once the leg is written, with its JSON-RPC id and the params as sent. */
      onSent?: (leg: LegRecord) => void;
    },
  ): Promise<LegOutcome> {
    const client = await this.ensureConnected();
    const headers = method === 'tools/call' ? await this.paramHeaders(params) : undefined;
    const tap = this.tap!;
    const leg: LegRecord = { method };
    let pending: Promise<unknown>;
    tap.arm(leg);
    try {
      pending = client.request({ method, params }, ANY_RESULT, {
        allowInputRequired: true,
        signal: opts.signal,
        timeout: opts.timeoutMs ?? 60_000,
        onprogress: opts.onProgress,
        ...(headers ? { headers } : {}),
      });
    } finally {
      tap.disarm(leg);
    }
    if (leg.id !== undefined) opts.onSent?.(leg);
    try {
      await pending;
      // The raw result is the truth: the SDK's value drops resultType and adds empty inputRequests.
      const raw = leg.rawResult as Record<string, unknown>;
      const inputRequired = raw.resultType === 'input_required';
      const result = leg.resultTypeMissing ? { ...raw, resultType: 'complete' } : raw;
      if (!inputRequired) checkCompleteResult(method, result, `${method} ${String(params.name ?? params.uri ?? '')}`.trim(), this.spec.name);
      return { leg, result, inputRequired };
    } catch (e) {
      throw mapSdkError(e, this.failure(`${method} ${String(params.name ?? params.uri ?? '')}`.trim(), leg, opts.signal));
    } finally {
      tap.release(leg);
    }
  }

  /**
   * The `Mcp-Param-{Name}` headers of a `tools/call` leg (spec: Streamable HTTP, "Custom Headers from Tool
   * Parameters"): only on a 2026-07-28 HTTP connection. The SDK adds them in `callTool()` alone, and the
   * host sends legs with `request()`. Needs the tool's definition: when this connection has not listed
   * its tools yet (a CLI call), they are listed once first; a tool still unknown gets no headers.
   */
  private async paramHeaders(params: Record<string, unknown>): Promise<Record<string, string> | undefined> {
    if (this.spec.transport !== 'http' || this.era !== 'modern') return undefined;
    if (!this.toolHeaders) {
      this.loadingToolHeaders ??= this.list('tools')
        .catch((e) => {
          // One attempt per connection: the calls go on without custom headers (the server may refuse them).
          this.toolHeaders = new Map();
          this.emit({ kind: 'serverWarning', server: this.spec.name, message: `could not list tools for their x-mcp-header parameters: ${errorMessage(e)}` });
        })
        .finally(() => (this.loadingToolHeaders = undefined));
      await this.loadingToolHeaders;
    }
    const declarations = this.toolHeaders?.get(String(params.name));
    if (!declarations?.length) return undefined;
    const headers = buildParamHeaders(declarations, params.arguments);
    return Object.keys(headers).length ? headers : undefined;
  }

  /** Remember the `x-mcp-header` declarations of listed tools (the SDK already dropped invalid ones). */
  private rememberToolHeaders(tools: readonly { name: string; inputSchema?: unknown }[]): void {
    const map = new Map<string, HeaderDeclaration[]>();
    for (const t of tools) {
      const scan = scanHeaderDeclarations(t.inputSchema);
      // A definition the SDK kept but this scan refuses gets no headers (the server then says HeaderMismatch).
      if (scan.ok && scan.declarations.length) map.set(t.name, scan.declarations);
      else if (!scan.ok) this.emit({ kind: 'serverWarning', server: this.spec.name, message: `tool ${t.name}: ${scan.reason}` });
    }
    this.toolHeaders = map;
  }

  /** What {@link mapSdkError} may say about a failure of this connection. */
  private failure(what: string, leg?: LegRecord, signal?: AbortSignal): FailureContext {
    const tail = this.stderrTail;
    return { server: this.spec.name, what, leg, signal, lastStderr: tail.length ? tail[tail.length - 1] : undefined, lastUnreadable: this.lastUnreadable };
  }

  /** Register a call in flight, so 2025-era pushed requests can say which call they belong to. */
  beginFlow(flow: ActiveFlow): () => void {
    return this.pushes.beginFlow(flow);
  }

  /**
   * List tools, prompts, resources or resource templates (all pages).
   * @throws HostError; an `input_required` answer to a list is a protocol error (spec: only
   *   tools/call, prompts/get and resources/read may answer it)
   */
  async list(kind: 'tools' | 'prompts' | 'resources' | 'resourceTemplates'): Promise<unknown[]> {
    const client = await this.ensureConnected();
    const method = { tools: 'tools/list', prompts: 'prompts/list', resources: 'resources/list', resourceTemplates: 'resources/templates/list' }[kind];
    try {
      switch (kind) {
        case 'tools': {
          const { tools } = await client.listTools();
          if (this.spec.transport === 'http' && this.era === 'modern') this.rememberToolHeaders(tools);
          return tools;
        }
        case 'prompts':
          return (await client.listPrompts()).prompts;
        case 'resources':
          return (await client.listResources()).resources;
        case 'resourceTemplates':
          return (await client.listResourceTemplates()).resourceTemplates;
      }
    } catch (e) {
      throw mapListError(e, this.failure(method));
    }
  }

  /** What the server supports (from discover or initialize), once connected. */
  get serverCapabilities() {
    return this.client?.getServerCapabilities();
  }

  /** Close the connection (kills a stdio server). The next call reconnects. */
  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.tap = undefined;
    this.state = 'idle';
    this.lost.abort(new HostError('connection', `connection to ${this.spec.name} was closed by the host`));
    await client?.close().catch(() => {});
  }

  /** Close and forget the remembered era verdict (a restarted server may have been upgraded). */
  async restart(): Promise<void> {
    this.prior = undefined;
    await this.close();
    await this.ensureConnected();
  }
}
