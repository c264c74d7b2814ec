/**
 * `sampling/createMessage` answered with `vscode.lm`, a person in the loop (docs/field-cases.md, F6).
 *
 * Thin wiring: the logic lives in `src/core/sampling/`, which runs without the editor.
 *
 * Spec: MCP 2026-07-28, Sampling; `sampling.tools` is declared because tools and `toolChoice` are
 * mapped onto the LM API's tools and the model's tool calls come back as `tool_use` blocks (the host
 * never runs them), and a person writing the reply can pick a tool call too. Sampling is declared
 * even with no language model: the person can always write the reply.
 */
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult } from '@modelcontextprotocol/client';
import * as vscode from 'vscode';
import type { InputContext } from '../../core/inputs/inputProvider';
import { createSamplingFlow, type SamplingModel, type SamplingSettings } from '../../core/sampling/samplingFlow';
import type { InputUi } from '../roundPanel/inputUi';
import { toSamplingModel } from './lmMapping';
import type { RoundTripLog } from '../shared/roundTripLog';
import { isPlainObject } from '../../core/util/json';
import { errorMessage } from '../../core/util/errors';
import { userSetting } from '../shared/userSettings';

/** Answers sampling requests. `capability` is declared to servers only when sampling works. */
export interface Sampler {
  /** `{tools: {}}`: sampling with tools (spec: ClientCapabilities.sampling). */
  readonly capability: ClientCapabilities['sampling'] | undefined;
  /**
   * Answer one request: choose the model, review it with the person (or auto-approve), run it; or
   * take the reply the person writes (the only way when no model can do the request).
   * @throws HostError `declined` (the person declined, an auto-approved model failed), `cancelled`
   *   (`ctx.signal`), `protocol` (malformed request)
   */
  sample(params: CreateMessageRequestParams, ctx: InputContext): Promise<CreateMessageResult>;
}

/** Injection points (tests, other hosts); each defaults to VS Code. */
export interface SamplerOptions {
  /** Available models; default `vscode.lm.selectChatModels()` wrapped by `toSamplingModel`. */
  listModels?: () => Promise<readonly SamplingModel[]>;
  /** Sampling settings; default {@link readSamplingSettings}. */
  settings?: () => SamplingSettings;
}

/**
 * The sampling settings from the `mcpRoundtrip.sampling` section: `allowedModels` (string array),
 * `autoApprove` (server → boolean) and `defaultModel` (id or family; optional: used when neither
 * the server's hints nor its priorities decide).
 * All three are read from user settings only, trusted workspace or not: a workspace (which may define
 * the very server it names) never decides that sampling runs without the person, nor which models it
 * may go to (`shared/userSettings.ts`).
 */
export function readSamplingSettings(): SamplingSettings {
  const allowed = userSetting('sampling.allowedModels');
  const def = userSetting('sampling.defaultModel');
  return {
    allowedModels: Array.isArray(allowed) ? allowed.filter((s): s is string => typeof s === 'string') : [],
    autoApprove: userAutoApprove(),
    ...(typeof def === 'string' && def.trim() ? { defaultModel: def.trim() } : {}),
  };
}

/** The chat models VS Code offers; none when it cannot list them (said in the log: the person can still write the reply). */
async function listChatModels(log: RoundTripLog): Promise<SamplingModel[]> {
  try {
    return (await vscode.lm.selectChatModels()).map(toSamplingModel);
  } catch (e) {
    log.warn(`sampling: VS Code could not list its language models (${errorMessage(e)}); none is offered`);
    return [];
  }
}

/**
 * Create the sampler: sampling through `vscode.lm`, reviewed in the round panel (`ui.reviewSampling`),
 * logged to `log`. Declares `{tools: {}}`.
 */
export function createSampler(ui: InputUi, log: RoundTripLog, options: SamplerOptions = {}): Sampler {
  const flow = createSamplingFlow({
    listModels: options.listModels ?? (() => listChatModels(log)),
    settings: options.settings ?? readSamplingSettings,
    review: (request, backend, ctx) => ui.reviewSampling(request, backend, ctx),
    log,
  });
  return { capability: { tools: {} }, sample: (params, ctx) => flow.sample(params, ctx) };
}

/**
 * `mcpRoundtrip.sampling.autoApprove` as the person's user settings say it (server name → `true` when
 * its sampling runs without review); a workspace's or folder's value is never read.
 */
export function userAutoApprove(): Record<string, unknown> {
  const auto = userSetting('sampling.autoApprove');
  return isPlainObject(auto) ? auto : {};
}
