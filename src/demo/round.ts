// One entry into a multi-round-trip handler: checked capabilities, verified state, this round's answers.
import {
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  type InputRequests,
  type InputRequiredResult,
  type InputResponseView,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { requireCapabilities } from './capabilities';
import type { DemoConfig } from './config';
import { createBoundStateCodec, type BoundStateCodec, type StateTarget } from './state';

/** A wire-ready form-mode `requestedSchema` (flat object of primitive properties). */
export type FormSchema = ElicitRequestFormParams['requestedSchema'];

/** What every handler of the demo needs besides its request: process settings and its server instance. */
export interface DemoDeps {
  readonly config: DemoConfig;
  /** The instance serving this request (read for 2025-era client capabilities). */
  readonly server: McpServer;
}

/**
 * One round of a flow, as seen by a tool, prompt or resource handler.
 *
 * `state` is the payload the previous round minted, already verified (signature, expiry, binding to
 * this method, name and arguments); `undefined` on the first round. `responses` holds only this
 * round's answers (spec: never carried into a later round), so anything a later round needs must
 * travel in `state`.
 */
export interface Round<S> {
  readonly target: StateTarget;
  /** Verified payload minted by the previous round, or `undefined` on the first round. */
  readonly state: S | undefined;
  /** The `requestState` string exactly as this request carried it (for `echo_state`). */
  readonly rawState: string | undefined;
  /** This round's `inputResponses` as received (untrusted). */
  readonly responses: Record<string, unknown> | undefined;
  /** Discriminated view of one answer: `missing`, `elicit` (with action), `sampling` or `roots`. */
  answer(key: string): InputResponseView;
  /**
   * Builds an `input_required` result asking `inputRequests`; when `next` is given it is minted
   * into a `requestState` bound to this request.
   */
  ask(inputRequests: InputRequests, next?: S): Promise<InputRequiredResult>;
  /** Builds a state-only `input_required` result (no questions: "come back later"). */
  later(next: S): Promise<InputRequiredResult>;
}

/**
 * Opens a round for `target`.
 *
 * Errors (JSON-RPC, thrown before the handler body runs):
 * - -32021 MissingRequiredClientCapability when the request's client capabilities lack `needs`
 *   (`data.requiredCapabilities` lists what is missing);
 * - -32602 when the echoed `requestState` is tampered, expired, or was minted for another
 *   request (`data.reason`: `tampered` | `expired` | `other_request`).
 *
 * Spec: basic/patterns/mrtr (servers must integrity-protect state and refuse state that fails
 * verification; a server must not send input requests for undeclared capabilities).
 */
export async function openRound<S>(
  ctx: ServerContext,
  deps: DemoDeps,
  target: StateTarget,
  needs: ClientCapabilities,
  what: string,
): Promise<Round<S>> {
  requireCapabilities(ctx, deps.server, needs, what);

  const codec: BoundStateCodec<S> = createBoundStateCodec<S>(deps.config, target);
  // No `requestState.verify` hook is configured on the server, so the accessor yields the raw wire string.
  const raw = ctx.mcpReq.requestState<unknown>();
  const rawState = typeof raw === 'string' ? raw : undefined;
  const state = rawState === undefined ? undefined : await codec.verify(rawState, ctx);
  const responses = ctx.mcpReq.inputResponses;

  return {
    target,
    state,
    rawState,
    responses,
    answer: (key) => inputResponse(responses, key),
    ask: async (inputRequests, next) =>
      inputRequired(next === undefined ? { inputRequests } : { inputRequests, requestState: await codec.mint(next, ctx) }),
    later: async (next) => inputRequired({ requestState: await codec.mint(next, ctx) }),
  };
}
