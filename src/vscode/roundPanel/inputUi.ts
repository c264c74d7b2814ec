/**
 * The contract between the VS Code host and the round panel (forms, URL consent, sampling review,
 * roots line, tool arguments). `roundPanels.ts` implements it; `../inputs/inputProvider.ts` and
 * `../sampling/sampler.ts` use it. One panel per call (flow), reused across its rounds, grouping every
 * input of a round.
 */
import type { ElicitRequestParams, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import type { InputContext } from '../../core/inputs/inputProvider';
import type { ElicitationApp } from './inputs/formInput';
import type { ReviewedAnswer, SamplingBackend, SamplingReviewRequest } from '../../core/sampling/samplingFlow';

/**
 * The server's suggestions for one field (`completion/complete`): `name` is the field, `value` what is
 * typed, `context` the other fields' values. Bounded by its maker (time limit, at most 100 values).
 */
export type ArgumentCompleter = (name: string, value: string, context: Record<string, string>, signal: AbortSignal) => Promise<string[]>;

/** A tool's, prompt's or resource template's arguments form request. */
export interface ArgumentsRequest {
  server: string;
  kind: 'tool' | 'prompt' | 'template';
  /** Tool or prompt name; a template's name (its URI template when it has none). */
  name: string;
  title?: string;
  description?: string;
  /** Tool: its `inputSchema` (JSON Schema 2020-12). Prompt, template: an object schema built from its arguments or variables. */
  schema: Record<string, unknown>;
  /** Suggestions for its text fields, only when the server has the `completions` capability (prompts and templates). */
  complete?: ArgumentCompleter;
  /** Values to open the form with (Run Again: the arguments of the call run again), instead of the last ones typed. */
  initial?: Record<string, unknown>;
}

/** The round panel, as the rest of the host sees it. */
export interface InputUi {
  /**
   * Ask the person (form or URL consent). Closing the panel / Escape answers `cancel`. With `app`, a
   * form is answered by that app in its card (SEP-3118), until **Use the Form** or the app fails.
   */
  elicit(params: ElicitRequestParams, ctx: InputContext, app?: ElicitationApp): Promise<ElicitResult>;
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
