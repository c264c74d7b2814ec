/**
 * 2025-era servers push elicitation, sampling and roots as real JSON-RPC requests instead of embedding
 * them in `input_required`. This answers them through the same {@link InputProvider} and the same
 * answer step as the MRTR driver (`inputs/answerInput.ts`), and keeps the registry of the calls in flight
 * on the connection, so a pushed request can say which call it belongs to when that is knowable.
 *
 * Spec: MCP 2025-11-25, server-to-client requests `elicitation/create`, `sampling/createMessage` and
 * `roots/list`; a client handles only the capabilities it declared (the SDK lets a handler be set only
 * for those).
 */
import { ProtocolError, ProtocolErrorCode, type Client } from '@modelcontextprotocol/client';
import type { HostEventListener } from '../log/events';
import { answerInput } from '../inputs/answerInput';
import { describeAnswer, type FormContentCheck } from '../inputs/answers';
import type { InputContext, InputMethod, InputProvider, MrtrMethod, RoundInfo } from '../inputs/inputProvider';
import { HostError, errorMessage } from '../util/errors';
import { oneLine } from '../util/shownText';

/** A call in progress on a connection, as context for 2025-era pushed requests. */
export interface ActiveFlow {
  flowId: number;
  method: MrtrMethod;
  target: string;
  /**
   * A pushed request that may belong to this call starts being answered: the call's time limits
   * pause (a person's time is not counted, as for an MRTR round). Returns the function to call once
   * it is answered (or failed).
   */
  pause?: () => () => void;
  /**
   * Ends the call with `error`: a pushed request of this call the person cancelled, that has no
   * scripted answer, or whose scripted answer does not fit (as the same input of an MRTR round would).
   */
  fail?: (error: HostError) => void;
  /** Aborted when the call ends: a question still open for one of its pushed requests is then withdrawn. */
  signal?: AbortSignal;
  /** The call runs as a task (`core/tasks`): its id and status as of now, for the round's header. */
  task?: () => RoundInfo['task'];
}

/**
 * The failures of a pushed request's answer that end its call (the person's or the host's word, never
 * the server's): cancelled, no answer, an answer that does not fit. A decline is answered as such, a
 * server's fault (a form that cannot be shown) is answered as a JSON-RPC error: the server goes on.
 */
const ENDS_THE_CALL = new Set(['cancelled', 'missingAnswer', 'usage']);

/** How many `notifications/elicitation/complete` ids are kept for a wait that starts after them. */
const RECENT_COMPLETIONS = 32;

/** What {@link LegacyPushes} needs from its connection. */
export interface LegacyPushOptions {
  /** The server's display name. */
  server: string;
  provider: InputProvider;
  checkFormContent?: FormContentCheck;
  /** Receives one `pushed` event per request (answered, failed or withdrawn). */
  emit: HostEventListener;
  /** A warning about the server (rate-limited by the caller): what it pushed that the host does not take. */
  warn: (message: string) => void;
}

/** The names of the capabilities a pushed request needs, by method (MCP 2025-11-25 client features). */
const NEEDS: Record<string, string> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The pushed-request handlers of one connection and the calls in flight on it. */
export class LegacyPushes {
  private readonly flows = new Map<number, ActiveFlow>();
  /** Who waits for the `notifications/elicitation/complete` of an elicitation id. */
  private readonly completionWaiters = new Map<string, Set<() => void>>();
  /** The ids the server said were complete lately (it may say so before anyone waits), oldest first. */
  private readonly completed: string[] = [];

  constructor(private readonly options: LegacyPushOptions) {}

  /**
   * Register a call in flight, so pushed requests can name it.
   * @returns a function unregistering it (the call ended)
   */
  beginFlow(flow: ActiveFlow): () => void {
    this.flows.set(flow.flowId, flow);
    return () => this.flows.delete(flow.flowId);
  }

