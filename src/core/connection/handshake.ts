/**
 * The handshake of a session: the era negotiated (`server/discover`, or the 2025
 * `initialize`), a stdio server that exits on the unknown probe started again and spoken to in 2025,
 * the whole bounded by one time limit and ended by the host's signal, either of which stops the server.
 *
 * Spec: MCP 2026-07-28 "Lifecycle" (`server/discover`, no `initialize`) and, for 2025-era servers,
 * the 2025-11-25 `initialize` handshake.
 */
import {
  Client,
  preloadSchemas,
  SdkError,
  SdkErrorCode,
  type ClientCapabilities,
  type DiscoverResult,
  type Implementation,
  type Transport,
} from '@modelcontextprotocol/client';
import { linkAbort, onAbort } from '../util/async';
import { HostError } from '../util/errors';
import { HostJsonSchemaValidator } from '../arguments/sdkValidator';
import { WireTap, type WireObserver } from '../transport/wireTap';
import type { EraSetting } from './serverSpec';

/** A remembered era verdict, so a reconnect skips the probe (the SDK's `prior`). */
export type EraVerdict = { kind: 'modern'; discover: DiscoverResult } | { kind: 'legacy' };

/**
 * What a handshake makes: the session of one connected client ({@link SessionFactory}). The handshake
 * is generic over it, so that it never imports the session that calls it.
 */
export interface HandshakeSession {
  /** Aborted when the session's connection is lost. */
  readonly lost: AbortController;
  /** Stop the server at once and close the client. */
  kill(): Promise<void>;
}

/** How to open a session for one server; `S` is the session the handshake makes. */
export interface SessionOptions<S extends HandshakeSession> {
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
  /** Time limit of the whole handshake (the probe and a 2025 fallback together), ms. */
  timeoutMs: number;
  /** Ends the handshake at once (the host closed the connection): the server is stopped. */
  signal?: AbortSignal;
  /** The session's connection closed (called before its `lost` signal aborts). */
  onClose(session: S): void;
  /** The SDK or the transport reported an error outside any request. */
  onError(e: Error): void;
  /** A request of the server was refused by the host (too many at once), as a sentence fragment. */
  onRefused?: (what: string) => void;
}

/** The protocol revision this host implements (and pins in `modern` mode). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Makes the session of a connected client over its tap (the session's constructor is its own). */
export type SessionFactory<S extends HandshakeSession> = (client: Client, tap: WireTap) => S;

/**
 * Connect: with the remembered verdict `prior` (no probe), else as `options.era` says (`auto`:
 * probe `server/discover`, fall back to `initialize`). A stdio server that exits on the unknown
 * probe is a 2025-era server: it is started again and spoken to in 2025. The whole handshake is
 * bounded by `options.timeoutMs` and ended by `options.signal`; either stops the server.
 * @throws HostError `connection` when the time limit is reached, the signal's reason when it
 *   aborts, else what the SDK or the transport throws (the caller names the server)
 */
export async function handshake<S extends HandshakeSession>(
  options: SessionOptions<S>,
  prior: EraVerdict | undefined,
  create: SessionFactory<S>,
): Promise<S> {
  const attempt = new AbortController();
  const steps =
    options.era === 'legacy' || prior?.kind === 'legacy'
      ? 'initialize'
      : options.era === 'modern' || prior
        ? 'server/discover'
        : 'server/discover, then initialize';
  const timer = setTimeout(
    () =>
      attempt.abort(
        new HostError('timeLimit', `${options.server} did not complete the handshake (${steps}) within ${options.timeoutMs} ms`),
      ),
    options.timeoutMs,
  );
  const unlink = options.signal ? linkAbort(options.signal, attempt) : undefined;
  /** Whether the server's side closed during the last try, to say so rather than what the SDK says then. */
  const last = { ended: false };
  try {
    return await openOnce(options, prior, attempt.signal, last, create).catch((e) => {
      if (attempt.signal.aborted) throw attempt.signal.reason;
      if (options.era === 'auto' && options.stdio && !prior && e instanceof SdkError && e.code === SdkErrorCode.EraNegotiationFailed)
        return openOnce(options, { kind: 'legacy' }, attempt.signal, last, create);
      throw e;
    });
  } catch (e) {
    if (attempt.signal.aborted) throw attempt.signal.reason;
    if (last.ended && !(e instanceof HostError))
      throw new HostError('connection', `${options.server} closed the connection during the handshake (${steps})`);
    throw e;
  } finally {
    clearTimeout(timer);
    unlink?.();
  }
}

/** One try of the handshake over a new transport; a failed try closes (or, once `signal` aborted, kills) what it started. */
async function openOnce<S extends HandshakeSession>(
  options: SessionOptions<S>,
  prior: EraVerdict | undefined,
  signal: AbortSignal,
  last: { ended: boolean },
  create: SessionFactory<S>,
): Promise<S> {
  const era = options.era;
  const client = new Client(options.clientInfo, {
    capabilities: options.capabilities,
    versionNegotiation:
      era === 'legacy'
        ? { mode: 'legacy' }
        : era === 'modern'
          ? { mode: { pin: MODERN_PROTOCOL_VERSION } }
          : prior === undefined
            ? { mode: 'auto' }
            : { mode: 'legacy' },
    // The host drives MRTR itself (mrtr/driver.ts): the SDK must hand input_required back.
    inputRequired: { autoFulfill: false },
    jsonSchemaValidator: new HostJsonSchemaValidator(),
  });
  options.prepare(client);
  const tap = new WireTap(options.newTransport(), {
    fillResultType: () => client.getProtocolEra() === 'modern',
    observe: options.observe,
    onRefused: options.onRefused,
  });
  const session = create(client, tap);
  client.onclose = () => {
    options.onClose(session);
    session.lost.abort(new HostError('connection', `server ${options.server} closed the connection`));
  };
  client.onerror = (e) => options.onError(e);
  if (signal.aborted) throw signal.reason;
  const stop = onAbort(signal, () => void session.kill());
  // The SDK builds the schemas it checks answers against on first use, after the server's first
  // answer; built once the first request is written (probe, discover or initialize, by era), they
  // cost nothing while a starting server is busy.
  const warm = setImmediate(preloadSchemas);
  try {
    // The host's own limit (handshake) ends the handshake first, in its own words.
    await client.connect(tap, { timeout: options.timeoutMs + 1000, ...(prior ? { prior } : {}) });
  } catch (e) {
    last.ended = tap.closedByPeer;
    await (signal.aborted ? session.kill() : client.close()).catch(() => {});
    throw e;
  } finally {
    clearImmediate(warm);
    stop();
  }
  return session;
}
