/**
 * One connected SDK client over its transport and wire tap: what a {@link ServerConnection} holds from
 * a successful handshake until the connection closes. It negotiates the era, sends MRTR legs (the raw
 * result the tap recorded is the truth) and lists.
 *
 * Spec: MCP 2026-07-28 "Lifecycle" (`server/discover`, no `initialize`, `_meta` per request) and, for
 * 2025-era servers, the 2025-11-25 `initialize` handshake; "Multi Round-Trip Requests" (a leg may
 * answer `input_required`).
 */
import { Client, SdkError, type ClientCapabilities, type DiscoverResult, type Implementation, type StandardSchemaV1, type Transport } from '@modelcontextprotocol/client';
import type { MrtrMethod } from '../mrtr/inputs';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import type { EraSetting } from './serverSpec';
import { WireTap, type LegRecord, type WireObserver } from './wireTap';

/** The protocol revision this host implements (and pins in `modern` mode). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** A remembered era verdict, so a reconnect skips the probe (the SDK's `prior`). */
export type EraVerdict = { kind: 'modern'; discover: DiscoverResult } | { kind: 'legacy' };

/** What one leg returned: the raw result (byte truth) and what the tap saw. */
export interface LegOutcome {
  leg: LegRecord;
  /** The result as received (SDK-validated for complete results). */
  result: Record<string, unknown>;
  inputRequired: boolean;
}

/** Options of one leg. */
export interface LegOptions {
  signal?: AbortSignal;
  /** The leg's time limit, ms (default 60000). */
  timeoutMs?: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** Called once the leg is written, with its JSON-RPC id and the params as sent. */
  onSent?: (leg: LegRecord) => void;
}

/** How to open a session for one server. */
export interface SessionOptions {
  server: string;
  era: EraSetting;
  /** The SDK must treat the server as a stdio one (`transports.ts`). */
  stdio: boolean;
  clientInfo: Implementation;
  /** The capabilities declared: exactly what the host's provider answers. */
  capabilities: ClientCapabilities;
  /** Sets the client's handlers of 2025-era pushed requests (`legacyPush.ts`). */
  prepare(client: Client): void;
  /** A new transport (one per attempt: a stdio server is started again for the 2025 fallback). */
  newTransport(): Transport;
  observe?: WireObserver;
  /** Time limit of the handshake (or probe), ms. */
  timeoutMs: number;
  /** The session's connection closed (called before its `lost` signal aborts). */
  onClose(session: Session): void;
  /** The SDK or the transport reported an error outside any request. */
  onError(e: Error): void;
}

/**
 * Accept any complete result shape at the SDK level: the host checks the containers itself
 * ({@link checkCompleteResult}) and renders unknown content blocks as placeholders (docs/field-cases.md,
 * F12) instead of failing the whole call on one block it does not know.
 */
const ANY_RESULT: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'mcp-roundtrip', validate: (value: unknown) => ({ value }) } };

/**
 * The minimal structure a complete result needs to be shown: an object, with `content` (tools/call,
 * when present), `messages` (prompts/get) or `contents` (resources/read) as arrays.
 * @throws HostError kind `protocol` naming the member that is wrong
 */
export function checkCompleteResult(method: MrtrMethod, result: unknown, what: string, server: string): void {
  const bad = (why: string) => new HostError('protocol', `${server} sent an invalid result for ${what}: ${why}`);
  if (!isPlainObject(result)) throw bad('the result is not an object');
  if (method === 'tools/call' && result.content !== undefined && !Array.isArray(result.content)) throw bad('content must be an array');
  if (method === 'tools/call' && result.content === undefined && result.structuredContent === undefined) throw bad('it has neither content nor structuredContent');
  if (method === 'prompts/get' && !Array.isArray(result.messages)) throw bad('messages must be an array');
  if (method === 'resources/read' && !Array.isArray(result.contents)) throw bad('contents must be an array');
}

/**
 * What one leg returned, from the raw result the tap recorded (the SDK's value drops `resultType` and
 * adds empty `inputRequests`). @throws HostError `protocol` for a complete result that cannot be shown
 */
function legOutcome(method: MrtrMethod, params: Record<string, unknown>, leg: LegRecord, server: string): LegOutcome {
  const raw = leg.rawResult as Record<string, unknown>;
  const inputRequired = raw.resultType === 'input_required';
  const result = leg.resultTypeMissing ? { ...raw, resultType: 'complete' } : raw;
  if (!inputRequired) checkCompleteResult(method, result, `${method} ${String(params.name ?? params.uri ?? '')}`.trim(), server);
  return { leg, result, inputRequired };
}

/** The SDK's options of one leg (headers apart). */
function requestOptions(opts: LegOptions): { allowInputRequired: true; signal?: AbortSignal; timeout: number; onprogress?: LegOptions['onProgress'] } {
  return { allowInputRequired: true, signal: opts.signal, timeout: opts.timeoutMs ?? 60_000, onprogress: opts.onProgress };
}

/** The list requests, by what they list. */
export const LIST_METHODS = { tools: 'tools/list', prompts: 'prompts/list', resources: 'resources/list', resourceTemplates: 'resources/templates/list' } as const;

