/**
 * One connected SDK client over its transport and wire tap: what a {@link ServerConnection} holds from
 * a successful handshake until the connection closes. It sends MRTR legs (the raw result the tap
 * recorded is the truth). Its parts: the handshake that negotiates the era (`handshake.ts`) and the
 * paged listing within the host's bounds (`boundedList.ts`).
 *
 * Spec: MCP 2026-07-28 "Lifecycle" (`server/discover`, no `initialize`, `_meta` per request) and, for
 * 2025-era servers, the 2025-11-25 `initialize` handshake; "Multi Round-Trip Requests" (a leg may
 * answer `input_required`).
 */
import { LOG_LEVEL_META_KEY, type Client, type LoggingLevel, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { MrtrMethod } from '../inputs/inputProvider';
import { HostError } from '../util/errors';
import { isPlainObject } from '../util/json';
import { boundedList, type ListKind, type ListOptions, type ListRoute } from './boundedList';
import { handshake, type EraVerdict, type SessionOptions } from './handshake';
import type { WireTap } from '../transport/wireTap';
import type { LegRecord } from '../transport/legResult';

/** What one leg returned: the raw result (byte truth) and what the tap saw. */
export interface LegOutcome {
  leg: LegRecord;
  /** The result as received (SDK-validated for complete results). */
  result: Record<string, unknown>;
  inputRequired: boolean;
  /**
   * True when a `tools/call` created a task instead of answering (2026-07-28 `resultType: "task"`, or a
   * 2025-11-25 `CreateTaskResult` with its `task` member): `result` is then the created task, for
   * `core/tasks` to follow.
   */
  task?: boolean;
}

/** Options of one leg. */
export interface LegOptions {
  signal?: AbortSignal;
  /** The leg's time limit, ms (default 60000). */
  timeoutMs?: number;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** Called once the leg is written, with its JSON-RPC id and the params as sent. */
  onSent?: (leg: LegRecord) => void;
  /**
   * The error of a leg that reached `timeoutMs` (connecting and listing for its headers included),
   * e.g. naming the call's limit; default: "<method> on <server> exceeded its time limit of N ms".
   */
  limitError?: () => HostError;
  /**
   * The level of the server's log messages asked for with this leg: on a 2026-07-28 connection it goes
   * in `_meta["io.modelcontextprotocol/logLevel"]` (the spec's per-request opt-in to
   * `notifications/message`); a 2025-era server was asked once with `logging/setLevel` instead.
   */
  logLevel?: LoggingLevel;
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
  if (method === 'tools/call' && result.content === undefined && result.structuredContent === undefined)
    throw bad('it has neither content nor structuredContent');
  if (method === 'prompts/get' && !Array.isArray(result.messages)) throw bad('messages must be an array');
  if (method === 'resources/read' && !Array.isArray(result.contents)) throw bad('contents must be an array');
}

/**
 * What one leg returned, from the raw result the tap recorded (the SDK's value drops `resultType` and
 * adds empty `inputRequests`). @throws HostError `protocol` for a complete result that cannot be shown,
 * or an answer the tap did not see
 */
function legOutcome(method: MrtrMethod, params: Record<string, unknown>, leg: LegRecord, server: string): LegOutcome {
  const raw = leg.rawResult as Record<string, unknown> | undefined;
  if (raw === undefined)
    throw new HostError('protocol', `${server} answered ${method} with a response the host did not see as the answer to its request`);
  const inputRequired = raw.resultType === 'input_required';
  if (method === 'tools/call' && isCreatedTask(raw)) return { leg, result: raw, inputRequired: false, task: true };
  const result = leg.resultTypeMissing ? { ...raw, resultType: 'complete' } : raw;
  if (!inputRequired) checkCompleteResult(method, result, `${method} ${String(params.name ?? params.uri ?? '')}`.trim(), server);
  return { leg, result, inputRequired };
}

/**
 * Whether a `tools/call` result is a created task rather than the tool's result: `resultType: "task"`
 * (2026-07-28 tasks extension) or a `task` object and no `content` (2025-11-25 `CreateTaskResult`).
 */
export function isCreatedTask(raw: Record<string, unknown>): boolean {
  if (raw.resultType === 'task') return true;
  return raw.resultType === undefined && isPlainObject(raw.task) && raw.content === undefined && raw.structuredContent === undefined;
}

/** The SDK's options of one leg (headers apart). */
function requestOptions(opts: LegOptions): {
  allowInputRequired: true;
  signal?: AbortSignal;
  timeout: number;
  onprogress?: LegOptions['onProgress'];
} {
  return { allowInputRequired: true, signal: opts.signal, timeout: opts.timeoutMs ?? 60_000, onprogress: opts.onProgress };
}

/** A transport that can stop its server at once (`stdioTransport.ts`). */
interface Killable {
  kill(): Promise<void>;
}

/** One SDK client over its wire tap, from a successful handshake until the connection closes. */
export class Session {
  /** Aborted when this session's connection is lost (ends rounds waiting for input). */
  readonly lost = new AbortController();

  private constructor(
    readonly client: Client,
    private readonly tap: WireTap,
  ) {}

  /**
   * Connect (`handshake.ts`): with the remembered verdict `prior` (no probe), else as `options.era`
   * says; bounded by `options.timeoutMs` and ended by `options.signal`, either of which stops the server.
   * @throws HostError `connection` when the time limit is reached, the signal's reason when it
   *   aborts, else what the SDK or the transport throws (the caller names the server)
   */
  static open(options: SessionOptions<Session>, prior: EraVerdict | undefined): Promise<Session> {
    return handshake(options, prior, (client, tap) => new Session(client, tap));
  }

  /** Stop the server at once (a stdio server is killed) and close the client. */
  async kill(): Promise<void> {
    const inner = this.tap.inner as Partial<Killable>;
    await inner.kill?.().catch(() => {});
    await this.client.close().catch(() => {});
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
  sendLeg(
    method: MrtrMethod,
    params: Record<string, unknown>,
    opts: LegOptions,
    headers: Record<string, string> | undefined,
    mapError: (e: unknown, leg: LegRecord) => HostError,
    server: string,
  ): Promise<LegOutcome> {
    let tracked: { leg: LegRecord; pending: Promise<unknown> };
    if (opts.logLevel && this.client.getProtocolEra() === 'modern')
      params = { ...params, _meta: { ...(params._meta as Record<string, unknown> | undefined), [LOG_LEVEL_META_KEY]: opts.logLevel } };
    try {
      tracked = this.tracked(method, params, headers ? { ...requestOptions(opts), headers } : requestOptions(opts));
    } catch (e) {
      return Promise.reject(e);
    }
    const { leg, pending } = tracked;
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
      // through the SDK's promise (the hot path, docs/architecture.md):
      // the SDK checks no more of it than the host's own parse does (inputs/inputRequired.ts). The SDK
      // sees it later (flushHeldBack); the call's controller flushes before it aborts the leg's signal.
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

  /**
   * Send a request whose raw result the tap records (the SDK sees a stand-in for a complete one).
   * @returns the leg (its id once sent, its raw result once answered: release it then) and the SDK's promise
   */
  private tracked(
    method: string,
    params: Record<string, unknown> | undefined,
    options: Parameters<Client['request']>[2],
  ): { leg: LegRecord; pending: Promise<unknown> } {
    const leg: LegRecord = { method };
    this.tap.arm(leg);
    try {
      return { leg, pending: this.client.request({ method, ...(params ? { params } : {}) } as never, ANY_RESULT, options) };
    } finally {
      this.tap.disarm(leg);
    }
  }

  /**
   * Send one request outside the MRTR methods (e.g. `tasks/get`) and return its raw result as the tap
   * recorded it (the SDK validates nothing of it).
   * @param mapError turns a failure into the HostError to throw
   * @throws what `mapError` returns; HostError `protocol` when the tap saw no result
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs: number },
    mapError: (e: unknown, leg: LegRecord) => HostError,
    server: string,
  ): Promise<Record<string, unknown>> {
    const { leg, pending } = this.tracked(method, params, { signal: opts.signal, timeout: opts.timeoutMs });
    try {
      await pending;
    } catch (e) {
      throw mapError(e, leg);
    } finally {
      this.tap.release(leg);
    }
    if (!isPlainObject(leg.rawResult)) throw new HostError('protocol', `${server} answered ${method} with a result that is not an object`);
    return leg.rawResult;
  }

  /**
   * List every item of `kind`, page by page, within the host's bounds (`boundedList.ts`).
   * @param bytesRead the count of bytes the server sent so far (the transport keeps it)
   * @throws HostError `protocol` naming the bound or the fault of a page; what the SDK throws
   */
  list(kind: ListKind, opts: ListOptions, server: string, bytesRead: () => number): Promise<unknown[]> {
    return boundedList(this.listRoute, kind, opts, server, bytesRead);
  }

  /** The list's way to the server: this session's tracked requests. */
  private get listRoute(): ListRoute {
    return {
      capabilities: () => this.client.getServerCapabilities(),
      request: (method, params, options) => this.tracked(method, params, options),
      release: (leg) => this.tap.release(leg),
    };
  }
}
