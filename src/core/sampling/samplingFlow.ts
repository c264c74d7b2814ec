/**
 * Answering `sampling/createMessage` with a person in the loop (pure orchestration; no `vscode`).
 *
 * For each request: list the models, choose one (`modelChoice.ts`), then either show the review
 * (prompt editable, model picker, completion reviewed before it is returned) or, for a server the user
 * auto-approved, run the model directly and log it. At most one sampling request per server runs at a
 * time; the others wait in order (FIFO). The host never runs the tools a model asks for.
 *
 * Spec: MCP 2026-07-28, Sampling ("human in the loop": see and edit the prompt, deny it, review the
 * completion; `maxTokens` MUST be respected). See docs/field-cases.md, F6.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { KeyedQueue } from '../util/async';
import { HostError, cancellation, errorMessage } from '../util/errors';
import type { InputContext } from '../mrtr/inputs';
import { chooseModel, type ModelInfo } from './modelChoice';
import { collectCompletion, completionResult, type LmResponsePart } from './lmCompletion';
import { buildLmRequest, type LmRequest } from './lmRequest';

/** A model that can answer: {@link ModelInfo} plus what its adapter can do. */
export interface SamplingModel extends ModelInfo {
  /** Accepts image input (`true` only when the API says so). */
  imageInput?: boolean;
  /** Supports tool calling (`false` only when the API says so). */
  toolCalling?: boolean;
  /**
   * Send the request. Aborting `signal` must cancel the model request (and end the stream).
   * @param justification shown by VS Code if it asks the user for consent
   * @throws HostError (or any error) when the request cannot be made
   */
  send(request: LmRequest, signal: AbortSignal, justification: string): Promise<AsyncIterable<LmResponsePart>>;
  /** Count tokens of `text` with the model's tokenizer. */
  countTokens(text: string, signal: AbortSignal): Promise<number>;
}

/** The sampling settings (`mcpRoundtrip.sampling.*`). */
export interface SamplingSettings {
  /** `allowedModels`: ids or families; empty = every model. */
  allowedModels: readonly string[];
  /** `autoApprove`: server name → `true` to skip the review. */
  autoApprove: Readonly<Record<string, unknown>>;
  /** The host default model (id or family) when no hint matches; absent = first allowed / by priorities. */
  defaultModel?: string;
}

/** What the review card (the round panel's sampling input) shows and lets the person change. */
export interface SamplingReviewRequest {
  params: CreateMessageRequestParams;
  /** Models allowed for this server, best first, as plain data; `chosenModelId` is pre-selected. */
  models: ModelInfo[];
  chosenModelId: string;
}