  /**
   * Resolves when the server sends `notifications/elicitation/complete` for `elicitationId` (or sent it
   * lately), or when `signal` aborts; never rejects.
   */
  elicitationComplete(elicitationId: string, signal: AbortSignal): Promise<void> {
    if (this.completed.includes(elicitationId) || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.completionWaiters.get(elicitationId) ?? new Set();
      this.completionWaiters.set(elicitationId, waiters);
      const done = () => {
        waiters.delete(done);
        if (!waiters.size) this.completionWaiters.delete(elicitationId);
        signal.removeEventListener('abort', done);
        resolve();
      };
      waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** The server said the URL elicitation `elicitationId` is complete. */
  private complete(elicitationId: unknown): void {
    if (typeof elicitationId !== 'string') return;
    this.completed.push(elicitationId);
    if (this.completed.length > RECENT_COMPLETIONS) this.completed.shift();
    for (const done of [...(this.completionWaiters.get(elicitationId) ?? [])]) done();
  }

  /**
   * Set the handlers on `client`, one per capability the provider declares; anything else the server
   * sends (a request for a capability not declared, a method or a notification the host does not know)
   * is logged as a warning before it is refused (-32601) or ignored, never dropped unsaid.
   */
  register(client: Client): void {
    const caps = this.options.provider.capabilities;
    const { warn } = this.options;
    client.fallbackRequestHandler = (req) => {
      const method = oneLine(String(req.method), 100);
      const need = NEEDS[req.method];
      warn(
        need
          ? `pushed ${method}, but this host did not declare the ${need} capability; refused (-32601)`
          : `sent the request ${method}, which this host does not know; refused (-32601)`,
      );
      return Promise.reject(new ProtocolError(ProtocolErrorCode.MethodNotFound, `Method not found: ${method}`));
    };
    client.fallbackNotificationHandler = (n) => {
      warn(`sent the notification ${oneLine(String(n.method), 100)}, which this host does not handle; ignored`);
      return Promise.resolve();
    };
    if (caps.elicitation) client.setNotificationHandler('notifications/elicitation/complete', (n) => this.complete(n.params.elicitationId));
    if (caps.elicitation)
      client.setRequestHandler('elicitation/create', (req, ctx) =>
        this.answer('elicitation/create', ctx.mcpReq.id, req.params as never, ctx.mcpReq.signal),
      );
    if (caps.sampling)
      client.setRequestHandler('sampling/createMessage', (req, ctx) =>
        this.answer('sampling/createMessage', ctx.mcpReq.id, req.params as never, ctx.mcpReq.signal),
      );
    if (caps.roots)
      client.setRequestHandler('roots/list', (req, ctx) =>
        this.answer('roots/list', ctx.mcpReq.id, (req.params ?? {}) as never, ctx.mcpReq.signal),
      );
  }

  /**
   * Answer one pushed request as an input of round 0 of the call it belongs to.
   * @throws ProtocolError -1 when the person declined (the 2025 convention); what the provider or the
   *   answer check throws otherwise (the SDK sends it as a JSON-RPC error)
   */
  private async answer(
    inputMethod: InputMethod,
    id: string | number,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<never> {
    const { server, provider, checkFormContent, emit } = this.options;
    // Only one flow in flight: it is the one asking. Several: we cannot tell (2025 has no link).
    const only = this.flows.size === 1 ? [...this.flows.values()][0] : undefined;
    const entry = { key: String(id), method: inputMethod, params };
    const round: RoundInfo = {
      flowId: only?.flowId ?? 0,
      server,
      method: only?.method ?? 'tools/call',
      target: only?.target ?? '(unknown call)',
      round: 0,
      inputs: [entry],
      era: 'legacy',
      ...(only?.task ? { task: only.task() } : {}),
    };
    // The question is withdrawn when the server cancels its request or the call it belongs to ends.
    const ctx: InputContext = { round, key: entry.key, signal: only?.signal ? AbortSignal.any([signal, only.signal]) : signal };
    // A person's answer (a form, a sampling reply; roots are answered at hand): 2025 has no link from
    // a push to its call, so every call in flight stops its clock meanwhile.
    const resumes = inputMethod === 'roots/list' ? [] : [...this.flows.values()].map((f) => f.pause?.());
    let answer;
    try {
      answer = await answerInput(provider, entry, ctx, checkFormContent);
    } catch (e) {
      // The server withdrew its request (notifications/cancelled) while it was being answered.
      const withdrawn = signal.aborted && !only?.signal?.aborted;
      emit({
        kind: 'pushed',
        server,
        inputMethod,
        id,
        action: withdrawn ? 'withdrawn' : 'error',
        summary: withdrawn ? 'withdrawn by the server (notifications/cancelled) before it was answered' : errorMessage(e),
      });
      // The person's or the host's word ends the call it belongs to (exit codes as for an MRTR round);
      // not when the server withdrew its own request.
      if (e instanceof HostError && ENDS_THE_CALL.has(e.kind) && !signal.aborted) only?.fail?.(e);
      // 2025 convention: -1 for a request the user rejected.
      if (e instanceof HostError && e.kind === 'declined') throw new ProtocolError(-1, errorMessage(e));
      throw e;
    } finally {
      for (const resume of resumes) resume?.();
    }
    emit({ kind: 'pushed', server, inputMethod, id, ...describeAnswer(entry, answer) });
    return answer as never;
  }
}
