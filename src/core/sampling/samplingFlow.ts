/**
 * Answering `sampling/createMessage` with a person in the loop (pure orchestration; no `vscode`).
 *
 * For each request: what it needs of a model (`modelNeeds.ts`), the models listed and judged, one
 * chosen (`modelChoice.ts`), then either the review (prompt editable, model picker with the models
 * that cannot do the request marked, completion reviewed before it is returned, or the reply written
 * by the person: always possible, and the only way when no model can) or, for a server the user
 * auto-approved and a model that can, the model run directly and logged. At most one sampling
 * request per server runs at a time; the others wait in order (FIFO). The host never runs the tools
 * a model asks for. The answer's log line says who answered and why that model (`noteAnswer`).
 *
 * Spec: MCP 2026-07-28, Sampling ("human in the loop": see and edit the prompt, deny it, review the
 * completion; `maxTokens` MUST be respected). See docs/field-cases.md, F6.
 */
import type { CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import { oneLine } from '../util/shownText';
import { noteAnswer } from '../inputs/answers';
import type { InputContext } from '../inputs/inputProvider';
import { KeyedQueue } from '../util/async';
import { HostError, cancellation, errorMessage, isHostError } from '../util/errors';
import { collectCompletion, completionResult, type LmResponsePart } from './lmCompletion';
import { buildLmRequest, type LmRequest } from './lmRequest';
import { chooseModel, describeChoice, isAllowed, type ModelChoiceResult } from './modelChoice';
import { type ModelInfo } from './modelNeeds';
import { measurePrompt, requestNeeds } from './modelNeeds';

/** A model that can answer: {@link ModelInfo} (with what it can do) plus its adapter. */
export interface SamplingModel extends ModelInfo {
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
  /** `defaultModel` (id or family): used when neither the hints nor the priorities decide. */
  defaultModel?: string;
}

/** One model as the review card offers it (plain data), with why it cannot do the request when it cannot. */
export interface OfferedModel extends ModelInfo {
  /** Why this model cannot do the request ("no tool calling", ...): it is shown, never pre-selected. */
  unable?: string;
}

/** The models offered for one request, and the one proposed. */
export interface ModelOffer {
  /** The allowed models: those that can do the request first (the proposed one first), then those that cannot. */
  models: OfferedModel[];
  /** The pre-selected model; absent when no allowed model can do the request. */
  chosenModelId?: string;
  /** Why it was proposed (`describeChoice`: `hint "sonnet"`, ...), or why no model can. */
  chosenBecause: string;
  /** Why no model can answer (none available, none allowed, none able), said before anything is sent. */
  noModel?: string;
}

/** What the review card (the round panel's sampling input) shows and lets the person change. */
export interface SamplingReviewRequest extends ModelOffer {
  params: CreateMessageRequestParams;
}

/** Runs the model for the review card (after the person approved the prompt). */
export interface SamplingBackend {
  /**
   * Generate a completion with `modelId` for the (possibly edited) request.
   * @throws HostError with a message to show (model not offered or unable, request failed, cancelled)
   */
  generate(modelId: string, params: CreateMessageRequestParams, signal: AbortSignal): Promise<CreateMessageResult>;
  /**
   * List and judge the models again, by the same rules (after a model failed: it may have gone).
   * @throws HostError `cancelled` when `signal` aborts
   */
  refresh?(signal: AbortSignal): Promise<ModelOffer>;
}

/** How a review ended: the answer, and who gave it. */
export interface ReviewedAnswer {
  result: CreateMessageResult;
  /** `model`: a model's completion, sent from the card; `person`: a reply the person wrote. */
  author: 'model' | 'person';
  /** The person edited the model's completion before sending it. */
  edited?: boolean;
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
  review(request: SamplingReviewRequest, backend: SamplingBackend, ctx: InputContext): Promise<ReviewedAnswer>;
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
export async function generateWith(
  model: SamplingModel,
  params: CreateMessageRequestParams,
  signal: AbortSignal,
  justification: string,
): Promise<CreateMessageResult> {
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
function plain(m: ModelInfo, unable: string | undefined): OfferedModel {
  const known = <K extends keyof ModelInfo>(k: K) => (m[k] !== undefined ? { [k]: m[k] } : {});
  return {
    id: m.id,
    name: m.name,
    family: m.family,
    vendor: m.vendor,
    ...known('maxInputTokens'),
    ...known('imageInput'),
    ...known('toolCalling'),
    ...(unable !== undefined ? { unable } : {}),
  };
}

/** A choice as the review card offers it. */
function offerOf(choice: ModelChoiceResult<SamplingModel>, params: CreateMessageRequestParams): ModelOffer {
  return {
    models: choice.candidates.map((m) => plain(m, choice.unable.get(m.id))),
    ...(choice.model ? { chosenModelId: choice.model.id } : {}),
    chosenBecause: describeChoice(choice, params.modelPreferences),
    ...(choice.noModel ? { noModel: choice.noModel } : {}),
  };
}

/**
 * Malformed requests fail before anything is shown (HostError `protocol`); audio does not: no model
 * can take it, but a person can answer it.
 */
function checkRequest(params: CreateMessageRequestParams): void {
  try {
    buildLmRequest(params, { id: 'any', imageInput: true, toolCalling: true });
  } catch (e) {
    if (!isHostError(e, 'declined')) throw e;
  }
}

/** The note of a reviewed answer's log line: who answered, and why that model. */
function answerNote(answer: ReviewedAnswer, offer: ModelOffer): string {
  if (answer.author === 'person') {
    return offer.chosenModelId
      ? `written by a person in the review card (proposed: model ${offer.chosenModelId}, by ${offer.chosenBecause})`
      : 'written by a person in the review card (no allowed model could answer)';
  }
  const model = String(answer.result.model);
  const edited = answer.edited ? ', completion edited in the review' : '';
  if (model === offer.chosenModelId) return `answered by model ${model}, chosen by ${offer.chosenBecause}${edited}`;
  return `answered by model ${model}, picked in the review (proposed: ${offer.chosenModelId ?? 'none'}, by ${offer.chosenBecause})${edited}`;
}

/** How a sampling request's log lines begin. Server text in a log line is one line, cut: a key cannot forge or flood lines. */
function logTag(ctx: InputContext): string {
  return `[${oneLine(ctx.round.server, 100)}] sampling "${oneLine(ctx.key, 100)}"`;
}

/**
 * The host's sampling answerer.
 *
 * `sample(params, ctx)`: waits its turn for `ctx.round.server` (FIFO, one at a time), judges and
 * chooses the model, then reviews (`deps.review`) or, when `settings().autoApprove[server] === true`
 * and a model can do the request, generates directly and logs `auto-approved`. The review's backend
 * runs only allowed models that can do the request, and never with a `maxTokens` above the server's.
 *
 * @throws HostError `declined` (the person declined, the auto-approved model failed), `cancelled`
 *   (`ctx.signal` aborted, also while waiting), `protocol` (malformed request)
 */
export function createSamplingFlow(deps: SamplingFlowDeps): {
  sample(params: CreateMessageRequestParams, ctx: InputContext): Promise<CreateMessageResult>;
} {
  const queue = new KeyedQueue(cancelled);
  const sampleNow = async (params: CreateMessageRequestParams, ctx: InputContext): Promise<CreateMessageResult> => {
    const server = ctx.round.server;
    const tag = logTag(ctx);
    checkRequest(params);
    const needs = requestNeeds(params);
    const judge = async (signal: AbortSignal) => {
      const settings = deps.settings();
      const available = await deps.listModels();
      const allowed = available.filter((m) => isAllowed(m, settings.allowedModels));
      const promptTokens = await measurePrompt(allowed, needs.promptText, signal);
      const choice = chooseModel(available, params.modelPreferences, {
        allowList: settings.allowedModels,
        defaultModel: settings.defaultModel,
        needs,
        promptTokens,
      });
      for (const h of choice.blockedHints)
        deps.log.info(`${tag}: hint "${oneLine(h, 100)}" names only models not allowed by mcpRoundtrip.sampling.allowedModels; ignored`);
      for (const h of choice.unableHints)
        deps.log.info(`${tag}: hint "${oneLine(h, 100)}" names only models that cannot do this request; passed over`);
      const unable = choice.candidates.filter((m) => choice.unable.has(m.id)).map((m) => `${m.id} (${choice.unable.get(m.id)})`);
      if (unable.length && choice.model) deps.log.info(`${tag}: cannot do this request: ${unable.join(', ')}`);
      const offer = offerOf(choice, params);
      deps.log.info(
        choice.model ? `${tag}: model ${choice.model.id} (${offer.chosenBecause})` : `${tag}: no model can answer: ${offer.noModel}`,
      );
      return { settings, choice, offer };
    };
    let judged = await judge(ctx.signal);
    const justification = `The MCP server "${server}" asks for a completion (sampling).`;
    const backend: SamplingBackend = {
      generate: (modelId, edited, signal) => {
        const { choice } = judged;
        const model = choice.candidates.find((m) => m.id === modelId);
        if (!model)
          return Promise.reject(
            new HostError(
              'declined',
              `The model "${modelId}" is not offered for sampling (not available, or not allowed by mcpRoundtrip.sampling.allowedModels).`,
            ),
          );
        const unable = choice.unable.get(modelId);
        if (unable)
          return Promise.reject(
            new HostError('declined', `The model "${modelId}" cannot do this request: ${unable}. Pick another model, or write the reply.`),
          );
        // The person may edit the prompt, not raise the server's limit (maxTokens MUST be respected).
        const limit = Math.min(typeof edited.maxTokens === 'number' ? edited.maxTokens : params.maxTokens, params.maxTokens);
        return generateWith(model, { ...edited, maxTokens: limit }, signal, justification);
      },
      refresh: async (signal) => (judged = await judge(signal)).offer,
    };
    if (judged.settings.autoApprove[server] === true) {
      if (judged.choice.model) {
        const result = await backend.generate(judged.choice.model.id, params, ctx.signal);
        noteAnswer(
          result,
          `answered by model ${result.model} without review (mcpRoundtrip.sampling.autoApprove), chosen by ${judged.offer.chosenBecause}`,
        );
        deps.log.info(
          `${tag}: auto-approved (mcpRoundtrip.sampling.autoApprove), no review; model ${result.model}, stopReason ${result.stopReason}`,
        );
        return result;
      }
      deps.log.info(`${tag}: not auto-approved, as no model can answer; the review card lets you write the reply`);
    }
    const answer = await deps.review({ params, ...judged.offer }, backend, ctx);
    noteAnswer(answer.result, answerNote(answer, judged.offer));
    return answer.result;
  };
  return {
    sample: (params, ctx) =>
      queue.run(
        ctx.round.server,
        ctx.signal,
        () => sampleNow(params, ctx),
        () => deps.log.info(`${logTag(ctx)} waits: another sampling request of this server is open`),
      ),
  };
}