/** Runs the model for the review card (after the person approved the prompt). */
export interface SamplingBackend {
  /**
   * Generate a completion with `modelId` for the (possibly edited) request.
   * @throws HostError with a message to show (no model, request failed, cancelled)
   */
  generate(modelId: string, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
}

/** What {@link createSamplingFlow} needs from its host. */
export interface SamplingFlowDeps {
  /** Every available model (`vscode.lm.selectChatModels()`), asked again for each request. */
  listModels(): Promise<readonly SamplingModel[]>;
  /** Current settings, read for each request. */
  settings(): SamplingSettings;
  /**
   * The review card (`InputUi.reviewSampling`).
   * @throws HostError `declined` when the person declines
   */
  review(request: SamplingReviewRequest, backend: SamplingBackend, ctx: InputContext): Promise<CreateMessageResult>;
  log: { info(text: string): void; warn(text: string): void };
}

/**
 * Run `params` on `model` and return the `CreateMessageResult` (not reviewed).
 *
 * Maps the request ({@link buildLmRequest}), sends it, collects the reply with `maxTokens` and
 * `stopSequences` enforced ({@link collectCompletion}) and cancels the model request as soon as the
 * reply is cut or `signal` aborts.
 *
 * @throws HostError `cancelled` when `signal` aborts; `protocol` for a malformed request; `declined`
 *   when the model cannot take the request or the model request fails (the message says why).
 */
export async function generateWith(model: SamplingModel, params: CreateMessageRequestParams, signal: AbortSignal, justification: string): Promise<CreateMessageResult> {
  const request = buildLmRequest(params, model);
  if (signal.aborted) throw cancelled(signal);
  // Our own stop, so a cut reply (maxTokens, stop sequence) also cancels the model request.
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  try {
    const stream = await model.send(request, both, justification);
    const completion = await collectCompletion(stream, {
      maxTokens: request.maxTokens,
      stopSequences: request.stopSequences,
      countTokens: (text) => model.countTokens(text, both),
      signal,
    });
    return completionResult(completion, model.id);
  } catch (e) {
    if (signal.aborted) throw cancelled(signal);
    if (e instanceof HostError) throw e;
    throw new HostError('declined', `The language model "${model.id}" failed: ${errorMessage(e)}`);
  } finally {
    stop.abort();
  }
}

function cancelled(signal: AbortSignal): HostError {
  return cancellation(signal, 'The sampling request was cancelled.');
}

/** Plain model data for the review card (no functions: it may be posted to a webview). */
function plain(m: ModelInfo): ModelInfo {
  return { id: m.id, name: m.name, family: m.family, vendor: m.vendor, ...(m.maxInputTokens !== undefined ? { maxInputTokens: m.maxInputTokens } : {}) };
}

/**
 * The host's sampling answerer.
 *
 * `sample(params, ctx)`: waits its turn for `ctx.round.server` (FIFO, one at a time), chooses the
 * model, then reviews (`deps.review`) or, when `settings().autoApprove[server] === true`, generates
 * directly and logs `auto-approved`. The review's backend only runs allowed models, and never with a
 * `maxTokens` above the server's.
 *
 * @throws HostError `declined` (no model, none allowed, the person declined, the model failed),
 *   `cancelled` (`ctx.signal` aborted, also while waiting), `protocol` (malformed request)
 */
export function createSamplingFlow(deps: SamplingFlowDeps): { sample(params: CreateMessageRequestParams, ctx: InputContext): Promise<CreateMessageResult> } {
  const queue = new KeyedQueue(cancelled);
  const sampleNow = async (params: CreateMessageRequestParams, ctx: InputContext): Promise<CreateMessageResult> => {
    const server = ctx.round.server;
    const tag = `[${server}] sampling "${ctx.key}"`;
    // Malformed requests and audio fail before anything is shown: no model could take them.
    buildLmRequest(params, { id: 'any', imageInput: true, toolCalling: true });
    const settings = deps.settings();
    const available = await deps.listModels();
    const choice = chooseModel(available, params.modelPreferences, { allowList: settings.allowedModels, defaultModel: settings.defaultModel });
    for (const h of choice.blockedHints) deps.log.info(`${tag}: hint "${h}" names only models not allowed by mcpRoundtrip.sampling.allowedModels; ignored`);
    deps.log.info(`${tag}: model ${choice.model.id} (${choice.reason === 'hint' ? `hint "${choice.hint}"` : choice.reason})`);
    const justification = `The MCP server "${server}" asks for a completion (sampling).`;
    const backend: SamplingBackend = {
      generate: (modelId, edited, signal) => {
        const model = choice.candidates.find((m) => m.id === modelId);
        if (!model) return Promise.reject(new HostError('declined', `The model "${modelId}" is not allowed for sampling (mcpRoundtrip.sampling.allowedModels).`));
        // The person may edit the prompt, not raise the server's limit (maxTokens MUST be respected).
        const limit = Math.min(typeof edited.maxTokens === 'number' ? edited.maxTokens : params.maxTokens, params.maxTokens);
        return generateWith(model, { ...edited, maxTokens: limit }, signal, justification);
      },
    };
    if (settings.autoApprove[server] === true) {
      const result = await backend.generate(choice.model.id, params, ctx.signal);
      deps.log.info(`${tag}: auto-approved (mcpRoundtrip.sampling.autoApprove), no review; model ${result.model}, stopReason ${result.stopReason}`);
      return result;
    }
    return deps.review({ params, models: choice.candidates.map(plain), chosenModelId: choice.model.id }, backend, ctx);
  };
  return {
    sample: (params, ctx) =>
      queue.run(ctx.round.server, ctx.signal, () => sampleNow(params, ctx), () =>
        deps.log.info(`[${ctx.round.server}] sampling "${ctx.key}" waits: another sampling request of this server is open`),
      ),
  };
}