/** What a server can list. */
export type ListKind = keyof typeof LIST_METHODS;

/** One SDK client over its wire tap, from a successful handshake until the connection closes. */
export class Session {
  /** Aborted when this session's connection is lost (ends rounds waiting for input). */
  readonly lost = new AbortController();

  private constructor(
    readonly client: Client,
    private readonly tap: WireTap,
  ) {}

  /**
   * Connect: with the remembered verdict `prior` (no probe), else as `options.era` says (`auto`:
   * probe `server/discover`, fall back to `initialize`). A stdio server that exits on the unknown
   * probe is a 2025-era server: it is started again and spoken to in 2025.
   * @throws what the SDK or the transport throws (the caller names the server)
   */
  static open(options: SessionOptions, prior: EraVerdict | undefined): Promise<Session> {
    return Session.openOnce(options, prior).catch((e) => {
      if (options.era === 'auto' && options.stdio && !prior && e instanceof SdkError && e.code === 'ERA_NEGOTIATION_FAILED') return Session.openOnce(options, { kind: 'legacy' });
      throw e;
    });
  }

  private static async openOnce(options: SessionOptions, prior: EraVerdict | undefined): Promise<Session> {
    const era = options.era;
    const client = new Client(options.clientInfo, {
      capabilities: options.capabilities,
      versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : era === 'modern' ? { mode: { pin: MODERN_PROTOCOL_VERSION } } : prior === undefined ? { mode: 'auto' } : { mode: 'legacy' },
      // The host drives MRTR itself (mrtr/driver.ts): the SDK must hand input_required back.
      inputRequired: { autoFulfill: false },
    });
    options.prepare(client);
    const tap = new WireTap(options.newTransport(), { fillResultType: () => client.getProtocolEra() === 'modern', observe: options.observe });
    const session = new Session(client, tap);
    client.onclose = () => {
      options.onClose(session);
      session.lost.abort(new HostError('connection', `server ${options.server} closed the connection`));
    };
    client.onerror = (e) => options.onError(e);
    try {
      await client.connect(tap, { timeout: options.timeoutMs, ...(prior ? { prior } : {}) });
    } catch (e) {
      await client.close().catch(() => {});
      throw e;
    }
    return session;
  }

  /**
   * Let the SDK see at once the `input_required` results the tap handed to their legs first
   * (`wireTap.ts`). Call it before aborting a signal given to {@link sendLeg}: the SDK would otherwise
   * cancel, on the wire, a request whose answer already arrived.
   */
  flushHeldBack(): void {
    this.tap.flushDeferred();
  }

  /** The era verdict to remember for the next connect (a 2026-07-28 server's discover result). */
  get verdict(): EraVerdict {
    const discover = this.client.getDiscoverResult();
    return discover ? { kind: 'modern', discover } : { kind: 'legacy' };
  }

  /**
   * Send one leg and return what the server answered, `input_required` included.
   * @param headers extra HTTP headers of the leg (`Mcp-Param-*`)
   * @param mapError turns a failure into the HostError to throw (it may read the leg's raw result)
   */
  sendLeg(method: MrtrMethod, params: Record<string, unknown>, opts: LegOptions, headers: Record<string, string> | undefined, mapError: (e: unknown, leg: LegRecord) => HostError, server: string): Promise<LegOutcome> {
    const leg: LegRecord = { method };
    let pending: Promise<unknown>;
    this.tap.arm(leg);
    try {
      pending = this.client.request({ method, params }, ANY_RESULT, headers ? { ...requestOptions(opts), headers } : requestOptions(opts));
    } catch (e) {
      return Promise.reject(e);
    } finally {
      this.tap.disarm(leg);
    }
    if (leg.id !== undefined) opts.onSent?.(leg);
    return new Promise<LegOutcome>((resolve, reject) => {
      let done = false;
      const settle = () => {
        if (done) return;
        done = true;
        this.tap.release(leg);
        try {
          resolve(legOutcome(method, params, leg, server));
        } catch (e) {
          reject(mapError(e, leg));
        }
      };
      // An input_required goes on the moment the tap has it rather than a few microtask turns later
      // through the SDK's promise (the round latency is measured against the SDK's driver, test/bench):
      // the SDK checks no more of it than the host's own parse does (mrtr/inputRequired.ts). The SDK
      // sees it later (flushHeldBack); whoever aborts the leg's signal flushes first.
      leg.onInputRequired = () => {
        if (!opts.signal?.aborted) settle();
      };
      pending.then(settle, (e: unknown) => {
        if (done) return;
        done = true;
        this.tap.release(leg);
        reject(mapError(e, leg));
      });
    });
  }

  /** List every item of `kind` (all pages). @throws what the SDK throws */
  async list(kind: ListKind): Promise<unknown[]> {
    switch (kind) {
      case 'tools':
        return (await this.client.listTools()).tools;
      case 'prompts':
        return (await this.client.listPrompts()).prompts;
      case 'resources':
        return (await this.client.listResources()).resources;
      case 'resourceTemplates':
        return (await this.client.listResourceTemplates()).resourceTemplates;
    }
  }
}
