/**
 * The handshake of a {@link Session}: the era negotiated (`server/discover`, or the 2025
 * `initialize`), a stdio server that exits on the unknown probe started again and spoken to in 2025,
 * the whole bounded by one time limit and ended by the host's signal, either of which stops the server.
 *
 * Spec: MCP 2026-07-28 "Lifecycle" (`server/discover`, no `initialize`) and, for 2025-era servers,
 * the 2025-11-25 `initialize` handshake.
 */
import { Client, preloadSchemas, SdkError } from '@modelcontextprotocol/client';
import { linkAbort, onAbort } from '../util/async';
import { HostError } from '../util/errors';
import type { EraVerdict, Session, SessionOptions } from './session';
import { WireTap } from '../transport/wireTap';

/** The protocol revision this host implements (and pins in `modern` mode). */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Makes the session of a connected client over its tap (the session's constructor is its own). */
export type SessionFactory = (client: Client, tap: WireTap) => Session;

/**
 * Connect: with the remembered verdict `prior` (no probe), else as `options.era` says (`auto`:
 * probe `server/discover`, fall back to `initialize`). A stdio server that exits on the unknown
 * probe is a 2025-era server: it is started again and spoken to in 2025. The whole handshake is
 * bounded by `options.timeoutMs` and ended by `options.signal`; either stops the server.
 * @throws HostError `connection` when the time limit is reached, the signal's reason when it
 *   aborts, else what the SDK or the transport throws (the caller names the server)
 */
export async function handshake(options: SessionOptions, prior: EraVerdict | undefined, create: SessionFactory): Promise<Session> {
  const attempt = new AbortController();
  const steps = options.era === 'legacy' || prior?.kind === 'legacy' ? 'initialize' : options.era === 'modern' || prior ? 'server/discover' : 'server/discover, then initialize';
  const timer = setTimeout(() => attempt.abort(new HostError('timeLimit', `${options.server} did not complete the handshake (${steps}) within ${options.timeoutMs} ms`)), options.timeoutMs);
  const unlink = options.signal ? linkAbort(options.signal, attempt) : undefined;
  /** Whether the server's side closed during the last try, to say so rather than what the SDK says then. */
  const last = { ended: false };
  try {
    return await openOnce(options, prior, attempt.signal, last, create).catch((e) => {
      if (attempt.signal.aborted) throw attempt.signal.reason;
      if (options.era === 'auto' && options.stdio && !prior && e instanceof SdkError && e.code === 'ERA_NEGOTIATION_FAILED') return openOnce(options, { kind: 'legacy' }, attempt.signal, last, create);
      throw e;
    });
  } catch (e) {
    if (attempt.signal.aborted) throw attempt.signal.reason;
    if (last.ended && !(e instanceof HostError)) throw new HostError('connection', `${options.server} closed the connection during the handshake (${steps})`);
    throw e;
  } finally {
    clearTimeout(timer);
    unlink?.();
  }
}

/** One try of the handshake over a new transport; a failed try closes (or, once `signal` aborted, kills) what it started. */
async function openOnce(options: SessionOptions, prior: EraVerdict | undefined, signal: AbortSignal, last: { ended: boolean }, create: SessionFactory): Promise<Session> {
  const era = options.era;
  const client = new Client(options.clientInfo, {
    capabilities: options.capabilities,
    versionNegotiation: era === 'legacy' ? { mode: 'legacy' } : era === 'modern' ? { mode: { pin: MODERN_PROTOCOL_VERSION } } : prior === undefined ? { mode: 'auto' } : { mode: 'legacy' },
    // The host drives MRTR itself (mrtr/driver.ts): the SDK must hand input_required back.
    inputRequired: { autoFulfill: false },
  });
  options.prepare(client);
  const tap = new WireTap(options.newTransport(), { fillResultType: () => client.getProtocolEra() === 'modern', observe: options.observe, onRefused: options.onRefused });
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
