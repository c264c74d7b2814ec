/**
 * A leg sent once connected, with the tool's `Mcp-Param-*` headers when the connection mirrors them,
 * and sent once more after the tools are listed again when the server answers HeaderMismatch: the path
 * of a leg that is not a connected hot one (`ServerConnection.sendLeg`). {@link sendKnownLeg} is the hot
 * one of a `tools/call` whose headers are known already.
 *
 * Spec: MCP 2026-07-28 "Transports", Streamable HTTP, custom headers (`x-mcp-header`, HeaderMismatchError).
 */
import type { MrtrMethod } from '../inputs/inputProvider';
import { deadline, raceAbort } from '../util/async';
import { HostError, cancellation, isHostError } from '../util/errors';
import type { ConnectionLifecycle } from './connectionLifecycle';
import { listSigningIn } from './signedInList';
import type { ToolHeaders } from './toolHeaders';
import type { LegFailure } from './diagnostics';
import type { LegOptions, LegOutcome, Session } from './session';

/** JSON-RPC code of a request whose HTTP headers do not match its body (spec: HeaderMismatchError). */
export const HEADER_MISMATCH = -32020;

/**
 * Send a leg once connected, with the tool's `Mcp-Param-*` headers when the connection mirrors them. The
 * leg's time limit bounds the connect and the listing too; the leg gets what is left of it.
 * @param mismatched set when the leg, started at `started` (ms since the epoch), was sent already by
 *   {@link sendKnownLeg} and answered HeaderMismatch: the tools are listed again first, within what
 *   is left of the leg's limit
 * @throws what `ServerConnection.sendLeg` throws; `timeLimit` (or `opts.limitError()`) when the
 *   connect and the listing use up the leg's time limit
 */
export async function sendMirroredLeg(
  lifecycle: ConnectionLifecycle,
  headers: ToolHeaders,
  method: MrtrMethod,
  params: Record<string, unknown>,
  opts: LegOptions,
  mapError: LegFailure,
  mismatched?: { started: number },
): Promise<LegOutcome> {
  const started = mismatched?.started ?? Date.now();
  const what = `${method} ${String(params.name ?? params.uri ?? '')}`.trim();
  const limitError = () =>
    opts.limitError?.() ?? new HostError('timeLimit', `${what} on ${lifecycle.spec.name} exceeded its time limit of ${opts.timeoutMs} ms`);
  // What is left of the leg's limit (ms; `undefined`: no limit); none left is the limit's error.
  const timeLeft = (): number | undefined => {
    const left = opts.timeoutMs === undefined ? undefined : opts.timeoutMs - (Date.now() - started);
    if (left !== undefined && left <= 0) throw limitError();
    return left;
  };
  const leftMs = timeLeft();
  const limit = leftMs === undefined ? undefined : deadline(opts.signal, leftMs, limitError);
  const signal = limit?.signal ?? opts.signal;
  const send = async () => {
    const session = lifecycle.current ?? (await lifecycle.connectedFor(signal));
    let mirrored: Record<string, string> | undefined;
    if (method === 'tools/call' && lifecycle.mirrorsHeaders) {
      const listed = headers.headersFor(params, () => listSigningIn(lifecycle, headers, 'tools', {}));
      // The listing may be shared with other calls: this leg stops waiting for it when its signal aborts.
      mirrored = signal ? await raceAbort(listed, signal, () => cancellation(signal, `${what} was cancelled`)) : await listed;
    }
    const left = timeLeft();
    return session.sendLeg(
      method,
      params,
      left === undefined ? opts : { ...opts, timeoutMs: left },
      mirrored,
      mapError,
      lifecycle.spec.name,
    );
  };
  try {
    // After a mismatch on the fast path (sendKnownLeg) the tools are listed again first.
    if (mismatched) return await relisted(lifecycle, headers, what, signal, send);
    return await send().catch((e: unknown) => {
      if (!isMismatch(e)) throw e;
      return relisted(lifecycle, headers, what, signal, send);
    });
  } finally {
    limit?.dispose();
  }
}

const isMismatch = (e: unknown): boolean => isHostError(e, 'server') && e.code === HEADER_MISMATCH;

/**
 * Spec (Streamable HTTP, custom headers): a server answering HeaderMismatch may hold another definition
 * of the tool than the one listed; the client SHOULD list the tools again and retry once. A second
 * mismatch is thrown as it is.
 */
async function relisted(
  lifecycle: ConnectionLifecycle,
  headers: ToolHeaders,
  what: string,
  signal: AbortSignal | undefined,
  send: () => Promise<LegOutcome>,
): Promise<LegOutcome> {
  headers.mismatched(
    `${lifecycle.spec.name} answered ${what} with HeaderMismatch (${HEADER_MISMATCH}): tools listed again, the request sent once more`,
  );
  await listSigningIn(lifecycle, headers, 'tools', { signal });
  return send();
}

/**
 * A `tools/call` leg on a connected session whose tools were listed already: its headers are known,
 * so it is sent at once, without the bounded wait of {@link sendMirroredLeg} (a retry is on the round
 * latency); a HeaderMismatch answer takes that path, which lists the tools again and sends it once more.
 * @returns `undefined` when the tools are still to be listed (then {@link sendMirroredLeg} is the path)
 */
export function sendKnownLeg(
  lifecycle: ConnectionLifecycle,
  headers: ToolHeaders,
  session: Session,
  params: Record<string, unknown>,
  opts: LegOptions,
  mapError: LegFailure,
): Promise<LegOutcome> | undefined {
  const known = headers.knownHeadersFor(params);
  if (!known) return undefined;
  const started = Date.now();
  return session.sendLeg('tools/call', params, opts, known.headers, mapError, lifecycle.spec.name).catch((e: unknown) => {
    if (!isMismatch(e)) throw e;
    return sendMirroredLeg(lifecycle, headers, 'tools/call', params, opts, mapError, { started });
  });
}
