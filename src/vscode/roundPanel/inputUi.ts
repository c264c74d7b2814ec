/**
 * The contract between the VS Code host and the round panel (forms, URL consent, sampling review,
 * roots line, tool arguments). `roundPanels.ts` implements it; `../inputs/inputProvider.ts` and
 * `../sampling/sampler.ts` use it. One panel per call (flow), reused across its rounds, grouping every
 * input of a round.
 */
import type { ElicitRequestParams, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import type { InputContext } from '../../core/inputs/inputProvider';
import type { ReviewedAnswer, SamplingBackend, SamplingReviewRequest } from '../../core/sampling/samplingFlow';

/** A tool's or prompt's argument form request. */
export interface ArgumentsRequest {
  server: string;
  kind: 'tool' | 'prompt';
  name: string;
  title?: string;
  description?: string;
  /** Tool: its `inputSchema` (JSON Schema 2020-12). Prompt: an object schema built from its arguments. */
  schema: Record<string, unknown>;
  /** Values to open the form with (Run Again: the arguments of the call run again), instead of the last ones typed. */
  initial?: Record<string, unknown>;
}

/** The round panel, as the rest of the host sees it. */
export interface InputUi {
  /** Ask the person (form or URL consent). Closing the panel / Escape answers `cancel`. */
  elicit(params: ElicitRequestParams, ctx: InputContext): Promise<ElicitResult>;
  /**
   * Show the sampling review card: prompt (editable), model picker, approve/decline; then the
   * completion (editable) before it is sent; or the reply the person writes ("Write the reply").
   * @returns the answer and who gave it (a model, or the person)
   * @throws HostError kind `declined` when the person declines
   */
  reviewSampling(request: SamplingReviewRequest, backend: SamplingBackend, ctx: InputContext): Promise<ReviewedAnswer>;
  /** Show, for transparency, the roots answered automatically. */
  showRoots(roots: ListRootsResult, ctx: InputContext): void;
  /**
   * Collect arguments with a form; `undefined` when the person cancels. After Submit the panel stays
   * open, read-only, for the call made with these arguments ({@link startCall}, {@link endArguments}).
   */
  collectArguments(request: ArgumentsRequest, signal?: AbortSignal): Promise<Record<string, unknown> | undefined>;
  /** The call made with the arguments collected for `request` is flow `flowId`: its rounds open in that panel. */
  startCall(request: ArgumentsRequest, flowId: number): void;
  /** That call ended (or never started): its arguments panel closes, unless the call took it (then the call's end closes it). */
  endArguments(request: ArgumentsRequest): void;
  /** The call ended (result, error or cancel): close its panel. */
  endFlow(flowId: number): void;
}
